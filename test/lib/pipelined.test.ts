import { describe, expect, it } from 'vitest';

import { pipelined, PreviousCommitFailed } from '../../src/lib/pipelined.ts';

/** A source of 0..n-1 that records what was pulled and whether it was closed. */
function source(n: number, failAt: number | null = null) {
  const pulled: number[] = [];
  let closed = false;
  async function* generate() {
    try {
      for (let i = 0; i < n; i++) {
        await tick();
        if (i === failAt) throw new Error(`source failed at ${i}`);
        pulled.push(i);
        yield i;
      }
    } finally {
      closed = true;
    }
  }
  return {
    iterator: generate(),
    pulled,
    get closed() {
      return closed;
    },
  };
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** A commit whose unordered part takes `ms`, then awaits `previous`, then records its item. */
function recorder(options: { ms?: (item: number) => number; failAt?: number } = {}) {
  const ordered: number[] = [];
  const events: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const commit = async (item: number, previous: Promise<void>) => {
    running++;
    maxRunning = Math.max(maxRunning, running);
    events.push(`start ${item}`);
    try {
      await new Promise((resolve) => setTimeout(resolve, options.ms?.(item) ?? 2));
      if (item === options.failAt) throw new Error(`commit ${item} failed`);
      await previous;
      ordered.push(item);
      events.push(`end ${item}`);
    } finally {
      running--;
    }
  };
  return {
    commit,
    ordered,
    events,
    get maxRunning() {
      return maxRunning;
    },
  };
}

describe('pipelined', () => {
  it('commits every item once, in order, one at a time without overlap', async () => {
    const src = source(6);
    const rec = recorder();
    await pipelined(src.iterator, (i) => i, rec.commit);
    expect(rec.ordered).toEqual([0, 1, 2, 3, 4, 5]);
    expect(rec.maxRunning).toBe(1);
    expect(src.closed).toBe(true);
  });

  it('prepares the next item while the current one commits', async () => {
    const src = source(3);
    const prepared: string[] = [];
    const rec = recorder({ ms: () => 20 });
    await pipelined(
      src.iterator,
      (i) => {
        prepared.push(`prepare ${i} (${rec.events.length} events)`);
        return i;
      },
      rec.commit,
    );
    // Item 1 was prepared after commit 0 started and before it ended.
    expect(prepared[1]).toBe('prepare 1 (1 events)');
  });

  it('overlaps two commits with overlap and still finishes them in order', async () => {
    const src = source(8);
    // Even items are slow, so an odd item would finish first if it did not await `previous`.
    const rec = recorder({ ms: (i) => (i % 2 === 0 ? 15 : 1) });
    await pipelined(src.iterator, (i) => i, rec.commit, true);
    expect(rec.ordered).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(rec.maxRunning).toBe(2);
  });

  it.each([false, true])('never holds more than two items (overlap: %s)', async (overlap) => {
    const src = source(10);
    const rec = recorder({ ms: (i) => (i % 3 === 0 ? 12 : 3) });
    let inHand = 0;
    let maxInHand = 0;
    const prepare = (i: number) => {
      inHand++;
      maxInHand = Math.max(maxInHand, inHand);
      return i;
    };
    const commit = async (item: number, previous: Promise<void>) => {
      try {
        await rec.commit(item, previous);
      } finally {
        inHand--;
      }
    };
    await pipelined(src.iterator, prepare, commit, overlap);
    expect(maxInHand).toBe(2);
    expect(rec.maxRunning).toBe(overlap ? 2 : 1);
    expect(src.pulled).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('fails the commit after a failed one, throws the first error and closes the source', async () => {
    const src = source(10);
    const seen: unknown[] = [];
    const rec = recorder({ ms: (i) => (i === 3 ? 20 : 1), failAt: 3 });
    const commit = async (item: number, previous: Promise<void>) => {
      try {
        await rec.commit(item, previous);
      } catch (err) {
        seen.push(err);
        throw err;
      }
    };
    await expect(pipelined(src.iterator, (i) => i, commit, true)).rejects.toThrow(
      'commit 3 failed',
    );
    // Item 4 ran beside item 3 but could not finish past it.
    expect(rec.ordered).toEqual([0, 1, 2]);
    expect(rec.events).toContain('start 4');
    expect(seen[1]).toBeInstanceOf(PreviousCommitFailed);
    expect(src.closed).toBe(true);
    // Nothing was pulled far beyond the failure.
    expect(Math.max(...src.pulled)).toBeLessThanOrEqual(5);
  });

  it('lets the commits in flight settle before a source error is thrown', async () => {
    const src = source(5, 3);
    const rec = recorder({ ms: () => 10 });
    await expect(pipelined(src.iterator, (i) => i, rec.commit, true)).rejects.toThrow(
      'source failed at 3',
    );
    // Items 0..2 were committed: work done before a failure is kept.
    expect(rec.ordered).toEqual([0, 1, 2]);
    expect(src.closed).toBe(true);
  });

  it('throws an error of prepare without committing that item', async () => {
    const src = source(5);
    const rec = recorder();
    const prepare = (i: number) => {
      if (i === 2) throw new Error('prepare failed at 2');
      return i;
    };
    await expect(pipelined(src.iterator, prepare, rec.commit, true)).rejects.toThrow(
      'prepare failed at 2',
    );
    expect(rec.ordered).toEqual([0, 1]);
    expect(src.closed).toBe(true);
  });

  it('does not crash when a commit ignores a failed predecessor', async () => {
    const src = source(4);
    const commit = async (item: number) => {
      await tick();
      if (item === 1) throw new Error('commit 1 failed');
    };
    await expect(pipelined(src.iterator, (i) => i, commit, true)).rejects.toThrow(
      'commit 1 failed',
    );
  });
});

import { describe, expect, it } from 'vitest';

import {
  type Batch,
  type BatchOutcome,
  Coalescer,
  type CoalescerMetrics,
} from '../../src/webhooks/coalescer.ts';
import { captureLogger, parseLogLines } from '../helpers/logs.ts';

const DEBOUNCE_MS = 40;

interface Harness {
  coalescer: Coalescer;
  batches: Batch[];
  lags: number[];
  statuses: string[];
  /** Resolves the sync in flight with `outcome`. */
  finish(outcome?: BatchOutcome): void;
  /** Resolves once `n` syncs have started (bounded). */
  started(n: number): Promise<void>;
}

function harness(options: { maxQueued?: number; autoFinish?: BatchOutcome | null } = {}): Harness {
  const batches: Batch[] = [];
  const lags: number[] = [];
  const statuses: string[] = [];
  let release: ((outcome: BatchOutcome) => void) | null = null;
  const metrics: CoalescerMetrics = {
    observeLag: (s) => lags.push(s),
    setQueued: () => undefined,
    recordSync: (status) => statuses.push(status),
  };
  const coalescer = new Coalescer({
    debounceMs: DEBOUNCE_MS,
    maxQueued: options.maxQueued ?? 100,
    metrics,
    log: captureLogger('info').log,
    sync: (batch) => {
      batches.push(batch);
      if (options.autoFinish != null) return Promise.resolve(options.autoFinish);
      return new Promise((resolve) => (release = resolve));
    },
  });
  return {
    coalescer,
    batches,
    lags,
    statuses,
    finish(outcome = { status: 'succeeded' }) {
      const resolve = release;
      release = null;
      if (resolve === null) throw new Error('no sync in flight');
      resolve(outcome);
    },
    async started(n) {
      const deadline = Date.now() + 5_000;
      while (batches.length < n) {
        if (Date.now() > deadline) throw new Error(`${batches.length} syncs started, not ${n}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}

const event = (project: string | null, timestamp: string | null = new Date().toISOString()) => ({
  project,
  timestamp,
  receivedAt: Date.now(),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the coalescer', () => {
  it('turns events within the debounce into one sync of the projects they name', async () => {
    const h = harness({ autoFinish: { status: 'succeeded' } });
    for (const project of ['a', 'b', 'a', 'c'])
      expect(h.coalescer.accept(event(project))).toBe(true);
    await h.started(1);
    await h.coalescer.stop();
    expect(h.batches).toHaveLength(1);
    expect(h.batches[0]!.events).toBe(4);
    expect([...h.batches[0]!.projects!].sort()).toEqual(['a', 'b', 'c']);
    expect(h.lags).toHaveLength(4);
    expect(h.statuses).toEqual(['succeeded']);
  });

  it('syncs every project when one event names none', async () => {
    const h = harness({ autoFinish: { status: 'succeeded' } });
    h.coalescer.accept(event('a'));
    h.coalescer.accept(event(null, null));
    await h.started(1);
    await h.coalescer.stop();
    expect(h.batches[0]!.projects).toBeNull();
  });

  it('runs one sync at a time; events that come meanwhile make exactly one more', async () => {
    const h = harness();
    h.coalescer.accept(event('a'));
    await h.started(1);
    for (let i = 0; i < 5; i++) h.coalescer.accept(event('b'));
    // Longer than the debounce: no second sync while the first runs.
    await sleep(DEBOUNCE_MS * 3);
    expect(h.batches).toHaveLength(1);
    expect(h.coalescer.queued).toBe(5);
    h.finish();
    await h.started(2);
    expect(h.batches[1]!.events).toBe(5);
    expect([...h.batches[1]!.projects!]).toEqual(['b']);
    h.finish();
    await sleep(DEBOUNCE_MS * 3);
    expect(h.batches).toHaveLength(2);
    await h.coalescer.stop();
  });

  it('does not let steady events postpone a sync: it starts a debounce after the first', async () => {
    const h = harness({ autoFinish: { status: 'succeeded' } });
    // An event every DEBOUNCE_MS / 4, for up to 10 debounces: timers fire in the order they
    // are due, so the sync (due a debounce after the first) starts after about four of them.
    for (let i = 0; i < 40 && h.batches.length === 0; i++) {
      h.coalescer.accept(event('a'));
      await sleep(DEBOUNCE_MS / 4);
    }
    await h.started(1);
    expect(h.batches[0]!.events).toBeLessThan(10);
    await h.coalescer.stop();
  });

  it('tries a failed batch again with its events, then leaves it to the schedule after three failures', async () => {
    const h = harness({ autoFinish: { status: 'failed' } });
    h.coalescer.accept(event('a'));
    await h.started(3);
    await sleep(DEBOUNCE_MS * 10);
    expect(h.batches).toHaveLength(3);
    expect(h.batches.map((b) => b.events)).toEqual([1, 1, 1]);
    expect(h.statuses).toEqual(['failed', 'failed', 'failed']);
    expect(h.lags).toEqual([]);
    expect(h.coalescer.queued).toBe(0);
    await h.coalescer.stop();
  });

  it('logs a sync that throws by its message, and tries the batch again', async () => {
    const { log, lines } = captureLogger('info');
    let calls = 0;
    const coalescer = new Coalescer({
      debounceMs: DEBOUNCE_MS,
      maxQueued: 100,
      metrics: {
        observeLag: () => undefined,
        setQueued: () => undefined,
        recordSync: () => undefined,
      },
      log,
      sync: () => {
        calls += 1;
        return calls === 1
          ? Promise.reject(
              Object.assign(new Error('boom'), { query: 'select $1', parameters: ['x'] }),
            )
          : Promise.resolve({ status: 'succeeded' });
      },
    });
    coalescer.accept(event('a'));
    const deadline = Date.now() + 5_000;
    while (calls < 2 && Date.now() < deadline) await sleep(5);
    expect(calls).toBe(2);
    const failed = parseLogLines(lines.join('\n')).filter(
      (l) => l.msg === 'sync of webhook events failed',
    );
    expect(failed).toEqual([expect.objectContaining({ error: 'boom' })]);
    expect(failed[0]).not.toHaveProperty('err');
    await coalescer.stop();
  });

  it('tries a skipped batch again only when told to', async () => {
    const locked = harness({ autoFinish: { status: 'skipped', retry: true } });
    locked.coalescer.accept(event('a'));
    await locked.started(2);
    await locked.coalescer.stop();
    const first = harness({ autoFinish: { status: 'skipped', retry: false } });
    first.coalescer.accept(event('a'));
    await first.started(1);
    await sleep(DEBOUNCE_MS * 3);
    expect(first.batches).toHaveLength(1);
    expect(first.coalescer.queued).toBe(0);
    await first.coalescer.stop();
  });

  it('refuses events beyond its bound, and after it stopped', async () => {
    const h = harness({ maxQueued: 3 });
    const accepted = Array.from({ length: 5 }, () => h.coalescer.accept(event('a')));
    expect(accepted).toEqual([true, true, true, false, false]);
    await h.started(1);
    // The batch in flight left the queue: there is room again.
    expect(h.coalescer.accept(event('a'))).toBe(true);
    const stopping = h.coalescer.stop();
    expect(h.coalescer.accept(event('a'))).toBe(false);
    h.finish();
    await stopping;
    expect(h.batches).toHaveLength(1);
  });
});

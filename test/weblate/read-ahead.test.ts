import { describe, expect, it } from 'vitest';

import { readAhead, type ReadAheadPlan } from '../../src/weblate/read-ahead.ts';

/** Ranges 1..`count`, at most `atOnce` in flight, up to 4 once `widened` settles. */
function plan(
  count: number,
  atOnce: number,
  widened?: Promise<void>,
): ReadAheadPlan<number, number> {
  let next = 1;
  let limit = atOnce;
  let waiting = widened?.then(() => void ((limit = 4), (waiting = null))) ?? null;
  return {
    pagesInHand: () => 4,
    next: (inFlight) => (inFlight >= limit || next > count ? null : next++),
    learn: () => undefined,
    wake: () => waiting,
  };
}

describe('reading ahead', () => {
  it('yields every page once, as they arrive', async () => {
    const seen: number[] = [];
    for await (const page of readAhead(plan(5, 2), (range) => Promise.resolve(range * 10)))
      seen.push(page);
    expect(seen.sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 50]);
  });

  it('asks again as soon as the plan widens, without waiting for an answer', async () => {
    let widen = () => {};
    const widened = new Promise<void>((resolve) => (widen = resolve));
    const asked: number[] = [];
    const answers = new Map<number, () => void>();
    const fetch = (range: number) => {
      asked.push(range);
      return new Promise<number>((resolve) => answers.set(range, () => resolve(range)));
    };
    const pages: number[] = [];
    const walk = (async () => {
      for await (const page of readAhead(plan(3, 1, widened), fetch)) pages.push(page);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // One at a time: the first range is unanswered, so nothing else is asked.
    expect(asked).toEqual([1]);
    widen();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toEqual([1, 2, 3]);
    for (const answer of answers.values()) answer();
    await walk;
    expect(pages.sort()).toEqual([1, 2, 3]);
  });

  it('waits with nothing in flight while the plan holds back, then asks again', async () => {
    let release = () => {};
    let held: Promise<void> | null = new Promise<void>((resolve) => (release = resolve));
    void held.then(() => (held = null));
    let next = 1;
    const holding: ReadAheadPlan<number, number> = {
      pagesInHand: () => 1,
      // Range 2 waits for the release.
      next: () => (next === 2 && held !== null ? null : next > 3 ? null : next++),
      learn: () => undefined,
      wake: () => held,
    };
    const pages: number[] = [];
    const walk = (async () => {
      for await (const page of readAhead(holding, (range) => Promise.resolve(range)))
        pages.push(page);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pages).toEqual([1]);
    release();
    await walk;
    expect(pages).toEqual([1, 2, 3]);
  });

  it('ends with the abort reason when aborted while the plan holds back', async () => {
    const controller = new AbortController();
    const holding: ReadAheadPlan<number, number> = {
      pagesInHand: () => 1,
      next: () => null,
      learn: () => undefined,
      wake: () => new Promise<void>(() => {}),
    };
    const pages: number[] = [];
    const walk = (async () => {
      const read = readAhead(holding, (range) => Promise.resolve(range), controller.signal);
      for await (const page of read) pages.push(page);
    })();
    controller.abort(new Error('stopped'));
    await expect(walk).rejects.toThrow('stopped');
    expect(pages).toEqual([]);
  });
});

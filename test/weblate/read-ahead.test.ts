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
  void widened?.then(() => (limit = 4));
  return {
    pagesInHand: () => 4,
    next: (inFlight) => (inFlight >= limit || next > count ? null : next++),
    learn: () => undefined,
    widened,
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
});

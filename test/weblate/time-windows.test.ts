import { describe, expect, it } from 'vitest';

import { fromEpochMicros, toEpochMicros } from '../../src/lib/timestamps.ts';
import { TimeWindows } from '../../src/weblate/change-window.ts';

const DAY = 86_400n * 1_000_000n;
const END = '2026-11-20T12:00:00.000000Z';
const minus = (iso: string, micros: bigint) => fromEpochMicros(toEpochMicros(iso) - micros);

describe('time windows', () => {
  it('start with the last day and aim each window at one page', () => {
    const windows = new TimeWindows(100);
    const first = windows.lowerBound(END, null)!;
    expect(first).toBe(minus(END, DAY));
    // Fifty changes in a day: the next window spans two days.
    windows.observe(END, first, 50);
    expect(windows.lowerBound(first, null)).toBe(minus(first, 2n * DAY));
    // Eight hundred in two days: a quarter of that span, not less.
    windows.observe(first, minus(first, 2n * DAY), 800);
    expect(windows.lowerBound(first, null)).toBe(minus(first, DAY / 2n));
  });

  it('grow at most fourfold, and eightfold over an empty window', () => {
    const windows = new TimeWindows(100);
    const first = windows.lowerBound(END, null)!;
    windows.observe(END, first, 1);
    expect(windows.lowerBound(first, null)).toBe(minus(first, 4n * DAY));
    windows.observe(first, minus(first, 4n * DAY), 0);
    expect(windows.lowerBound(minus(first, 4n * DAY), null)).toBe(minus(first, 36n * DAY));
  });

  it('read the rest at once when the last day is empty', () => {
    const windows = new TimeWindows(100);
    windows.observe(END, windows.lowerBound(END, null)!, 0);
    expect(windows.lowerBound(minus(END, DAY), null)).toBeNull();
    // That read found more than a page, spread over ten days: windows of ten days follow.
    const oldest = minus(END, 11n * DAY);
    windows.observeRest(minus(END, DAY), oldest);
    expect(windows.lowerBound(oldest, null)).toBe(minus(oldest, 10n * DAY));
  });

  it('read the rest after three empty windows in a row once changes were found', () => {
    const windows = new TimeWindows(100);
    let before = END;
    let lower = windows.lowerBound(before, null)!;
    windows.observe(before, lower, 100);
    for (let i = 0; i < 3; i += 1) {
      before = lower;
      lower = windows.lowerBound(before, null)!;
      expect(lower).not.toBeNull();
      windows.observe(before, lower, 0);
    }
    expect(windows.lowerBound(lower, null)).toBeNull();
  });

  it('start a day below the newest change expected, when it is older than the upper bound', () => {
    const newest = minus(END, 300n * DAY);
    const windows = new TimeWindows(100, newest);
    const first = windows.lowerBound(END, null)!;
    expect(first).toBe(minus(newest, DAY));
    windows.observe(END, first, 100);
    // A page in the day below the newest change: the next window spans a day too.
    expect(windows.lowerBound(first, null)).toBe(minus(first, DAY));
    // A hint above the upper bound changes nothing.
    expect(new TimeWindows(100, END).lowerBound(minus(END, DAY), null)).toBe(minus(END, 2n * DAY));
  });

  it('never go below the walk lower bound or the epoch', () => {
    const windows = new TimeWindows(100);
    expect(windows.lowerBound(END, minus(END, DAY / 2n))).toBeNull();
    expect(windows.lowerBound('1970-01-01T12:00:00.000000Z', null)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';

import { fromEpochMicros, toEpochMicros } from '../../src/lib/timestamps.ts';
import {
  TimePlan,
  type TimeRange,
  TimeWindows,
  type WindowPage,
} from '../../src/weblate/change-window.ts';
import type { WeblateClient } from '../../src/weblate/client.ts';

const DAY = 86_400n * 1_000_000n;
const END = '2026-11-20T12:00:00.000000Z';
const minus = (iso: string, micros: bigint) => fromEpochMicros(toEpochMicros(iso) - micros);

/** Windows after a first read that found `count` changes, the newest page spanning `span`. */
function afterFirstRead(count: number, span = DAY): TimeWindows {
  const windows = new TimeWindows(100);
  expect(windows.lowerBound(END, null)).toBeNull();
  windows.observeRest(END, minus(END, span), count, 100);
  return windows;
}

describe('time windows', () => {
  it('read the whole window first: a history of a page or less takes that one request', () => {
    const windows = new TimeWindows(100);
    expect(windows.lowerBound(END, null)).toBeNull();
  });

  it('then span what the newest page spanned, and aim each window at one page', () => {
    const windows = afterFirstRead(1000);
    const first = windows.lowerBound(minus(END, DAY), null)!;
    expect(first).toBe(minus(END, 2n * DAY));
    // Fifty changes in that day: the next window spans two.
    windows.observe(minus(END, DAY), first, 50, 50);
    expect(windows.lowerBound(first, null)).toBe(minus(first, 2n * DAY));
    // Eight hundred in two days, more than a page: a page's worth of that, six hours.
    windows.observe(first, minus(first, 2n * DAY), 800, 100);
    expect(windows.lowerBound(first, null)).toBe(minus(first, DAY / 4n));
  });

  it('grow at most fourfold, and eightfold over an empty window', () => {
    const windows = afterFirstRead(1000);
    const before = minus(END, DAY);
    windows.observe(before, minus(before, DAY), 1, 1);
    expect(windows.lowerBound(before, null)).toBe(minus(before, 4n * DAY));
    windows.observe(before, minus(before, 4n * DAY), 0, 0);
    expect(windows.lowerBound(before, null)).toBe(minus(before, 32n * DAY));
  });

  it('read the rest down to the bound once the changes left fit in a page', () => {
    const windows = afterFirstRead(300);
    let before = minus(END, DAY);
    const lower = windows.lowerBound(before, null)!;
    windows.observe(before, lower, 100, 100);
    before = lower;
    // 300 counted, 200 seen: the last 100 fit in a page.
    expect(windows.lowerBound(before, null)).toBeNull();
  });

  it('read the rest after three empty windows in a row, and go on if it finds more', () => {
    const windows = afterFirstRead(10_000);
    let before = minus(END, DAY);
    for (let i = 0; i < 3; i += 1) {
      const lower = windows.lowerBound(before, null)!;
      expect(lower).not.toBeNull();
      windows.observe(before, lower, 0, 0);
      before = lower;
    }
    expect(windows.lowerBound(before, null)).toBeNull();
    windows.observeRest(before, minus(before, DAY), 5000, 100);
    expect(windows.lowerBound(minus(before, DAY), null)).toBe(minus(before, 2n * DAY));
  });

  it('of a history too large to count once start with a window of the span given, and grow from it', () => {
    const HOUR = 3_600_000_000n;
    const windows = new TimeWindows(100, { seconds: 3600, newestHint: null });
    const first = windows.lowerBound(END, null)!;
    expect(first).toBe(minus(END, HOUR));
    // A quiet newest hour: the next window spans eight.
    windows.observe(END, first, 0, 0);
    const second = windows.lowerBound(first, null)!;
    expect(second).toBe(minus(first, 8n * HOUR));
    // 25 changes in those eight hours: four times the span, a page at that density.
    windows.observe(first, second, 25, 25);
    expect(windows.lowerBound(second, null)).toBe(minus(second, 32n * HOUR));
  });

  it('reach from the end down past the newest activity in their first window', () => {
    const HOUR = 3_600_000_000n;
    const newest = minus(END, 30n * DAY);
    const windows = new TimeWindows(100, { seconds: 3600, newestHint: newest });
    expect(windows.lowerBound(END, null)).toBe(minus(newest, HOUR));
    // A hint above the end changes nothing.
    const later = new TimeWindows(100, { seconds: 3600, newestHint: minus(END, -DAY) });
    expect(later.lowerBound(END, null)).toBe(minus(END, HOUR));
  });

  it('shrink to fit a window that held more than a page at once', () => {
    const windows = new TimeWindows(100, { seconds: 3600, newestHint: null });
    const first = windows.lowerBound(END, null)!;
    windows.observe(END, first, 10_000, 100);
    // A hundred pages in an hour: the next window spans a hundredth of it.
    expect(windows.lowerBound(first, null)).toBe(minus(first, 3_600_000_000n / 100n));
  });

  it('never go below the walk lower bound or the epoch', () => {
    const windows = afterFirstRead(10_000, 30n * DAY);
    expect(windows.lowerBound(minus(END, DAY), minus(END, 2n * DAY))).toBeNull();
    expect(afterFirstRead(10_000).lowerBound('1970-01-01T12:00:00.000000Z', null)).toBeNull();
  });
});

describe('time windows read side by side', () => {
  it('start only once the last window at the edge was busy, and while more than two pages are left', () => {
    const windows = new TimeWindows(100, { seconds: 3600, newestHint: null });
    // The first window (the newest hour) is read alone.
    expect(windows.hasRoomBeside(1)).toBe(false);
    const first = windows.lowerBound(END, null)!;
    windows.observe(END, first, 3, 3);
    // A quiet stretch: its windows still grow one by one.
    expect(windows.hasRoomBeside(1)).toBe(false);
    const second = windows.lowerBound(first, null)!;
    windows.observe(first, second, 80, 80);
    // Busy, and nothing known of what is left: room beside any number in flight.
    expect(windows.hasRoomBeside(3)).toBe(true);
    // An empty window at the edge may be the end of the history: one at a time again.
    const third = windows.lowerBound(second, null)!;
    windows.observe(second, third, 0, 0);
    expect(windows.hasRoomBeside(1)).toBe(false);
  });

  it('count what is left when a read down to the bound said how much, after one window alone', () => {
    const windows = afterFirstRead(1000);
    // The newest page's span says little of the density further down: one window alone first.
    expect(windows.hasRoomBeside(1)).toBe(false);
    const before = minus(END, DAY);
    const lower = windows.lowerBound(before, null)!;
    windows.observe(before, lower, 100, 100);
    // 1,000 expected, 200 read: 800 left; three pages in flight leave 500 beyond them.
    expect(windows.hasRoomBeside(3)).toBe(true);
    // Six in flight would leave 200: not more than two pages.
    expect(windows.hasRoomBeside(6)).toBe(false);
  });

  it('neither widen nor count as empty a window that answered beside others, away from the edge', () => {
    const windows = afterFirstRead(1000);
    const before = minus(END, DAY);
    const lower = windows.lowerBound(before, null)!;
    expect(lower).toBe(minus(before, DAY));
    windows.observe(before, lower, 100, 100);
    const next = windows.lowerBound(lower, null)!;
    expect(next).toBe(minus(lower, DAY));
    windows.observe(lower, next, 0, 0, { mayGrow: false });
    // Neither eightfold growth nor an empty window in a row: the span stays a day.
    expect(windows.lowerBound(next, null)).toBe(minus(next, DAY));
    expect(windows.hasRoomBeside(1)).toBe(true);
  });
});

describe('a time plan', () => {
  const client = { resolve: (target: string | URL) => new URL(target, 'http://weblate.test/api/') };
  const plan = () =>
    new TimePlan(client as unknown as WeblateClient, 'changes/', {
      resource: 'changes',
      pageSize: 100,
      after: null,
      before: END,
      timeWindows: true,
      concurrency: 4,
    });
  const answer = (
    range: TimeRange,
    { count, served, oldest }: { count: number; served: number; oldest: string | null },
  ): WindowPage => ({
    oldest,
    newest: range.upper,
    next: count > served ? 'changes/?page=2' : null,
    count,
    served,
  });

  it('reads the history alone until a window at the edge was busy, then side by side', () => {
    const times = plan();
    const first = times.next(0)!;
    // The first read goes down to the walk's bound, alone.
    expect(first.lower).toBeNull();
    expect(times.next(1)).toBeNull();
    times.learn(first, answer(first, { count: 1000, served: 100, oldest: minus(END, DAY) }));
    const edge = times.next(0)!;
    expect(edge).toMatchObject({ lower: minus(END, 2n * DAY), upper: minus(END, DAY) });
    expect(times.next(1)).toBeNull();
    times.learn(edge, answer(edge, { count: 100, served: 100, oldest: edge.lower }));
    const a = times.next(0)!;
    const b = times.next(1)!;
    expect([a.upper, b.upper]).toEqual([minus(END, 2n * DAY), minus(END, 3n * DAY)]);
  });

  it('cuts the rest of a window that overflowed beside others into pages by its count', () => {
    const times = plan();
    const first = times.next(0)!;
    times.learn(first, answer(first, { count: 1000, served: 100, oldest: minus(END, DAY) }));
    const edge = times.next(0)!;
    times.learn(edge, answer(edge, { count: 100, served: 100, oldest: edge.lower }));
    const above = times.next(0)!;
    const below = times.next(1)!;
    // The window above held 450: its page reached down a quarter of it, 350 are left.
    const quarter = minus(above.upper, DAY / 4n);
    times.learn(above, answer(above, { count: 450, served: 100, oldest: quarter }));
    const rests = [times.next(1), times.next(2), times.next(3), times.next(3)];
    expect(rests.map((r) => [r!.upper, r!.lower])).toEqual([
      [quarter, minus(quarter, (DAY * 3n) / 16n)],
      [minus(quarter, (DAY * 3n) / 16n), minus(quarter, (DAY * 6n) / 16n)],
      [minus(quarter, (DAY * 6n) / 16n), minus(quarter, (DAY * 9n) / 16n)],
      [minus(quarter, (DAY * 9n) / 16n), above.lower],
    ]);
    expect(below.lower).not.toBeNull();
  });
});

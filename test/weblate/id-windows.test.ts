import { describe, expect, it } from 'vitest';

import { IdHints } from '../../src/weblate/id-hints.ts';
import { IdWindows, type KeysetPage, WindowPlan } from '../../src/weblate/keyset.ts';

/** A page of `found` matches (count) of which `served` came back, asked at `pageSize`. */
/** What a plan needs of a client: URLs to build, and no timeout to keep pages under. */
const FAKE_CLIENT = {
  resolve: (target: string | URL) => new URL(target, 'http://weblate.test/api/'),
  timeoutMs: Infinity,
};

function page(found: number, pageSize = 100): KeysetPage {
  return {
    url: 'u',
    results: [],
    resultTexts: [],
    ids: [],
    after: null,
    through: null,
    count: found,
    textLength: 0,
    pageSize,
    askedSize: pageSize,
    elapsedMs: 1,
  };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

describe('id windows', () => {
  it('start at one page of dense ids and aim each window at one page', () => {
    const windows = new IdWindows(100, null);
    expect(windows.upperBound(null)).toBe('100');
    // Half a page in the window: ids are half as dense, the next window twice as wide.
    windows.observe(null, '100', page(50), 100);
    expect(windows.upperBound('100')).toBe('300');
    // A window that held four pages: the next is a quarter as wide, not less.
    windows.observe('100', '300', page(800), 100);
    expect(windows.upperBound('300')).toBe('350');
  });

  it('at most double from one window to the next, and grow fourfold over an empty one', () => {
    const windows = new IdWindows(100, null);
    windows.observe(null, '100', page(1), 100);
    expect(windows.upperBound('100')).toBe('300');
    windows.observe('100', '300', page(0), 100);
    expect(windows.upperBound('300')).toBe('1100');
  });

  it('grow over an empty window no wider than two pages at the densest ids seen', () => {
    const windows = new IdWindows(100, null);
    // Dense ids, then a gap (a deleted component's ids): the window after it may land on dense
    // ids again, so it spans two pages of ids, not four times the empty one.
    windows.observe(null, '100', page(100), 100);
    windows.observe('100', '200', page(0), 100);
    expect(windows.upperBound('200')).toBe('400');
  });

  it('end with one unbounded request after two empty windows in a row', () => {
    const windows = new IdWindows(100, null);
    windows.observe(null, '100', page(0), 100);
    expect(windows.upperBound('100')).toBe('500');
    windows.observe('100', '500', page(0), 100);
    expect(windows.upperBound('500')).toBeNull();
    // It found more than a page: the windows go on.
    windows.observe('500', null, page(5000), 100);
    expect(windows.upperBound('900')).toBe('2500');
  });

  it('end with one unbounded request once the rows left to expect fit in a page', () => {
    // Everything fits in one page: one unbounded request.
    expect(new IdWindows(100, 100).upperBound(null)).toBeNull();
    const windows = new IdWindows(100, 250);
    expect(windows.upperBound(null)).toBe('100');
    windows.observe(null, '100', { ...page(100), ids: ids(100) }, 100);
    expect(windows.upperBound('100')).toBe('200');
    windows.observe('100', '200', { ...page(100), ids: ids(100) }, 100);
    expect(windows.upperBound('200')).toBeNull();
    // There were 400 left, not 50: windows until a page is left.
    windows.observe('200', null, { ...page(400), ids: ids(100) }, 100);
    expect(windows.upperBound('300')).toBe('400');
    windows.observe('300', '400', { ...page(100), ids: ids(100) }, 100);
    windows.observe('400', '500', { ...page(100), ids: ids(100) }, 100);
    expect(windows.upperBound('500')).toBeNull();
  });

  it('size the next window for the next page size', () => {
    const windows = new IdWindows(1000, null);
    // The server answered at 1,000 but the next page asks 250 (a timeout halved it twice).
    windows.observe(null, '1000', page(1000, 1000), 250);
    expect(windows.upperBound('1000')).toBe('1250');
  });

  it('after one empty window past dense ids, jump to a hint no further than two pages', () => {
    // Dense ids, a deleted component's gap, then dense ids again that the change history
    // names only at 1,361: the ids between 190 and 1,361 are unknown, not empty.
    const hints = new IdHints();
    hints.add(['1361']);
    const windows = new IdWindows(100, 2000, hints);
    windows.observe(null, '95', { ...page(95), ids: ids(95) }, 100);
    windows.observe('95', '190', page(0), 100);
    const quick = { inFlight: 0, aimed: 0, concurrency: 1, msPerRow: 0 };
    // Two pages of ids at the density seen, aimed at 95 rows.
    expect(windows.next('190', quick)).toEqual({ upTo: '380', aim: 95, pieces: 1 });
    // A second empty window: a gap wider than a component's, and the hint is the best guess.
    windows.observe('190', '380', page(0), 100);
    expect(windows.next('380', quick)).toEqual({ upTo: String(1361 - 1 + 95), aim: 95, pieces: 1 });
  });

  it('keep ids above 2^53 exact', () => {
    const windows = new IdWindows(100, null);
    expect(windows.upperBound('9007199254740993')).toBe('9007199254741093');
  });
});

describe('id windows when the page size changes', () => {
  it('widen at once to hold a page of the new size, whichever window answers', () => {
    const windows = new IdWindows(1000, null);
    expect(windows.upperBound(null)).toBe('1000');
    windows.resize(1000, 4000);
    // The window planned at 1,000 held 1,000 (dense ids); answered below the top, it may only
    // narrow the span, and it finds it right: the next window spans 4,000 ids.
    windows.observe(null, '1000', page(1000, 1000), 4000, { mayGrow: false });
    expect(windows.upperBound('1000')).toBe('5000');
    // Half a page in a window of 4,000 ids: twice as wide, at most.
    windows.observe('1000', '5000', page(2000, 4000), 4000);
    expect(windows.upperBound('5000')).toBe('13000');
  });
});

describe('a window plan', () => {
  const options = (expected: number | null, concurrency: number) => ({
    resource: 'units',
    pageSize: 100,
    q: null,
    after: null,
    windows: { expected, concurrency },
  });
  /** The page that answered (after, upTo]: `served` ids from after + 1, of `count` matches. */
  const answer = (
    range: { after: string | null; upTo: string | null },
    served: number,
    count: number,
    pageSize = 100,
  ): KeysetPage => {
    const from = range.after === null ? 1 : Number(range.after) + 1;
    const pageIds = Array.from({ length: served }, (_, i) => String(from + i));
    return {
      ...page(count, pageSize),
      ids: pageIds,
      after: range.after,
      through: count > served ? pageIds.at(-1)! : range.upTo,
    };
  };

  it('reads windows side by side while more than two pages are left beyond them', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', options(1000, 4));
    const first = plan.next(0)!;
    // Each window aims at 95 rows, a little under its page of 100 (dense ids: 95 ids).
    expect(first).toMatchObject({ after: null, upTo: '95', aim: 95 });
    // 1,000 expected, nothing read: room for windows beside one, two and three in flight.
    const second = plan.next(1)!;
    expect(second).toMatchObject({ after: '95', upTo: '190' });
    expect(plan.next(2)).toMatchObject({ after: '190', upTo: '285' });
    expect(plan.next(3)).toMatchObject({ after: '285', upTo: '380' });
    // Never more requests at once than the concurrency.
    expect(plan.next(4)).toBeNull();
    plan.learn(first, answer(first, 95, 95));
    plan.learn(second, answer(second, 95, 95));
    // 810 left to expect, 190 of it in flight: 620 beyond, room for one more beside two.
    expect(plan.next(2)).toMatchObject({ after: '380', upTo: '475' });
    // 525 beyond the three in flight: and one more.
    expect(plan.next(3)).toMatchObject({ after: '475', upTo: '570' });
  });

  it('reads no window beside others once two pages or less are left beyond them, on a quick server', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', options(380, 4));
    const first = plan.next(0)!;
    plan.learn(first, { ...answer(first, 95, 95), elapsedMs: 10 });
    // 285 left, 95 of it in flight: 190 beyond, not more than two pages.
    expect(plan.next(0)).toMatchObject({ after: '95', upTo: '190' });
    expect(plan.next(1)).toBeNull();
  });

  it('cuts the last two pages into windows side by side when the server takes seconds a page', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', { ...options(2900, 4), pageSize: 1000 });
    const first = plan.next(0)!;
    expect(first).toMatchObject({ after: null, upTo: '950' });
    // 950 rows in 30 s: reading the 1,950 left one request after another would take a minute.
    plan.learn(first, { ...answer(first, 950, 950, 1000), elapsedMs: 30_000 });
    const pieces = [plan.next(0)!, plan.next(1)!, plan.next(2)!, plan.next(3)!];
    expect(pieces).toMatchObject([
      { after: '950', upTo: '1437', top: false, aim: 488 },
      { after: '1437', upTo: '1925', top: false, aim: 488 },
      { after: '1925', upTo: '2412', top: false, aim: 488 },
      { after: '2412', upTo: '2900', top: false, aim: 488 },
    ]);
    expect(plan.next(4)).toBeNull();
    for (const piece of pieces) {
      plan.learn(piece, answer(piece, Number(piece.upTo) - Number(piece.after), 100));
    }
    // Then the unbounded request, alone, finds whatever the pieces did not hold.
    expect(plan.next(0)).toMatchObject({ after: '2900', upTo: null });
  });

  it('reads the last two pages as before when the server is quick', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', { ...options(2900, 4), pageSize: 1000 });
    const first = plan.next(0)!;
    // 950 rows in 95 ms: the 1,950 left take about 0.2 s one request after another.
    plan.learn(first, { ...answer(first, 950, 950, 1000), elapsedMs: 95 });
    expect(plan.next(0)).toMatchObject({ after: '950', upTo: '1900', top: true });
    expect(plan.next(1)).toBeNull();
  });

  it('leaves places to another walk while it runs: no more requests at once than it is given', async () => {
    let end = () => {};
    const until = new Promise<void>((resolve) => (end = resolve));
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', {
      ...options(10_000, 4),
      windows: { expected: 10_000, concurrency: 4, share: { atOnce: 3, until } },
    });
    const first = plan.next(0)!;
    expect([first, plan.next(1), plan.next(2)]).toMatchObject([
      { upTo: '95' },
      { upTo: '190' },
      { upTo: '285' },
    ]);
    expect(plan.next(3)).toBeNull();
    // Pages in hand still follow the concurrency (they include pages arrived, not yet taken).
    plan.learn(first, { ...answer(first, 95, 95), textLength: 1_000_000 });
    expect(plan.pagesInHand()).toBe(4);
    // The other walk ended: the fourth place is the walk's too.
    end();
    await plan.wake();
    expect(plan.next(3)).toMatchObject({ after: '285', upTo: '380' });
    expect(plan.next(4)).toBeNull();
  });

  it('in a gap, waits for the first hints of the read beside it, then jumps to the next hinted id', async () => {
    let changesDone = () => {};
    const hints = new IdHints();
    // Enough: three ids.
    hints.expectUntil(new Promise<void>((resolve) => (changesDone = resolve)), 3);
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', {
      ...options(1000, 1),
      windows: { expected: 1000, concurrency: 1, hints },
    });
    const first = plan.next(0)!;
    expect(first).toMatchObject({ after: null, upTo: '95' });
    expect(plan.wake()).toBeNull();
    plan.learn(first, answer(first, 0, 0));
    // An empty window: the walk holds back until the first hints come.
    expect(plan.next(0)).toBeNull();
    const woken = plan.wake();
    expect(woken).not.toBeNull();
    hints.add(['5000000', '5000040']);
    await woken;
    // Two of the three: it waits on.
    expect(plan.next(0)).toBeNull();
    const again = plan.wake()!;
    hints.add(['7000000', 'not an id']);
    await again;
    expect(plan.wake()).toBeNull();
    // A page (95 rows, ids as dense as one per id at most) from the first hinted id on.
    expect(plan.next(0)).toMatchObject({ after: '95', upTo: String(5_000_000 - 1 + 95) });
    changesDone();
  });

  it('in a gap, goes on blind once the read beside it ended without hints', async () => {
    let changesDone = () => {};
    const hints = new IdHints();
    hints.expectUntil(new Promise<void>((resolve) => (changesDone = resolve)), 1_000);
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', {
      ...options(1000, 1),
      windows: { expected: 1000, concurrency: 1, hints },
    });
    const first = plan.next(0)!;
    plan.learn(first, answer(first, 0, 0));
    expect(plan.next(0)).toBeNull();
    const woken = plan.wake();
    changesDone();
    await woken;
    // As a walk without hints: fourfold over the empty window.
    const blind = new WindowPlan(FAKE_CLIENT, 'units/', options(1000, 1));
    const blindFirst = blind.next(0)!;
    blind.learn(blindFirst, answer(blindFirst, 0, 0));
    const next = plan.next(0)!;
    expect(next).toEqual(blind.next(0));
    expect(Number(next.upTo) - 95).toBeGreaterThan(3 * 95);
  });

  it('holds one page until one tells how large pages are, then as many as fit 24 MB of text', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', options(100_000, 4));
    expect(plan.pagesInHand()).toBe(1);
    const first = plan.next(0)!;
    plan.learn(first, { ...answer(first, 100, 100), textLength: 10_000_000 });
    expect(plan.pagesInHand()).toBe(2);
    const small = new WindowPlan(FAKE_CLIENT, 'units/', options(100_000, 4));
    const range = small.next(0)!;
    small.learn(range, { ...answer(range, 100, 100), textLength: 1_000_000 });
    // Small pages: the concurrency is the limit.
    expect(small.pagesInHand()).toBe(4);
    // Pages larger than the whole budget are still read, one at a time.
    const large = small.next(0)!;
    small.learn(large, { ...answer(large, 100, 100), textLength: 30_000_000 });
    expect(small.pagesInHand()).toBe(1);
  });

  it('reads one window at a time when nothing is known of what is left', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', options(null, 4));
    const first = plan.next(0)!;
    expect(plan.next(1)).toBeNull();
    plan.learn(first, answer(first, 95, 95));
    expect(plan.next(0)).toMatchObject({ after: '95', upTo: '190' });
  });

  it('waits for every window below before the final unbounded request', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', options(350, 4));
    const first = plan.next(0)!;
    const second = plan.next(1)!;
    expect(second).toMatchObject({ after: '95', upTo: '190' });
    // 350 expected, two windows in flight: no room beside them, and not the end yet.
    expect(plan.next(2)).toBeNull();
    plan.learn(first, answer(first, 95, 95));
    plan.learn(second, answer(second, 95, 95));
    // 160 left, more than a page: a window, then the unbounded request.
    const third = plan.next(0)!;
    expect(third).toMatchObject({ after: '190', upTo: '285' });
    plan.learn(third, answer(third, 95, 95));
    expect(plan.next(0)).toMatchObject({ after: '285', upTo: null });
  });

  it('queues the rest of a window below the top that overflowed, cut into pages, lowest first', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', { ...options(10_000, 4), pageSize: 50 });
    // Two sparse windows (one row each): the span doubles twice, to 200 ids.
    for (const expectedUpTo of ['47', '135']) {
      const sparse = plan.next(0)!;
      expect(sparse.upTo).toBe(expectedUpTo);
      plan.learn(sparse, { ...answer(sparse, 1, 1, 50), through: sparse.upTo });
    }
    const low = plan.next(0)!;
    const top = plan.next(1)!;
    expect([low, top]).toMatchObject([
      { after: '135', upTo: '300' },
      { after: '300', upTo: '465' },
    ]);
    plan.learn(top, answer(top, 47, 47, 50));
    // The low window is dense: its page ends at id 185, and 150 rows are left above it.
    plan.learn(low, answer(low, 50, 200, 50));
    expect([plan.next(1), plan.next(2), plan.next(3)]).toMatchObject([
      { after: '185', upTo: '223', top: false },
      { after: '223', upTo: '261', top: false },
      { after: '261', upTo: '300', top: false },
    ]);
    // Then the top goes on.
    expect(plan.next(3)).toMatchObject({ after: '465', top: true });
  });

  it('plans the rest of the top window afresh from where its page ended, at the density its page showed', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', options(null, 4));
    const first = plan.next(0)!;
    // 20 rows in 95 ids: the next window twice as wide.
    plan.learn(first, { ...answer(first, 20, 20), through: first.upTo });
    const second = plan.next(0)!;
    expect(second).toMatchObject({ after: '95', upTo: '275' });
    // A gap up to id 150, then dense ids: the page serves 151 to 250 of the 125 rows.
    const served = Array.from({ length: 100 }, (_, i) => String(151 + i));
    plan.learn(second, { ...page(125), ids: served, after: '95', through: '250' });
    // A page held 100 ids where the page ended, not 144 as the window's average says.
    expect(plan.next(0)).toMatchObject({ after: '250', upTo: '345', top: true });
  });

  it('does not widen windows from a late answer of a window below the top', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', options(100_000, 4));
    const low = plan.next(0)!;
    const top = plan.next(1)!;
    plan.learn(top, answer(top, 95, 95));
    // The low window was sparse (10 rows), but the top one, above it, was dense.
    plan.learn(low, { ...answer(low, 10, 10), through: low.upTo });
    expect(plan.next(0)).toMatchObject({ after: '190', upTo: '285' });
  });

  it('refuses a page that did not advance past its window start', () => {
    const plan = new WindowPlan(FAKE_CLIENT, 'units/', options(null, 1));
    const first = plan.next(0)!;
    plan.learn(first, answer(first, 95, 95));
    const second = plan.next(0)!;
    expect(() => plan.learn(second, { ...answer(second, 1, 5), through: '95' })).toThrow(
      /did not advance past id 95/,
    );
  });
});

describe('a window plan whose pages grow', () => {
  it('starts at 1,000 a page and plans the next window for the grown page', () => {
    const plan = new WindowPlan({ ...FAKE_CLIENT, timeoutMs: 60_000 }, 'units/', {
      resource: 'units',
      pageSize: 10_000,
      q: null,
      after: null,
      windows: { expected: null },
    });
    expect(plan.pageSize).toBe(1000);
    const first = plan.next(0)!;
    // A window aims at 950 rows, a little under its page.
    expect(first).toMatchObject({ after: null, upTo: '950' });
    const ids = Array.from({ length: 950 }, (_, i) => String(i + 1));
    // Answered in 100 ms, under a 32nd of the timeout: four times as large.
    plan.learn(first, { ...page(950, 1000), ids, through: '950', elapsedMs: 100 });
    expect(plan.pageSize).toBe(4000);
    expect(plan.next(0)).toMatchObject({ after: '950', upTo: '4750' });
  });

  it('grows no further than lets the concurrency of pages fit 24 MB of text', () => {
    const plan = new WindowPlan({ ...FAKE_CLIENT, timeoutMs: 60_000 }, 'units/', {
      resource: 'units',
      pageSize: 10_000,
      q: null,
      after: null,
      windows: { expected: null, concurrency: 4 },
    });
    let after = 0;
    for (const size of [1000, 4000]) {
      expect(plan.pageSize).toBe(size);
      const range = plan.next(0)!;
      const ids = Array.from({ length: size }, (_, i) => String(after + i + 1));
      after += size;
      plan.learn(range, {
        ...page(size, size),
        ids,
        after: range.after,
        through: range.upTo,
        elapsedMs: 100,
        textLength: size * 900,
      });
    }
    // 900 bytes a unit: four pages of 6,666 units fill 24 MB.
    expect(plan.pageSize).toBe(6666);
  });
});

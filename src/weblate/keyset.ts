import { isTimeoutOrGatewayError, ResponseError } from '../errors.ts';
import type { WeblateClient } from './client.ts';
import type { IdHints } from './id-hints.ts';
import { PageSizer } from './page-sizer.ts';
import type { Fetched, Page, Planner } from './pages.ts';
import { idKey, idText } from './record-id.ts';
import { densityCuts, evenCuts, fittingSpan } from './window-span.ts';

/** Requests a walk has in flight at most (`atOnce`) until `until` settles: see KeysetOptions. */
export interface WalkShare {
  atOnce: number;
  until: Promise<unknown>;
}

/** What a walk by id learns from a page. */
export interface KeysetPage {
  url: string;
  results: unknown[];
  resultTexts: string[];
  /** Ids of the results, as decimal strings (ascending). */
  ids: string[];
  /** The page covers every matching id in (after, through]; through null: to the end. */
  after: string | null;
  through: string | null;
  /** Rows the list matched (its `count`), when the server says. */
  count: number | null;
  /** Length of the response text, to size the next page. */
  textLength: number;
  /** The page_size this page was answered with (smaller than asked after a timeout). */
  pageSize: number;
  /** The page_size the walk asked for. */
  askedSize: number;
  /** Time the answered request took. */
  elapsedMs: number;
}

export interface KeysetOptions {
  resource: string;
  /** The largest page_size the walk may ask for; it starts smaller (see PageSizer). */
  pageSize: number;
  /** Search query of the walk, without the keyset condition. */
  q: string | null;
  /** Resume after this id (exclusive). */
  after: string | null;
  /**
   * Read bounded id windows (see IdWindows) instead of `id:>K` alone, expecting about
   * `expected` rows after `after` (null: unknown), up to `concurrency` pages in hand (1 when
   * not given; see WindowPlan). With `share`, at most `share.atOnce` requests are in flight
   * until `share.until` settles, which leaves places of the client to another walk beside this
   * one for as long as it runs; then as many as the concurrency. Absent or
   * null: every request is `id:>K`, one after another, which suits a selective `q`. `hints`:
   * ids known to exist, where a window crossing a gap ends (see IdHints).
   */
  windows?: {
    expected: number | null;
    concurrency?: number;
    share?: WalkShare | null;
    hints?: IdHints | null;
  } | null;
}

/** Where a walk by id stands after a page: it covered every matching id in (after, through]. */
export interface KeysetAt {
  /** Ids of the page's records, as decimal strings. */
  ids: string[];
  after: string | null;
  /** null: the page reached the end of the list. */
  through: string | null;
}

/** Ids in (after, upTo]; upTo null: every id after `after`. */
interface IdRange {
  after: string | null;
  upTo: string | null;
  /** Planned at the top of the walk (see WindowPlan), not the rest of an overflowed window. */
  top: boolean;
  /** Rows the range is expected to hold (0: unknown, or the unbounded request). */
  aim: number;
}

/**
 * Walks a unit list by id: page 1 of `(<q>) AND id:>K` each time, with `windows` bounded
 * above too (`id:<=B`), as Weblate counts every row a request matches on every page; pages
 * say which range they cover (docs/internals.md#unit-walks-by-id). It decides which id ranges
 * to read, and when: windows one at a time or side by side, rests of overflowed ones queued
 * first, the unbounded request last (docs/internals.md#windowplan).
 */
export class WindowPlan implements Planner<IdRange, KeysetAt> {
  readonly concurrency: number;
  /** Requests of the walk in flight at most (see KeysetOptions.windows). */
  #requestsAtOnce: number;
  /** Settles when the share ends (see KeysetOptions.windows); null after. */
  #widening: Promise<void> | null = null;
  readonly #sizer: PageSizer;
  readonly #client: Pick<WeblateClient, 'resolve'>;
  readonly #path: string;
  readonly #q: string | null;
  readonly #resource: string;
  readonly #windows: IdWindows | null;
  #tail: string | null;
  #tailOpen = true;
  #queue: IdRange[] = [];
  #largestText = 0;
  /** Rows the ranges in flight are expected to hold (see IdWindows.next). */
  #aimedInFlight = 0;

  /** The client's `timeoutMs` bounds an answer: pages must stay well under it to grow. */
  constructor(
    client: Pick<WeblateClient, 'resolve' | 'timeoutMs'>,
    path: string,
    options: KeysetOptions,
  ) {
    const { timeoutMs } = client;
    this.#client = client;
    this.#path = path;
    this.#q = options.q;
    const windows = options.windows ?? null;
    this.concurrency = Math.max(1, windows?.concurrency ?? 1);
    const share = windows?.share ?? null;
    this.#requestsAtOnce = Math.max(1, Math.min(this.concurrency, share?.atOnce ?? Infinity));
    if (share !== null) {
      const widen = () => {
        this.#requestsAtOnce = this.concurrency;
        this.#widening = null;
      };
      this.#widening = share.until.then(widen, widen);
    }
    // Pages small enough that the concurrency's worth of them fit the text in hand: at most
    // TEXT_IN_HAND at once, and the server still has a request of the walk's on each connection.
    this.#sizer = new PageSizer({
      start: START_PAGE_SIZE,
      max: options.pageSize,
      timeoutMs,
      textBudget: Math.min(PAGE_TEXT_BUDGET, TEXT_IN_HAND / this.concurrency),
      min: MIN_PAGE_SIZE,
    });
    this.#resource = options.resource;
    this.#tail = options.after;
    this.#windows =
      windows === null
        ? null
        : new IdWindows(this.pageSize, windows.expected, windows.hints ?? null);
  }

  /** The page_size the next request asks for. */
  get pageSize(): number {
    return this.#sizer.size;
  }

  /**
   * Pages the walk may hold at once, in flight or arrived and not yet taken: up to the
   * concurrency, as many as fit in TEXT_IN_HAND at the largest page text seen so far, and one
   * until a page has told how large they are.
   */
  pagesInHand(): number {
    if (this.#largestText === 0) return 1;
    const fit = Math.floor(TEXT_IN_HAND / this.#largestText);
    return Math.max(1, Math.min(this.concurrency, fit));
  }

  /**
   * Settles when the walk may ask more than it does now: its share of the client ended, or the
   * hints it waits for in a gap arrived. Null: only an answer can.
   */
  wake(): Promise<void> | null {
    const hints = this.#windows?.awaitedHints() ?? null;
    if (this.#widening === null) return hints;
    return hints === null ? this.#widening : Promise.race([this.#widening, hints]);
  }

  /** The next range to request while `inFlight` requests are out, or null: none now. */
  next(inFlight: number): IdRange | null {
    const atOnce = this.#requestsAtOnce;
    if (inFlight >= atOnce) return null;
    const queued = this.#queue.shift();
    if (queued !== undefined) {
      this.#aimedInFlight += queued.aim;
      return queued;
    }
    if (!this.#tailOpen) return null;
    const after = this.#tail;
    const window =
      this.#windows === null
        ? inFlight === 0
          ? { upTo: null, aim: 0, pieces: 1 }
          : null
        : this.#windows.next(after, {
            inFlight,
            aimed: this.#aimedInFlight,
            concurrency: atOnce,
            msPerRow: this.#sizer.msPerRecord,
          });
    if (window === null) return null;
    const { upTo, aim, pieces } = window;
    if (upTo === null) this.#tailOpen = false;
    else this.#tail = upTo;
    if (pieces > 1 && upTo !== null) {
      // The rest of the walk, cut into pieces read side by side (see IdWindows.next).
      this.#queue.push(...splitRange(after ?? '0', upTo, aim, Math.ceil(aim / pieces)));
      return this.next(inFlight);
    }
    this.#aimedInFlight += aim;
    return { after, upTo, top: true, aim };
  }

  readonly nextAttemptUrl = smallerPage;

  url({ after, upTo }: IdRange): URL {
    const url = this.#client.resolve(this.#path);
    const conditions = [
      this.#q === null ? null : `(${this.#q})`,
      after === null ? null : `id:>${after}`,
      upTo === null ? null : `id:<=${upTo}`,
    ].filter((c): c is string => c !== null);
    if (conditions.length > 0) url.searchParams.set('q', conditions.join(' AND '));
    url.searchParams.set('page_size', String(this.pageSize));
    return url;
  }

  onPage(range: IdRange, fetched: Fetched): Page<KeysetAt> {
    const page = keysetPage(range, fetched, this.#resource);
    this.learn(range, page);
    const { url, results, resultTexts, ids, after, through } = page;
    const at = { ids, after, through };
    return {
      url,
      results,
      resultTexts,
      more: through !== null,
      totalPages: null,
      count: null,
      single: false,
      at,
    };
  }

  /** Learns from the page that answered `range`. */
  learn(range: IdRange, page: KeysetPage): void {
    const { after, upTo } = range;
    this.#aimedInFlight -= range.aim;
    if (after !== null && page.through !== null && BigInt(page.through) <= BigInt(after)) {
      throw new ResponseError(
        `${this.#resource}: ${page.url} did not advance past id ${after}; the server ignores id:> filters`,
        { retryable: false },
      );
    }
    const before = this.pageSize;
    this.#sizer.observe({
      answeredSize: page.pageSize,
      askedSize: page.askedSize,
      records: page.ids.length,
      elapsedMs: page.elapsedMs,
      textLength: page.textLength,
    });
    const pageSize = this.pageSize;
    if (pageSize !== before) this.#windows?.resize(before, pageSize);
    this.#largestText = Math.max(this.#largestText, page.textLength);
    const isTop = upTo === null || (this.#tailOpen && this.#tail === upTo);
    // Only the window just below the top may widen the next: one further down that answers
    // late must not widen windows over ids its successors already found dense.
    if (range.top) this.#windows?.observe(after, upTo, page, pageSize, { mayGrow: isTop });
    else this.#windows?.noteRows(page.ids.length);
    if (page.through === null) return;
    const overflowed = upTo === null || idKey(page.through) < idKey(upTo);
    if (!overflowed) return;
    if (isTop) {
      // The top window's rest is planned afresh from where the page ended.
      this.#tail = page.through;
      this.#tailOpen = true;
      return;
    }
    const left = page.count === null ? null : page.count - page.ids.length;
    this.#queue.push(...restRanges(page, upTo, left, pageSize));
    this.#queue.sort((a, b) => (idKey(a.after) < idKey(b.after) ? -1 : 1));
  }
}

/**
 * The rest (through, upTo] of a window below the top that overflowed, `rows` rows, cut into
 * about a page each, no piece wider than held a page at the density its page showed (see
 * densityCuts).
 */
function restRanges(
  page: KeysetPage,
  upTo: string,
  rows: number | null,
  pageSize: number,
): IdRange[] {
  const through = BigInt(page.through!);
  const end = endDensity(page);
  const densitySpan = (end.span * BigInt(pageSize)) / BigInt(end.rows);
  return rangesFrom(
    through,
    densityCuts(through, BigInt(upTo), rows, pageSize, densitySpan),
    upTo,
    rows,
  );
}

/** (after, upTo] cut into about `rows / pageSize` ranges of equal span (see evenCuts). */
function splitRange(after: string, upTo: string, rows: number | null, pageSize: number): IdRange[] {
  const low = BigInt(after);
  return rangesFrom(low, evenCuts(low, BigInt(upTo), rows, pageSize), upTo, rows);
}

/** The ranges between `low`, the inner `cuts` and `upTo`, sharing `rows` evenly. */
function rangesFrom(low: bigint, cuts: bigint[], upTo: string, rows: number | null): IdRange[] {
  const bounds = [low, ...cuts];
  const aim = rows === null ? 0 : Math.ceil(rows / bounds.length);
  return bounds.map((from, i) => ({
    after: String(from),
    upTo: i + 1 < bounds.length ? String(bounds[i + 1]) : upTo,
    top: false,
    aim,
  }));
}

/**
 * Where the next id window ends: about a page at the density last seen, capped by the
 * densest ids seen, growing fourfold over empty windows (docs/internals.md#idwindows).
 */
export class IdWindows {
  #span: bigint;
  #pageSize: number;
  #emptyInARow = 0;
  #seen = 0;
  #expected: number | null;
  readonly #hints: IdHints | null;
  /** The last window planned to a hinted id: (from, upTo] from the id below the hint on. */
  #hintedWindow: { from: string; upTo: string } | null = null;
  /** The window with the most rows per id so far. */
  #densest: { found: number; span: bigint } | null = null;

  constructor(pageSize: number, expected: number | null, hints: IdHints | null = null) {
    this.#span = BigInt(pageSize);
    this.#pageSize = pageSize;
    this.#expected = expected;
    this.#hints = hints;
  }

  /** The upper bound of the window after `after`, or null for one unbounded request. */
  upperBound(after: string | null, rows = this.#pageSize): string | null {
    if (this.#isPastEnd) return null;
    if (this.#expected !== null && this.#expected - this.#seen <= this.#pageSize) return null;
    return this.#bound(after, rows);
  }

  /**
   * The next window after `after`, beside `inFlight` others expected to hold `aimed` rows,
   * or null: none now (docs/internals.md#idwindows). `upTo` null: the unbounded request that
   * ends the walk; `pieces` above 1: the rest of the walk, cut to be read side by side.
   */
  next(
    after: string | null,
    {
      inFlight,
      aimed,
      concurrency,
      msPerRow,
    }: { inFlight: number; aimed: number; concurrency: number; msPerRow: number },
  ): { upTo: string | null; aim: number; pieces: number } | null {
    const alone = () => {
      if (inFlight > 0 || this.awaitedHints() !== null) return null;
      const upTo = this.upperBound(after, this.#filled);
      return { upTo, aim: upTo === null ? 0 : this.#filled, pieces: 1 };
    };
    // Over a gap, one window at a time: each empty one widens the next.
    if (this.#expected === null || this.#emptyInARow > 0) return alone();
    const left = this.#expected - this.#seen - aimed;
    if (left > 2 * this.#pageSize) {
      return { upTo: this.#bound(after, this.#filled), aim: this.#filled, pieces: 1 };
    }
    const isSlow = left * msPerRow > TAIL_ALONE_MS;
    if (isSlow && concurrency > 1 && left >= 2 * MIN_PAGE_SIZE) {
      const pieces = Math.min(concurrency, Math.floor(left / MIN_PAGE_SIZE));
      return { upTo: this.#bound(after, left), aim: left, pieces };
    }
    return alone();
  }

  /**
   * In a gap, while the first hints of a read beside the walk are still to come (see
   * IdHints.expectUntil): settles when they arrive. Null: the walk need not wait.
   */
  awaitedHints(): Promise<void> | null {
    const hints = this.#hints;
    if (hints === null || this.#emptyInARow === 0 || !hints.isAwaited) return null;
    return hints.arrival();
  }

  /**
   * Whether the empty windows in a row suggest the list has ended. Without an expectation,
   * two. With one, rows are still to come: empty windows count nothing, so they grow over a
   * gap (a bulk import's ids millions apart from the last) rather than let an unbounded
   * request count every row left; only after GAP_WINDOWS does the walk ask what is left.
   */
  get #isPastEnd(): boolean {
    return this.#emptyInARow >= (this.#expected === null ? 2 : GAP_WINDOWS);
  }

  /**
   * Rows a window of the walk aims at: a little under a page, so that a window whose ids
   * prove a little denser than those before still fits its page, rather than leave a rest
   * of a few rows that costs a request of its own.
   */
  get #filled(): number {
    return Math.max(1, Math.floor(this.#pageSize * WINDOW_FILL));
  }

  /** The end of a window after `after` aimed at `rows` rows, at the span a page takes. */
  #bound(after: string | null, rows: number): string {
    const scaled =
      rows === this.#pageSize ? this.#span : (this.#span * BigInt(rows)) / BigInt(this.#pageSize);
    const span = scaled > 0n ? scaled : 1n;
    const low = after === null ? 0n : BigInt(after);
    const hinted = this.#hinted(low, rows);
    if (hinted === null || !this.#mayJumpTo(low, hinted.upTo)) return String(low + span);
    this.#hintedWindow = { from: String(hinted.from), upTo: String(hinted.upTo) };
    return this.#hintedWindow.upTo;
  }

  /**
   * Crossing a gap (after an empty window), the end of a window that holds `rows` rows at the
   * densest ids seen from the next hinted id on: it jumps the gap in one request and finds the
   * cluster beyond without counting all of it. Null: no hint, or not in a gap.
   */
  #hinted(low: bigint, rows: number): { from: bigint; upTo: bigint } | null {
    if (this.#hints === null || this.#emptyInARow === 0) return null;
    const next = this.#hints.above(low);
    if (next === null) return null;
    const densest = this.#densest;
    const reach =
      densest === null ? BigInt(rows) : (BigInt(rows) * densest.span) / BigInt(densest.found);
    return { from: next - 1n, upTo: next - 1n + (reach > 0n ? reach : 1n) };
  }

  /**
   * Whether a window may end at a hinted `upTo`. A change history names some units only, so
   * ids below the hint may be dense: after one empty window past dense ids (a deleted
   * component's), a jump is held to the same two pages at the densest ids as a blind window.
   */
  #mayJumpTo(low: bigint, upTo: bigint): boolean {
    if (this.#emptyInARow > 1) return true;
    return upTo - low <= this.#capped(upTo - low, this.#pageSize);
  }

  /** The page size changed: windows span as many more (or fewer) ids, to hold a page still. */
  resize(from: number, to: number): void {
    const span = (this.#span * BigInt(to)) / BigInt(from);
    this.#span = span > 0n ? span : 1n;
    this.#pageSize = to;
  }

  /** Counts rows read outside the windows this class planned (the rests of overflowed ones). */
  noteRows(rows: number): void {
    this.#seen += rows;
  }

  /**
   * Learns from the page that answered the window (after, upTo]; the next asks `pageSize`.
   * Without `mayGrow`, the span may only shrink.
   */
  observe(
    after: string | null,
    upTo: string | null,
    page: KeysetPage,
    pageSize: number,
    { mayGrow }: { mayGrow: boolean } = { mayGrow: true },
  ): void {
    const seenBefore = this.#seen;
    this.#seen += page.ids.length;
    this.#pageSize = pageSize;
    if (upTo === null) {
      // The unbounded request found more than a page; its count says how many are left.
      this.#expected = page.count === null ? null : seenBefore + page.count;
      this.#emptyInARow = 0;
      return;
    }
    const found = page.count ?? page.ids.length;
    if (found === 0) {
      this.#emptyInARow += 1;
      // Over a gap the span grows fourfold: after one empty window no wider than two pages at
      // the densest ids seen (a deleted component's ids), after more without that cap.
      const span = BigInt(upTo) - (after === null ? 0n : BigInt(after));
      const grown = this.#emptyInARow > 1 ? span * 4n : this.#capped(span * 4n, pageSize);
      if (mayGrow) this.#span = grown;
      return;
    }
    this.#emptyInARow = 0;
    // A window that jumped a gap to a hinted id shows the density from the hint on: rows
    // below it (a cluster no hint showed) may lie far from its end.
    const hinted = this.#hintedWindow;
    const jumped = hinted !== null && hinted.upTo === upTo && found <= page.ids.length;
    const from = jumped ? hinted.from : after;
    const beyond = jumped
      ? page.ids.filter((id) => BigInt(id) > BigInt(hinted.from)).length
      : found;
    const { span, found: local } = localDensity(from, upTo, page, Math.max(1, beyond));
    if (
      this.#densest === null ||
      local * Number(this.#densest.span) > this.#densest.found * Number(span)
    ) {
      this.#densest = { found: local, span };
    }
    // Aimed at a page of the size asked next, growing at most twofold over what the window
    // would have spanned at that size (the size may have changed since it was planned).
    const base = (span * BigInt(pageSize)) / BigInt(Math.max(1, page.askedSize));
    const fitting = this.#capped(
      fittingSpan(base > 0n ? base : 1n, page.askedSize, local, 2n),
      pageSize,
    );
    this.#span = mayGrow || fitting < this.#span ? fitting : this.#span;
  }

  /**
   * `span`, never wider than two pages at the densest ids seen: a sparse stretch (a deleted
   * component's ids, another project's) must not widen a window that then lands on dense ids.
   * Where ids were found at least half dense, two pages of ids: no id holds two rows, so such
   * a window never counts more than two pages, whatever lies beyond what was seen.
   */
  #capped(span: bigint, pageSize: number): bigint {
    if (this.#densest === null) return span;
    const isDense = 2 * this.#densest.found >= Number(this.#densest.span);
    const widest = isDense
      ? 2n * BigInt(pageSize)
      : (2n * BigInt(pageSize) * this.#densest.span) / BigInt(this.#densest.found);
    const cap = widest > 0n ? widest : 1n;
    return span > cap ? cap : span;
  }
}

/**
 * Rows over ids where the walk goes on: a window its page held shows its whole span; one it
 * overflowed, the ids at the end of its page (see endDensity), as the window may have started
 * in a gap and the rows past the page may lie anywhere in it.
 */
function localDensity(
  after: string | null,
  upTo: string,
  page: KeysetPage,
  found: number,
): { span: bigint; found: number } {
  const overflowed = page.through !== null && found > page.ids.length && page.ids.length > 0;
  if (!overflowed) return { span: BigInt(upTo) - (after === null ? 0n : BigInt(after)), found };
  const { span, rows } = endDensity(page);
  const served = page.ids.length;
  const spanOfPage = (span * BigInt(served)) / BigInt(rows);
  return { span: spanOfPage > 0n ? spanOfPage : 1n, found: served };
}

/**
 * The last eighth of a page's ids, as `rows` over the ids they span (at least 1): the density
 * where the page ended. A page may start in one cluster and end in the next.
 */
function endDensity(page: KeysetPage): { span: bigint; rows: number } {
  const { ids } = page;
  const rows = Math.max(1, Math.floor(ids.length / 8));
  const before = ids[ids.length - rows - 1];
  const low = before === undefined ? BigInt(ids[0]!) - 1n : BigInt(before);
  const span = BigInt(page.through!) - low;
  return { span: span > 0n ? span : 1n, rows };
}

/**
 * Response text a walk holds at most in pages read ahead of its consumer (see
 * WindowPlan.pagesInHand); measured: docs/internals.md#text-in-hand.
 */
export const TEXT_IN_HAND = 24_000_000;

/** Bytes of response text a page should stay under; units with long texts get smaller pages. */
const PAGE_TEXT_BUDGET = 24_000_000;

/** Empty windows in a row, each four times as wide, before a walk expecting more asks what is left. */
const GAP_WINDOWS = 16;

/** The share of a page a window aims at (see IdWindows.next). */
const WINDOW_FILL = 0.95;

/** The smallest page a walk shrinks to. */
const MIN_PAGE_SIZE = 100;

/**
 * How long the end of a walk may keep it waiting on one request at a time before its last
 * pages are shared among windows side by side (see IdWindows.next): a few requests more
 * where the server takes seconds a page, none where it is quick.
 */
const TAIL_ALONE_MS = 3_000;

/**
 * The first page of a walk: moderate, as most of Weblate's lists allow at most 1,000, and a
 * server slow per unit answers it well within a proxy's timeout. It grows from there.
 */
const START_PAGE_SIZE = 1000;

/**
 * The next attempt at a page that timed out or got 502/503/504: the same page at half the
 * size (down to MIN_PAGE_SIZE). Weblate 5.13 to 5.16.1 runs one extra SQL query per unit
 * of a list, so a 10,000-unit page can outlast the server's or its proxy's timeout, and
 * asking it again at the same size would fail the same way.
 */
function smallerPage(failed: { url: URL; error: Error }): URL | null {
  if (!isTimeoutOrGatewayError(failed.error)) return null;
  const size = Number(failed.url.searchParams.get('page_size'));
  if (!Number.isInteger(size) || size <= MIN_PAGE_SIZE) return null;
  const next = new URL(failed.url);
  next.searchParams.set('page_size', String(Math.max(MIN_PAGE_SIZE, Math.floor(size / 2))));
  return next;
}

/** What the answer to `range` says of the ids it covers. */
function keysetPage({ after, upTo }: IdRange, fetched: Fetched, resource: string): KeysetPage {
  const asked = Number(fetched.asked.searchParams.get('page_size'));
  const answered = Number(new URL(fetched.url).searchParams.get('page_size'));
  const ids = fetched.results.map((item) => idOf(item, resource, fetched.url));
  const hasMore = fetched.next !== null;
  if (hasMore && ids.length === 0) {
    throw new ResponseError(
      `${resource}: ${fetched.url} announced more results but returned none`,
      { retryable: false },
    );
  }
  return {
    url: fetched.url,
    results: fetched.results,
    resultTexts: fetched.resultTexts,
    ids,
    after,
    // A page without a next one holds the whole window (after, upTo], or the rest of the list.
    through: hasMore ? ids.reduce((a, b) => (BigInt(a) > BigInt(b) ? a : b)) : upTo,
    count: fetched.count,
    textLength: fetched.textLength,
    pageSize: Number.isInteger(answered) && answered > 0 ? answered : asked,
    askedSize: asked,
    elapsedMs: fetched.elapsedMs,
  };
}

function idOf(item: unknown, resource: string, url: string): string {
  const id = idText(item);
  if (id !== null) return id;
  throw new ResponseError(
    `${resource}: an item of ${url} has no id, so the list cannot be walked by id`,
    { retryable: false },
  );
}

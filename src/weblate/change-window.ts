import { ResponseError } from '../errors.ts';
import { fromEpochMicros, toEpochMicros, toUtcMicros } from '../lib/timestamps.ts';
import type { WeblateClient } from './client.ts';
import type { Fetched, Page, Planner } from './pages.ts';
import { evenCuts, fittingSpan, leavesRoomBeside } from './window-span.ts';

/**
 * What a change walk has read once a page and the pages yielded before it are stored: every
 * change newer than `from` up to `upTo` (canonical UTC). `from` is the oldest timestamp on
 * the page, or the lower bound of a time window this page read completely, or null when the
 * page read down to the walk's own lower bound: with it, the walk is complete. Pages may
 * arrive out of order (see CoveredTimes).
 */
export interface WindowAt {
  covers: { from: string | null; upTo: string };
}

export interface ChangeWindowOptions {
  resource: string;
  pageSize: number;
  /** Inclusive lower bound (canonical UTC), or null for the whole history. */
  after: string | null;
  /** Inclusive upper bound, frozen when the window opened. */
  before: string;
  /**
   * Read the window in time windows of about a page each (see TimeWindows) rather than
   * counting all of it on every page: for a window without a lower bound, the whole history.
   */
  timeWindows?: boolean;
  /**
   * With `timeWindows`: a first window of this span below the newest activity (`newestHint`,
   * else `before`), rather than a first read down to `after` that counts all of it (see
   * TimeWindows). For a history too large to count once: the global one of a whole instance.
   */
  firstWindow?: { seconds: number; newestHint: string | null } | null;
  /** With `timeWindows`: time windows read side by side at most (1 when not given; see TimePlan). */
  concurrency?: number;
}

/** Changes in [lower, upper] (lower null: down to the walk's own bound), or a `next` link of it. */
export interface TimeRange {
  lower: string | null;
  upper: string;
  next: URL | null;
  /** Planned at the bottom of the walk by TimeWindows, not the rest of an overflowed window. */
  planned: boolean;
}

/** What a change walk learns from a page. */
export interface WindowPage {
  oldest: string | null;
  newest: string | null;
  next: string | null;
  count: number | null;
  served: number;
}

/**
 * Reads the changes of a window newest first, always page 1 of a narrowing range; pages may
 * come out of order, so claim only a gapless prefix (docs/internals.md#reading-a-window-of-changes). It
 * decides which time ranges to read, and when: planned downwards from `#edge`, up to
 * `concurrency` side by side (docs/internals.md#timeplan).
 */
export class TimePlan implements Planner<TimeRange, WindowAt> {
  readonly #client: WeblateClient;
  readonly #path: string;
  readonly #options: ChangeWindowOptions;
  readonly #windows: TimeWindows | null;
  readonly #concurrency: number;
  #edge: string;
  #edgeOpen = true;
  #queue: TimeRange[] = [];
  readonly #asked = new Set<string>();

  constructor(client: WeblateClient, path: string, options: ChangeWindowOptions) {
    this.#client = client;
    this.#path = path;
    this.#options = options;
    this.#edge = options.before;
    this.#windows =
      options.timeWindows === true ? new TimeWindows(options.pageSize, options.firstWindow) : null;
    this.#concurrency = this.#windows === null ? 1 : Math.max(1, options.concurrency ?? 1);
  }

  /**
   * A walk read one window at a time still asks for the next window as soon as a page has
   * arrived (its bounds depend only on what the page said), while the consumer stores it.
   */
  pagesInHand(): number {
    return Math.max(2, this.#concurrency);
  }

  next(inFlight: number): TimeRange | null {
    if (inFlight >= this.#concurrency) return null;
    const queued = this.#queue.shift();
    if (queued !== undefined) return queued;
    if (!this.#edgeOpen) return null;
    if (inFlight > 0 && this.#windows?.hasRoomBeside(inFlight) !== true) return null;
    const lower = this.#windows?.lowerBound(this.#edge, this.#options.after) ?? null;
    // The read down to the walk's own bound comes last, alone.
    if (lower === null && inFlight > 0) return null;
    const range = { lower, upper: this.#edge, next: null, planned: true };
    if (lower === null) this.#edgeOpen = false;
    else this.#edge = lower;
    return range;
  }

  /** The URL of a range's request, refused if the walk already asked it (a list that does not advance). */
  url(range: TimeRange): URL {
    const url =
      range.next ??
      windowUrl(
        this.#client,
        this.#path,
        this.#options,
        range.lower ?? this.#options.after,
        range.upper,
      );
    if (this.#asked.has(url.href)) {
      throw new ResponseError(
        `${this.#options.resource}: ${url.href} was already read; the change list does not advance`,
        { retryable: false },
      );
    }
    this.#asked.add(url.href);
    return url;
  }

  onPage(range: TimeRange, fetched: Fetched): Page<WindowAt> {
    const { oldest, newest } = timestampRange(fetched.results);
    const { next, count } = fetched;
    this.learn(range, { oldest, newest, next, count, served: fetched.results.length });
    // A bounded time window read completely, or the read down to the walk's own bound.
    const isWindowDone = range.lower !== null && next === null;
    const isLast = range.lower === null && next === null;
    const narrowed = oldest !== null && oldest < range.upper ? oldest : range.upper;
    const from = isLast ? null : isWindowDone ? range.lower : narrowed;
    const { url, results, resultTexts } = fetched;
    const at = { covers: { from, upTo: range.upper } };
    return {
      url,
      results,
      resultTexts,
      more: !isLast,
      totalPages: null,
      count: null,
      single: false,
      at,
    };
  }

  learn(range: TimeRange, fetched: WindowPage): void {
    const { oldest, newest, next, count, served } = fetched;
    const atEdge = range.lower === null || (this.#edgeOpen && this.#edge === range.lower);
    if (range.next === null && range.planned) {
      if (range.lower !== null) {
        // Only the window at the edge may widen the next: one further up that answers late
        // must not widen windows over a stretch its successors already found busy.
        this.#windows?.observe(range.upper, range.lower, count, served, { mayGrow: atEdge });
      } else if (next !== null && oldest !== null) {
        // The page's changes span [oldest, newest]: a quiet stretch above them is no density.
        this.#windows?.observeRest(newest ?? range.upper, oldest, count, served);
      }
    } else if (range.next === null) {
      this.#windows?.noteRows(served);
    }
    if (next === null) return;
    if (oldest !== null && oldest < range.upper) {
      if (atEdge) {
        this.#edge = oldest;
        this.#edgeOpen = true;
      } else {
        const left = count === null ? null : count - served;
        this.#queue.push(...splitTimes(range.lower, oldest, left, this.#options.pageSize));
        this.#queue.sort((a, b) => (a.upper > b.upper ? -1 : 1));
      }
      return;
    }
    // A whole page at one timestamp: that stretch is followed by its `next` links.
    this.#queue.unshift({ ...range, next: this.#client.resolve(next) });
  }
}

/** The rest [lower, upper] of a window that overflowed, cut by `rows` (see evenCuts), newest first. */
function splitTimes(
  lower: string | null,
  upper: string,
  rows: number | null,
  pageSize: number,
): TimeRange[] {
  if (lower === null) return [{ lower, upper, next: null, planned: false }];
  const cuts = evenCuts(toEpochMicros(lower), toEpochMicros(upper), rows, pageSize);
  // Neighbours share their bound (both ends are inclusive); the upsert drops the duplicates.
  const bounds = [lower, ...cuts.map(fromEpochMicros), upper];
  const ranges: TimeRange[] = [];
  for (let i = bounds.length - 1; i > 0; i--) {
    ranges.push({ lower: bounds[i - 1]!, upper: bounds[i]!, next: null, planned: false });
  }
  return ranges;
}

/** The longest span a time window grows to: about ten years. */
const MAX_SPAN_MICROS = 10n * 366n * 86_400n * 1_000_000n;

/**
 * The lower bound of the next time window below `before`, sized to hold about a page so that
 * no request makes Weblate count a whole history (docs/internals.md#timewindows).
 */
export class TimeWindows {
  #spanMicros = 0n;
  #emptyInARow = 0;
  #readRest = true;
  #seen = 0;
  /** Changes the last window read at the edge held (see hasRoomBeside). */
  #lastAtEdge = 0;
  /** Changes the walk expects in all, from the count of its last read down to the bound. */
  #expected: number | null = null;
  readonly #pageSize: number;

  /** Where the first window starts below its span, when it does not read down to the bound. */
  #firstFrom: string | null = null;
  /** The span the first window's changes were found in (the quiet stretch above left out). */
  #firstSpan: bigint | null = null;

  constructor(
    pageSize: number,
    first: { seconds: number; newestHint: string | null } | null = null,
  ) {
    this.#pageSize = pageSize;
    if (first !== null && first !== undefined && first.seconds > 0) {
      this.#readRest = false;
      this.#spanMicros = BigInt(Math.round(first.seconds * 1_000_000));
      this.#firstFrom = first.newestHint;
      this.#firstSpan = this.#spanMicros;
    }
  }

  /** The lower bound of the window below `before`, or null to read down to `after`. */
  lowerBound(before: string, after: string | null): string | null {
    const isRestSmall = this.#expected !== null && this.#expected - this.#seen <= this.#pageSize;
    // Empty windows before any change was found are the quiet newest stretch of a history
    // that is not counted yet: they only widen the next window.
    const isPastTheEnd = this.#emptyInARow >= 3 && this.#seen > 0;
    if (this.#readRest || isRestSmall || isPastTheEnd) {
      this.#readRest = false;
      this.#emptyInARow = 0;
      return null;
    }
    // The first window reaches from `before` down past the newest activity, if that is older.
    let top = toEpochMicros(before);
    if (this.#firstFrom !== null) {
      const hint = toEpochMicros(this.#firstFrom);
      if (hint < top) top = hint;
      this.#firstFrom = null;
    }
    const lower = top - this.#spanMicros;
    if (lower <= 0n || (after !== null && lower <= toEpochMicros(after))) return null;
    return fromEpochMicros(lower);
  }

  /**
   * Whether another window may start beside `inFlight` others: once the last window read at
   * the edge was busy (not in the quiet newest stretch, nor past the end of the history) and,
   * when the changes left to expect are known, while they exceed two pages beyond what the
   * windows in flight should hold.
   */
  hasRoomBeside(inFlight: number): boolean {
    if (this.#readRest || this.#firstSpan !== null) return false;
    // Over a quiet stretch the span still grows window by window: only windows fitted to a
    // busy stretch (the last one at the edge held half a page or more) are planned ahead.
    if (this.#lastAtEdge < this.#pageSize / 2) return false;
    if (this.#expected === null) return true;
    return leavesRoomBeside(this.#expected, this.#seen, inFlight, this.#pageSize);
  }

  /** Counts changes read outside the windows this class planned (the rests of overflowed ones). */
  noteRows(served: number): void {
    this.#seen += served;
  }

  /**
   * Learns from the first page of the window [lower, before]: `count` changes matched, and
   * `served` came on the page. Without `mayGrow` (a window read beside others, not at the
   * edge), the span may only shrink and the empty windows in a row do not move.
   */
  observe(
    before: string,
    lower: string,
    count: number | null,
    served: number,
    { mayGrow }: { mayGrow: boolean } = { mayGrow: true },
  ): void {
    this.#seen += served;
    const span = this.#firstSpan ?? toEpochMicros(before) - toEpochMicros(lower);
    this.#firstSpan = null;
    // Windows "in a row" are those read at the edge, one after another: an empty window
    // further up, read side by side with others, says nothing about the end of the history.
    if (mayGrow) this.#lastAtEdge = count ?? served;
    if (count === 0) {
      if (!mayGrow) return;
      this.#emptyInARow += 1;
      this.#spanMicros = min(span * 8n, MAX_SPAN_MICROS);
      return;
    }
    if (mayGrow) this.#emptyInARow = 0;
    if (count === null) return;
    const aim = this.#pageSize;
    // A window that held more than a page says its density exactly: the next one shrinks to
    // fit it at once, however far (its own rest is read in those windows, each counted once).
    const fitting =
      count > this.#pageSize
        ? (span * BigInt(aim)) / BigInt(count)
        : fittingSpan(span, aim, count, 4n);
    const next = min(fitting > 0n ? fitting : 1n, MAX_SPAN_MICROS);
    if (mayGrow || next < this.#spanMicros) this.#spanMicros = next;
  }

  /**
   * Learns from a read down to the lower bound that found more than a page: `count`
   * changes in all, the newest `served` of them in [oldest, newest] (the caller passes the
   * page's newest change, so that a quiet stretch above it does not widen the windows).
   */
  observeRest(newest: string, oldest: string, count: number | null, served: number): void {
    this.#expected = count === null ? null : this.#seen + count;
    this.#seen += served;
    // The page's span says little of the density further down: the next window goes alone.
    this.#lastAtEdge = 0;
    this.#emptyInARow = 0;
    const span = toEpochMicros(newest) - toEpochMicros(oldest);
    // The page's own span held a page: the first window spans as much, at least a second.
    this.#spanMicros = min(span > 1_000_000n ? span : 1_000_000n, MAX_SPAN_MICROS);
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function windowUrl(
  client: WeblateClient,
  path: string,
  options: ChangeWindowOptions,
  after: string | null,
  before: string,
): URL {
  const url = client.resolve(path);
  if (after !== null) url.searchParams.set('timestamp_after', after);
  url.searchParams.set('timestamp_before', before);
  url.searchParams.set('page_size', String(options.pageSize));
  return url;
}

/** The oldest and newest timestamps of a page's changes (canonical UTC), null when none is readable. */
function timestampRange(results: unknown[]): { oldest: string | null; newest: string | null } {
  let oldest: string | null = null;
  let newest: string | null = null;
  for (const item of results) {
    const value =
      item !== null && typeof item === 'object'
        ? (item as { timestamp?: unknown }).timestamp
        : undefined;
    if (typeof value !== 'string') continue;
    let canonical: string;
    try {
      canonical = toUtcMicros(value);
    } catch {
      continue; // the record is rejected by validation; it cannot bound the window
    }
    if (oldest === null || canonical < oldest) oldest = canonical;
    if (newest === null || canonical > newest) newest = canonical;
  }
  return { oldest, newest };
}

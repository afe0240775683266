import { ResponseError } from '../errors.ts';
import { fromEpochMicros, toEpochMicros, toUtcMicros } from '../lib/timestamps.ts';
import type { WeblateClient } from './client.ts';
import { readEnvelope } from './pagination.ts';
import { fittingSpan } from './window-span.ts';

export interface ChangeWindowPage {
  url: string;
  results: unknown[];
  resultTexts: string[];
  /**
   * Where the window now ends (canonical UTC): the oldest timestamp on this page, or the
   * lower bound of a time window this page read completely.
   */
  oldest: string | null;
  isLast: boolean;
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
  signal?: AbortSignal;
}

/**
 * Reads the changes of a window newest first (Weblate's only order). Instead of page
 * numbers, which shift when changes are added or cascade-deleted while the list is read,
 * each request asks for page 1 of [after, oldest timestamp seen so far]; the boundary is
 * read twice and deduplicated by id by the caller's upsert. When a whole page shares one
 * timestamp the window cannot narrow, and the walk follows `next` for that stretch.
 *
 * Weblate counts every change a request matches, on every page. With `timeWindows`, the
 * requests after the first are also bounded from below, [lower, before], the lower bound
 * chosen so that the time window holds about a page (TimeWindows): a window read completely
 * moves `before` to its lower bound, and a window that overflows narrows as above. The last
 * stretch is read down to `after` again.
 */
export async function* walkChangeWindow(
  client: WeblateClient,
  path: string,
  options: ChangeWindowOptions,
): AsyncGenerator<ChangeWindowPage> {
  let before = options.before;
  let next: URL | null = null;
  const seen = new Set<string>();
  const windows =
    options.timeWindows === true ? new TimeWindows(options.pageSize, options.firstWindow) : null;
  // The lower bound of the time window being read (kept while `next` is followed), or null.
  let lower: string | null = null;
  for (;;) {
    if (next === null) lower = windows?.lowerBound(before, options.after) ?? null;
    const url = next ?? windowUrl(client, path, options, lower ?? options.after, before);
    const key = url.href;
    if (seen.has(key)) {
      throw new ResponseError(
        `${options.resource}: ${key} was already read; the change list does not advance`,
        { retryable: false },
      );
    }
    seen.add(key);
    const response = await client.getJson(url, options.resource, options.signal);
    const envelope = readEnvelope(
      response.value,
      response.resultTexts,
      options.resource,
      response.url,
    );
    const oldest = oldestTimestamp(envelope.results);
    const bound = lower;
    const served = envelope.results.length;
    if (next === null && bound !== null) windows?.observe(before, bound, envelope.count, served);
    if (next === null && bound === null && envelope.next !== null && oldest !== null)
      windows?.observeRest(before, oldest, envelope.count, served);
    // A bounded time window read completely: the walk goes on below it.
    const isWindowDone = bound !== null && envelope.next === null;
    const isLast = envelope.next === null && bound === null;
    yield {
      url: response.url,
      results: envelope.results,
      resultTexts: envelope.resultTexts,
      oldest: isWindowDone ? bound : oldest,
      isLast,
    };
    if (isLast) return;
    if (isWindowDone) {
      before = bound;
      next = null;
    } else if (oldest !== null && oldest < before) {
      before = oldest;
      next = null;
    } else {
      next = client.resolve(envelope.next!);
    }
  }
}

/** The longest span a time window grows to: about ten years. */
const MAX_SPAN_MICROS = 10n * 366n * 86_400n * 1_000_000n;

/**
 * The lower bound of the next time window below `before`.
 *
 * The first request reads down to the walk's own lower bound: a history of a page or less
 * (most projects') costs that one request, and a longer one is counted once, its `count`
 * saying how many changes there are and its page how dense the newest are. A history too
 * large to count even once (a whole instance's) starts instead with one window from `before`
 * down to a span below its newest activity (the newest `last_change` of its translations,
 * when known): the quiet stretch above it and that span, counted at once. Then time windows
 * of about a page each follow. Changes come in bursts, so the span adapts to what the last
 * window held: it aims at one page, grows at most fourfold from one window to the next (a
 * window that held a quarter of a page is followed by one that holds about a page), and
 * eightfold over an empty window (a quiet stretch). The rest is read down to the lower bound
 * again once the changes left to expect fit in a page, or after three empty windows in a row
 * (changes deleted meanwhile made the count too high); that read's own count says whether
 * more were left, and if so the windows go on.
 */
export class TimeWindows {
  #spanMicros = 0n;
  #emptyInARow = 0;
  #readRest = true;
  #seen = 0;
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
   * Learns from the first page of the window [lower, before]: `count` changes matched, and
   * `served` came on the page.
   */
  observe(before: string, lower: string, count: number | null, served: number): void {
    this.#seen += served;
    const span = this.#firstSpan ?? toEpochMicros(before) - toEpochMicros(lower);
    this.#firstSpan = null;
    if (count === 0) {
      this.#emptyInARow += 1;
      this.#spanMicros = min(span * 8n, MAX_SPAN_MICROS);
      return;
    }
    this.#emptyInARow = 0;
    if (count === null) return;
    const aim = this.#pageSize;
    // A window that held more than a page says its density exactly: the next one shrinks to
    // fit it at once, however far (its own rest is read in those windows, each counted once).
    const fitting =
      count > this.#pageSize
        ? (span * BigInt(aim)) / BigInt(count)
        : fittingSpan(span, aim, count, 4n);
    this.#spanMicros = min(fitting > 0n ? fitting : 1n, MAX_SPAN_MICROS);
  }

  /**
   * Learns from a read down to the lower bound that found more than a page: `count`
   * changes in [after, before], the newest `served` of them in [oldest, before].
   */
  observeRest(before: string, oldest: string, count: number | null, served: number): void {
    this.#expected = count === null ? null : this.#seen + count;
    this.#seen += served;
    this.#emptyInARow = 0;
    const span = toEpochMicros(before) - toEpochMicros(oldest);
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

function oldestTimestamp(results: unknown[]): string | null {
  let oldest: string | null = null;
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
  }
  return oldest;
}

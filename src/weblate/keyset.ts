import { isTimeoutOrGatewayError, ResponseError } from '../errors.ts';
import type { WeblateClient } from './client.ts';
import { readEnvelope } from './pagination.ts';
import { idText } from './record-id.ts';
import { fittingSpan } from './window-span.ts';

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
}

export interface KeysetOptions {
  resource: string;
  pageSize: number;
  /** Search query of the walk, without the keyset condition. */
  q: string | null;
  /** Resume after this id (exclusive). */
  after: string | null;
  /**
   * Read bounded id windows (see IdWindows) instead of `id:>K` alone, expecting about
   * `expected` rows after `after` (null: unknown). Absent or null: every request is `id:>K`,
   * which suits a selective `q`.
   */
  windows?: { expected: number | null } | null;
  signal?: AbortSignal;
}

/**
 * Walks a unit list ordered by id with keyset paging: always page 1 of
 * `(<q>) AND id:>K`, K being the last id read, at the largest page size. Unlike page
 * numbers, rows added or deleted meanwhile cannot shift a page and make a row skipped, and
 * no page is an expensive deep OFFSET. A consumer that pulls the next page while it
 * writes the current one (see lib/pipelined.ts) overlaps the two. A page that times out
 * is asked again with half the page size (see smallerPage), and the walk keeps that size.
 *
 * With `windows`, each request also bounds the ids from above, `id:>K AND id:<=B`: Weblate
 * counts every row a list matches on every page (Django REST framework's pagination, a
 * COUNT over a SELECT DISTINCT when `q` is set), so `id:>K` alone makes the server count
 * the whole rest of the table for each page, while a window of about one page counts about
 * one page. A page that holds the whole window covers (K, B]; one the window overflows
 * covers (K, its last id], and the next window starts there.
 */
export async function* walkKeyset(
  client: WeblateClient,
  path: string,
  options: KeysetOptions,
): AsyncGenerator<KeysetPage> {
  let after = options.after;
  let pageSize = options.pageSize;
  const windows =
    options.windows === undefined || options.windows === null
      ? null
      : new IdWindows(options.pageSize, options.windows.expected);
  for (;;) {
    const upTo = windows?.upperBound(after) ?? null;
    const page = await fetchPage(client, path, { ...options, pageSize }, after, upTo);
    yield page;
    if (page.through === null) return;
    if (after !== null && BigInt(page.through) <= BigInt(after)) {
      throw new ResponseError(
        `${options.resource}: ${page.url} did not advance past id ${after}; the server ignores id:> filters`,
        { retryable: false },
      );
    }
    pageSize = fittingPageSize(page.pageSize, page);
    windows?.observe(after, upTo, page, pageSize);
    after = page.through;
  }
}

/**
 * Where the next id window ends. Ids are not dense (deleted objects leave gaps, other
 * projects' units interleave), so the span adapts to what the windows held: it aims at one
 * page per window, at most doubles from one window to the next (so a window counts about
 * two pages at most while the density holds), and grows fourfold over an empty window.
 * The end of the list is never known for sure: once the rows left to expect fit in a page
 * (the expectation comes from the translations' totals), or after two empty windows in a
 * row, one unbounded request (`id:>K`) reads what is left. Its `count` says how many rows
 * are really left; if they are more than the page, the windows go on.
 */
export class IdWindows {
  #span: bigint;
  #pageSize: number;
  #emptyInARow = 0;
  #seen = 0;
  #expected: number | null;

  constructor(pageSize: number, expected: number | null) {
    this.#span = BigInt(pageSize);
    this.#pageSize = pageSize;
    this.#expected = expected;
  }

  /** The upper bound of the window after `after`, or null for one unbounded request. */
  upperBound(after: string | null): string | null {
    if (this.#emptyInARow >= 2) return null;
    if (this.#expected !== null && this.#expected - this.#seen <= this.#pageSize) return null;
    return String((after === null ? 0n : BigInt(after)) + this.#span);
  }

  /** Learns from the page that answered the window (after, upTo]; the next asks `pageSize`. */
  observe(after: string | null, upTo: string | null, page: KeysetPage, pageSize: number): void {
    const seenBefore = this.#seen;
    this.#seen += page.ids.length;
    this.#pageSize = pageSize;
    if (upTo === null) {
      // The unbounded request found more than a page; its count says how many are left.
      this.#expected = page.count === null ? null : seenBefore + page.count;
      this.#emptyInARow = 0;
      return;
    }
    const span = BigInt(upTo) - (after === null ? 0n : BigInt(after));
    const found = page.count ?? page.ids.length;
    if (found === 0) {
      this.#emptyInARow += 1;
      this.#span = span * 4n;
      return;
    }
    this.#emptyInARow = 0;
    this.#span = fittingSpan(span, pageSize, found, 2n);
  }
}

/** Bytes of response text a page should stay under; units with long texts get smaller pages. */
const PAGE_TEXT_BUDGET = 24_000_000;

/** The smallest page a walk shrinks to. */
const MIN_PAGE_SIZE = 100;

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

/**
 * Keyset pages can change size at any time: when a page's text ran over the budget (units
 * with unusually long texts), the next pages ask for proportionally fewer units, so memory
 * stays bounded by size, not only by count.
 */
function fittingPageSize(pageSize: number, page: KeysetPage): number {
  if (page.textLength <= PAGE_TEXT_BUDGET) return pageSize;
  return Math.max(MIN_PAGE_SIZE, Math.floor((pageSize * PAGE_TEXT_BUDGET) / page.textLength));
}

async function fetchPage(
  client: WeblateClient,
  path: string,
  options: KeysetOptions,
  after: string | null,
  upTo: string | null,
): Promise<KeysetPage> {
  const url = client.resolve(path);
  const conditions = [
    options.q === null ? null : `(${options.q})`,
    after === null ? null : `id:>${after}`,
    upTo === null ? null : `id:<=${upTo}`,
  ].filter((c): c is string => c !== null);
  if (conditions.length > 0) url.searchParams.set('q', conditions.join(' AND '));
  url.searchParams.set('page_size', String(options.pageSize));
  const response = await client.getJson(url, options.resource, options.signal, {
    nextAttemptUrl: smallerPage,
  });
  const answeredSize = Number(new URL(response.url).searchParams.get('page_size'));
  const envelope = readEnvelope(
    response.value,
    response.resultTexts,
    options.resource,
    response.url,
  );
  const ids = envelope.results.map((item) => idOf(item, options.resource, response.url));
  const hasMore = envelope.next !== null;
  if (hasMore && ids.length === 0) {
    throw new ResponseError(
      `${options.resource}: ${response.url} announced more results but returned none`,
      { retryable: false },
    );
  }
  return {
    url: response.url,
    results: envelope.results,
    resultTexts: envelope.resultTexts,
    ids,
    after,
    // A page without a next one holds the whole window (after, upTo], or the rest of the list.
    through: hasMore ? ids.reduce((a, b) => (BigInt(a) > BigInt(b) ? a : b)) : upTo,
    count: envelope.count,
    textLength: response.text.length,
    pageSize: Number.isInteger(answeredSize) && answeredSize > 0 ? answeredSize : options.pageSize,
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

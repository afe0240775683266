import { isTimeoutOrGatewayError, ResponseError } from '../errors.ts';
import type { WeblateClient } from './client.ts';
import { readEnvelope } from './pagination.ts';
import { idText } from './record-id.ts';

export interface KeysetPage {
  url: string;
  results: unknown[];
  resultTexts: string[];
  /** Ids of the results, as decimal strings (ascending). */
  ids: string[];
  /** The page covers every matching id in (after, through]; through null: to the end. */
  after: string | null;
  through: string | null;
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
  signal?: AbortSignal;
}

/**
 * Walks a unit list ordered by id with keyset paging: always page 1 of
 * `(<q>) AND id:>K`, K being the last id read, at the largest page size. Unlike page
 * numbers, rows added or deleted meanwhile cannot shift a page and make a row skipped, and
 * no page is an expensive deep OFFSET. A consumer that pulls the next page while it
 * writes the current one (see lib/pipelined.ts) overlaps the two. A page that times out
 * is asked again with half the page size (see smallerPage), and the walk keeps that size.
 */
export async function* walkKeyset(
  client: WeblateClient,
  path: string,
  options: KeysetOptions,
): AsyncGenerator<KeysetPage> {
  let after = options.after;
  let pageSize = options.pageSize;
  for (;;) {
    const page = await fetchPage(client, path, { ...options, pageSize }, after);
    yield page;
    if (page.through === null) return;
    if (after !== null && BigInt(page.through) <= BigInt(after)) {
      throw new ResponseError(
        `${options.resource}: ${page.url} did not advance past id ${after}; the server ignores id:> filters`,
        { retryable: false },
      );
    }
    after = page.through;
    pageSize = fittingPageSize(page.pageSize, page);
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
): Promise<KeysetPage> {
  const url = client.resolve(path);
  const conditions = [
    options.q === null ? null : `(${options.q})`,
    after === null ? null : `id:>${after}`,
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
    through: hasMore ? ids.reduce((a, b) => (BigInt(a) > BigInt(b) ? a : b)) : null,
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

import { HttpError, ResponseError } from '../errors.ts';
import type { WeblateClient } from './client.ts';
import { readAhead, type ReadAheadPlan } from './read-ahead.ts';

export interface ListPage {
  url: string;
  /** 1 for the first page of the walk. */
  number: number;
  /** `count` of the envelope (total items over all pages), or null when absent. */
  count: number | null;
  results: unknown[];
  /** Source text of each result, for `raw`. */
  resultTexts: string[];
  isLast: boolean;
}

export interface WalkOptions {
  resource: string;
  /** Sent as `page_size` on the first request; later pages follow `next` as given. */
  pageSize: number;
  signal?: AbortSignal;
}

/** A page of a list with the link to the page after it, resolved (null on the last page). */
interface FetchedPage {
  url: string;
  count: number | null;
  results: unknown[];
  resultTexts: string[];
  next: URL | null;
  textLength: number;
}

async function fetchPage(
  client: WeblateClient,
  url: URL,
  options: { resource: string },
  signal: AbortSignal | undefined,
): Promise<FetchedPage> {
  const response = await client.getJson(url, options.resource, signal);
  const envelope = readEnvelope(
    response.value,
    response.resultTexts,
    options.resource,
    response.url,
  );
  return {
    url: response.url,
    count: envelope.count,
    results: envelope.results,
    resultTexts: envelope.resultTexts,
    next:
      envelope.next === null
        ? null
        : resolveNext(client, envelope.next, options.resource, response.url),
    textLength: response.text.length,
  };
}

/** The first page's URL of a list: `page_size` set, no `page`. */
function firstPageUrl(client: WeblateClient, start: string | URL, pageSize: number): URL {
  const url = client.resolve(start);
  url.searchParams.set('page_size', String(pageSize));
  url.searchParams.delete('page');
  return url;
}

/**
 * Walks a paginated list by following `next` links only (never building page URLs). A
 * `next` that leaves the configured origin or returns to a page already read stops the
 * walk with an error instead of following it.
 */
export async function* walkList(
  client: WeblateClient,
  start: string | URL,
  options: WalkOptions,
): AsyncGenerator<ListPage> {
  yield* followNext(client, firstPageUrl(client, start, options.pageSize), 1, options);
}

/** The pages from `url` on, following `next` links (see walkList); `number` is the first's. */
async function* followNext(
  client: WeblateClient,
  start: URL,
  firstNumber: number,
  options: WalkOptions,
): AsyncGenerator<ListPage> {
  let url: URL | null = start;
  const seen = new Set<string>();
  let previous: string | null = null;
  for (let number = firstNumber; url !== null; number++) {
    const key = canonicalUrl(url);
    if (seen.has(key)) {
      throw new ResponseError(
        `${options.resource}: the next link of ${previous ?? url.href} leads back to ${url.href}, a page already ` +
          'read; stopping instead of looping (the server paginates inconsistently)',
        { retryable: false },
      );
    }
    seen.add(key);
    const page = await fetchPage(client, url, options, options.signal);
    yield { ...listPage(page, number), isLast: page.next === null };
    previous = page.url;
    url = page.next;
  }
}

function listPage(page: FetchedPage, number: number): Omit<ListPage, 'isLast'> {
  const { url, count, results, resultTexts } = page;
  return { url, number, count, results, resultTexts };
}

export interface NumberedWalkOptions extends WalkOptions {
  /** Requests side by side at most (WEBLATE_CONCURRENCY). */
  concurrency: number;
  /** Response text the walk may hold in pages read ahead of its consumer. */
  textInHand: number;
}

/**
 * Walks a list like walkList, its numbered pages read side by side and yielded in any order; to
 * prove deletions, check each page's `count` (docs/internals.md#numbered-lists-side-by-side).
 */
export async function* walkNumberedList(
  client: WeblateClient,
  start: string | URL,
  options: NumberedWalkOptions,
): AsyncGenerator<ListPage> {
  const firstUrl = firstPageUrl(client, start, options.pageSize);
  const first = await fetchPage(client, firstUrl, options, options.signal);
  const total = numberedPages(first);
  if (total === null || first.next === null) {
    yield { ...listPage(first, 1), isLast: first.next === null };
    if (first.next !== null) yield* followNext(client, first.next, 2, options);
    return;
  }
  yield { ...listPage(first, 1), isLast: false };
  const template = first.next;
  let largestText = first.textLength;
  let nextNumber = 2;
  let lastPageNext: URL | null = null;
  const plan: ReadAheadPlan<number, { page: FetchedPage; number: number }> = {
    pagesInHand: () =>
      Math.max(1, Math.min(options.concurrency, Math.floor(options.textInHand / largestText))),
    next: (inFlight) =>
      inFlight >= options.concurrency || nextNumber > total ? null : nextNumber++,
    learn: (number, { page }) => {
      largestText = Math.max(largestText, page.textLength);
      if (number === total) lastPageNext = page.next;
    },
  };
  const perPage = first.results.length;
  const fetch = async (number: number, signal: AbortSignal) => {
    const url = new URL(template);
    url.searchParams.set('page', String(number));
    try {
      return { page: await fetchPage(client, url, options, signal), number };
    } catch (err) {
      // Django REST framework answers 404 for a page past the end: the list shrank since
      // the first page. An empty page says so by its count, at most what the pages before it hold.
      if (!(err instanceof HttpError && err.status === 404)) throw err;
      const count = (number - 1) * perPage;
      const empty = {
        url: url.href,
        count,
        results: [],
        resultTexts: [],
        next: null,
        textLength: 0,
      };
      return { page: empty, number };
    }
  };
  let yielded = 0;
  for await (const { page, number } of readAhead(plan, fetch, options.signal)) {
    yielded++;
    const isLast = yielded === total - 1 && (lastPageNext as URL | null) === null;
    yield { ...listPage(page, number), isLast };
  }
  if (lastPageNext !== null) yield* followNext(client, lastPageNext, total + 1, options);
}

/**
 * How many pages a list's first page says it has, when it shows Django REST framework's page
 * numbers: a `count`, a full first page, and a `next` link that differs from the first page's
 * own query only by `page=2`. Null otherwise (a list paginated some other way).
 */
function numberedPages(first: FetchedPage): number | null {
  if (first.count === null || first.next === null || first.results.length === 0) return null;
  if (first.next.searchParams.get('page') !== '2') return null;
  return Math.max(1, Math.ceil(first.count / first.results.length));
}

export interface Envelope {
  count: number | null;
  next: string | null;
  results: unknown[];
  resultTexts: string[];
}

/** Checks the shape of a list answer, naming the resource and URL when it is wrong. */
export function readEnvelope(
  value: unknown,
  texts: string[] | null,
  resource: string,
  url: string,
): Envelope {
  const fail = (what: string) =>
    new ResponseError(
      `${resource}: ${url} did not answer a paginated list ({count, next, previous, results}): ${what}`,
      {
        retryable: false,
      },
    );
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw fail(`got ${describe(value)}`);
  const { count, next, results } = value as Record<string, unknown>;
  if (!Array.isArray(results)) throw fail('`results` is missing or not an array');
  if (texts === null || texts.length !== results.length)
    throw fail('`results` could not be read element by element');
  if (next !== null && next !== undefined && typeof next !== 'string')
    throw fail('`next` is neither a URL nor null');
  if (
    count !== undefined &&
    count !== null &&
    (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
  ) {
    throw fail('`count` is not a whole number');
  }
  return {
    count: typeof count === 'number' ? count : null,
    next: typeof next === 'string' ? next : null,
    results,
    resultTexts: texts,
  };
}

function resolveNext(client: WeblateClient, next: string, resource: string, from: string): URL {
  try {
    return client.resolve(next);
  } catch (err) {
    throw new ResponseError(
      `${resource}: the next link of ${from} was refused: ${(err as Error).message}`,
      {
        retryable: false,
        cause: err,
      },
    );
  }
}

/** Origin, path and sorted query, so that reordered parameters still count as one page. */
export function canonicalUrl(url: URL): string {
  const params = [...url.searchParams]
    .filter(([key]) => key !== 'format')
    .sort(([a], [b]) => a.localeCompare(b));
  return `${url.origin}${url.pathname}?${new URLSearchParams(params).toString()}`;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON array';
  if (value === null) return 'null';
  return `a JSON ${typeof value}`;
}

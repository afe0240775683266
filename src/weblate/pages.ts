import { ResponseError } from '../errors.ts';
import type { GetOptions, WeblateClient } from './client.ts';
import { readAhead } from './read-ahead.ts';

/**
 * One page of a read, before validation: the records as parsed with their exact texts, and
 * where the read stands after it (`at`, which a stream's cursor is made of).
 */
export interface Page<At> {
  url: string;
  results: unknown[];
  resultTexts: string[];
  /** Whether the read has pages after this one. */
  more: boolean;
  /** Pages the whole read takes, when its first page tells (a list's `count`), else null. */
  totalPages: number | null;
  /** The list's `count` as this page reported it; null where the read has none to compare. */
  count: number | null;
  /** A detail endpoint's single object rather than a list's record (names rejections by URL). */
  single: boolean;
  at: At;
}

/** An answer as the engine fetched it: a list's envelope checked, or a detail's one object. */
export interface Fetched {
  /** The URL the planner asked for (an attempt after a failure may have changed it). */
  asked: URL;
  /** The URL that was answered. */
  url: string;
  results: unknown[];
  resultTexts: string[];
  count: number | null;
  /** The list's `next` link as sent (null: the last page); planners that follow it resolve it. */
  next: string | null;
  textLength: number;
  elapsedMs: number;
}

/**
 * What a read decides, with no I/O: which request to send next, what each answer means (its
 * page and `at`), and how many pages it may hold at once. The engine (`fetchPages`) does the
 * rest; planners: numbered or linked pages (pagination.ts), id windows (keyset.ts) and time
 * windows (change-window.ts).
 */
export interface Planner<Request, At> {
  /** Pages the read may hold at once, in flight or arrived and not yet taken (at least 1). */
  pagesInHand(): number;
  /** The next request while `inFlight` are out, or null: none now. */
  next(inFlight: number): Request | null;
  /** The URL that answers `request` (it may refuse one: a list that does not advance). */
  url(request: Request): URL;
  /** Learns from the answer to `request`, in the order pages are yielded (may throw). */
  onPage(request: Request, fetched: Fetched): Page<At>;
  /** A detail endpoint: the body is the one record, not a list. */
  readonly single?: boolean;
  /** How an attempt after a failure changes the URL (see GetOptions). */
  readonly nextAttemptUrl?: GetOptions['nextAttemptUrl'];
  /** An answer read as a page instead of a failure (a numbered page past the end), or null. */
  recover?(request: Request, url: URL, error: unknown): Fetched | null;
  /** Settles when the read may ask more than it does now (see ReadAheadPlan). */
  wake?(): Promise<void> | null;
}

/** Fetches one page of a list (or one object, `single`), checking its shape. */
export async function fetchPage(
  client: WeblateClient,
  url: URL,
  resource: string,
  signal: AbortSignal | undefined,
  {
    single = false,
    nextAttemptUrl,
  }: Pick<Planner<unknown, unknown>, 'single' | 'nextAttemptUrl'> = {},
): Promise<Fetched> {
  const response = await client.getJson(url, resource, signal, { nextAttemptUrl });
  const answer = { asked: url, url: response.url, textLength: response.text.length };
  const timing = { elapsedMs: response.elapsedMs };
  if (single) {
    const results = [response.value];
    const resultTexts = [response.text.trim()];
    return { ...answer, results, resultTexts, count: null, next: null, ...timing };
  }
  const envelope = readEnvelope(response.value, response.resultTexts, resource, response.url);
  return { ...answer, ...envelope, ...timing };
}

/**
 * The one read engine: asks what `planner` hands out, up to its pages in hand at once, and
 * yields each page as it arrives, after the planner has learnt from it.
 */
export async function* fetchPages<Request, At>(
  client: WeblateClient,
  planner: Planner<Request, At>,
  { resource, signal }: { resource: string; signal?: AbortSignal },
): AsyncGenerator<Page<At>> {
  interface Slot {
    fetched: Fetched;
    page?: Page<At>;
  }
  const fetch = async (request: Request, abort: AbortSignal): Promise<Slot> => {
    const url = planner.url(request);
    try {
      return { fetched: await fetchPage(client, url, resource, abort, planner) };
    } catch (err) {
      const recovered = planner.recover?.(request, url, err) ?? null;
      if (recovered === null) throw err;
      return { fetched: recovered };
    }
  };
  const plan = {
    pagesInHand: () => planner.pagesInHand(),
    next: (inFlight: number) => planner.next(inFlight),
    learn: (request: Request, slot: Slot) =>
      void (slot.page = planner.onPage(request, slot.fetched)),
    wake: () => planner.wake?.() ?? null,
  };
  for await (const slot of readAhead(plan, fetch, signal)) yield slot.page!;
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

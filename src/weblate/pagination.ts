import { ResponseError } from '../errors.ts';
import type { WeblateClient } from './client.ts';

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
  let url: URL | null = client.resolve(start);
  url.searchParams.set('page_size', String(options.pageSize));
  url.searchParams.delete('page');
  const seen = new Set<string>();
  let previous: string | null = null;
  for (let number = 1; url !== null; number++) {
    const key = canonicalUrl(url);
    if (seen.has(key)) {
      throw new ResponseError(
        `${options.resource}: the next link of ${previous ?? url.href} leads back to ${url.href}, a page already ` +
          'read; stopping instead of looping (the server paginates inconsistently)',
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
    const next: URL | null =
      envelope.next === null
        ? null
        : resolveNext(client, envelope.next, options.resource, response.url);
    yield {
      url: response.url,
      number,
      count: envelope.count,
      results: envelope.results,
      resultTexts: envelope.resultTexts,
      isLast: next === null,
    };
    previous = response.url;
    url = next;
  }
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

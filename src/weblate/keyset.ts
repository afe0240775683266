import { ResponseError } from '../errors.ts';
import type { WeblateClient } from './client.ts';
import { readEnvelope } from './pagination.ts';

export interface KeysetPage {
  url: string;
  results: unknown[];
  resultTexts: string[];
  /** Ids of the results, as decimal strings (ascending). */
  ids: string[];
  /** The page covers every matching id in (after, through]; through null: to the end. */
  after: string | null;
  through: string | null;
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
 * no page is an expensive deep OFFSET. The next page is fetched while the caller handles
 * the current one.
 */
export async function* walkKeyset(
  client: WeblateClient,
  path: string,
  options: KeysetOptions,
): AsyncGenerator<KeysetPage> {
  let after = options.after;
  let pending: Promise<KeysetPage> | null = fetchPage(client, path, options, after);
  while (pending !== null) {
    const page: KeysetPage = await pending;
    pending = null;
    if (page.through !== null) {
      const last = page.through;
      if (after !== null && BigInt(last) <= BigInt(after)) {
        throw new ResponseError(
          `${options.resource}: ${page.url} did not advance past id ${after}; the server ignores id:> filters`,
          {
            retryable: false,
          },
        );
      }
      after = last;
      pending = fetchPage(client, path, options, after);
      // Handled by the caller's await of the next page; never left unobserved.
      pending.catch(() => undefined);
    }
    yield page;
  }
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
  const response = await client.getJson(url, options.resource, options.signal);
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
  };
}

function idOf(item: unknown, resource: string, url: string): string {
  const id = item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
  if (typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id))) return String(id);
  throw new ResponseError(
    `${resource}: an item of ${url} has no id, so the list cannot be walked by id`,
    { retryable: false },
  );
}

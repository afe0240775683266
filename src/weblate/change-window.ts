import { ResponseError } from '../errors.ts';
import { toUtcMicros } from '../lib/timestamps.ts';
import type { WeblateClient } from './client.ts';
import { readEnvelope } from './pagination.ts';

export interface ChangeWindowPage {
  url: string;
  results: unknown[];
  resultTexts: string[];
  /** Oldest timestamp on this page (canonical UTC); the window now ends there. */
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
  signal?: AbortSignal;
}

/**
 * Reads the changes of a window newest first (Weblate's only order). Instead of page
 * numbers, which shift when changes are added or cascade-deleted while the list is read,
 * each request asks for page 1 of [after, oldest timestamp seen so far]; the boundary is
 * read twice and deduplicated by id by the caller's upsert. When a whole page shares one
 * timestamp the window cannot narrow, and the walk follows `next` for that stretch.
 */
export async function* walkChangeWindow(
  client: WeblateClient,
  path: string,
  options: ChangeWindowOptions,
): AsyncGenerator<ChangeWindowPage> {
  let before = options.before;
  let next: URL | null = null;
  const seen = new Set<string>();
  for (;;) {
    const url = next ?? windowUrl(client, path, options, before);
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
    const isLast = envelope.next === null;
    yield {
      url: response.url,
      results: envelope.results,
      resultTexts: envelope.resultTexts,
      oldest,
      isLast,
    };
    if (isLast) return;
    if (oldest !== null && oldest < before) {
      before = oldest;
      next = null;
    } else {
      next = client.resolve(envelope.next!);
    }
  }
}

function windowUrl(
  client: WeblateClient,
  path: string,
  options: ChangeWindowOptions,
  before: string,
): URL {
  const url = client.resolve(path);
  if (options.after !== null) url.searchParams.set('timestamp_after', options.after);
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

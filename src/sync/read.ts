import type { z } from 'zod';

import type { RawJson } from '../db/database.ts';
import { TransformError } from '../errors.ts';
import { type ListPage, walkList } from '../weblate/pagination.ts';
import { describeIssues } from '../weblate/schemas.ts';
import type { SyncContext } from './context.ts';
import type { Resource } from './tally.ts';

/** A validated API record and its exact source text. */
export interface Item<R> {
  record: R;
  raw: RawJson;
}

export interface ReadSpec<R> {
  resource: Resource;
  schema: z.ZodType<R, unknown>;
  /** Pages already counted in the progress total (announced when the work was discovered). */
  announcedPages?: number;
}

/** Largest page sizes Weblate accepts (research §1): standard lists and the large ones. */
export const PAGE_SIZE = { standard: 1000, large: 10_000 } as const;

/**
 * Walks a list page by page (bounded memory: one page at a time), validating every record.
 * A record that does not fit the schema stops the walk with an error naming the resource,
 * the page URL, the record's position and id, and the offending field.
 */
export async function* readPages<R>(
  ctx: SyncContext,
  url: string | URL,
  spec: ReadSpec<R> & { pageSize: number },
): AsyncGenerator<{ page: ListPage; items: Item<R>[] }> {
  ctx.tally.begin(spec.resource);
  const announced = spec.announcedPages ?? 1;
  if (spec.announcedPages === undefined) ctx.tally.expectPages(1);
  const walk = walkList(ctx.client, url, {
    resource: spec.resource,
    pageSize: spec.pageSize,
    signal: ctx.signal,
  });
  for await (const page of walk) {
    if (page.number === 1 && page.count !== null) {
      ctx.tally.expectPages(pagesFor(page.count, spec.pageSize) - announced);
    } else if (!page.isLast && ctx.tally.pagesKnown <= ctx.tally.pagesDone + 1) {
      ctx.tally.expectPages(1);
    }
    const items = page.results.map((value, index) =>
      toItem(spec, value, page.resultTexts[index]!, `record ${index + 1} of ${page.url}`),
    );
    ctx.tally.pageRead(spec.resource, items.length);
    ctx.log.debug({ resource: spec.resource, url: page.url, records: items.length }, 'page read');
    yield { page, items };
  }
}

/** Pages a list of `count` items takes (an empty list still takes one). */
export function pagesFor(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** Fetches one object (a detail or statistics endpoint) and validates it. */
export async function readObject<R>(
  ctx: SyncContext,
  url: string | URL,
  spec: ReadSpec<R>,
): Promise<Item<R>> {
  ctx.tally.begin(spec.resource);
  if (spec.announcedPages === undefined) ctx.tally.expectPages(1);
  const response = await ctx.client.getJson(url, spec.resource, ctx.signal);
  const item = toItem(spec, response.value, response.text.trim(), response.url);
  ctx.tally.pageRead(spec.resource, 1);
  return item;
}

function toItem<R>(spec: ReadSpec<R>, value: unknown, text: string, where: string): Item<R> {
  const parsed = spec.schema.safeParse(value);
  const id =
    value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  const label = `${spec.resource}: ${where}${typeof id === 'number' || typeof id === 'string' ? ` (id ${id})` : ''}`;
  if (!parsed.success) throw new TransformError(`${label}: ${describeIssues(parsed.error)}`);
  // PostgreSQL stores no U+0000 in text or jsonb; the escaped form is the only way JSON carries one.
  if (text.includes('\\u0000') && containsNul(value)) {
    throw new TransformError(
      `${label}: contains a NUL character (U+0000), which PostgreSQL cannot store`,
    );
  }
  return { record: parsed.data, raw: text as RawJson };
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, v]) => key.includes('\u0000') || containsNul(v));
  }
  return false;
}

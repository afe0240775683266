import type { z } from 'zod';

import type { RawJson } from '../db/database.ts';
import type { Rejection } from '../db/queries/rejections.ts';
import { SyncError } from '../errors.ts';
import { fastParse } from '../weblate/fast-parse.ts';
import { fetchPages, type Page } from '../weblate/pages.ts';
import { describeIssues } from '../weblate/schemas.ts';
import type { SyncContext } from './context.ts';
import type { Listing } from './listing.ts';
import type { Read } from './reads.ts';
import type { Resource } from './tally.ts';

/** A validated API record and its exact source text. */
export interface Item<R> {
  record: R;
  raw: RawJson;
}

export interface ReadSpec<R> {
  resource: Resource;
  schema: z.ZodType<R, unknown>;
  /**
   * A discovery resource (languages, projects, components, translations): a page whose
   * records all lack `id` comes from a server older than Weblate 5.0.1, and stops the run.
   */
  isDiscovery?: boolean;
  /** Notes the id of every record read, rejected ones too (to mark what the list lacks). */
  listing?: Listing;
}

/** Records of a page split into those that fit and those to keep in rejected_records. */
export interface Checked<R> {
  items: Item<R>[];
  rejected: Rejection[];
}

/**
 * Reads page by page (bounded memory: one page at a time), validating every record,
 * and counts its pages for progress. A record that does not fit is not stored but returned as
 * a rejection naming the resource, the page URL, the record's position and id, and the
 * offending field.
 */
export async function* readPages<R, At>(
  ctx: SyncContext,
  read: Read<At>,
  spec: ReadSpec<R>,
): AsyncGenerator<Checked<R> & { page: Page<At> }> {
  ctx.tally.begin(spec.resource);
  ctx.tally.expectPages(1);
  let counted = false;
  let first = true;
  const planner = read(ctx, spec.resource);
  const pages = fetchPages(ctx.client, planner, { resource: spec.resource, signal: ctx.signal });
  for await (const page of pages) {
    if (first && page.totalPages !== null) {
      ctx.tally.expectPages(page.totalPages - 1);
      counted = true;
    } else if (page.more && !counted) {
      ctx.tally.expectPages(1);
    }
    first = false;
    if (spec.isDiscovery === true) assertIdsSent(spec.resource, page.results, page.url);
    spec.listing?.notePage(page.results, page.url, page.count);
    const checked = checkRecords(spec, page.results, page.resultTexts, page.url, page.single);
    ctx.tally.pageRead(spec.resource, page.results.length);
    ctx.log.debug(
      {
        resource: spec.resource,
        url: page.url,
        records: page.results.length,
        rejected: checked.rejected.length,
      },
      'page read',
    );
    yield { page, ...checked };
  }
}

/**
 * Weblate added `id` to every object of its API in 5.0.1; before it, languages, projects,
 * components and translations have none, and the mirror keys its tables on those ids.
 * One record without an id is a bad record (rejected on its own); records that all lack
 * one are an old server, which no record-by-record rejection would explain.
 */
function assertIdsSent(resource: Resource, values: readonly unknown[], url: string): void {
  const hasId = (value: unknown) => value !== null && typeof value === 'object' && 'id' in value;
  if (values.length === 0 || values.some(hasId)) return;
  throw new SyncError(
    `${resource}: the records of ${url} carry no id. The server looks older than Weblate 5.0.1, ` +
      'which weblate-mirror needs: before it, languages, projects, components and translations ' +
      'carry no id, and the mirror keys every table on those ids. Upgrade Weblate to 5.0.1 or later.',
  );
}

function checkRecords<R>(
  spec: ReadSpec<R>,
  values: readonly unknown[],
  texts: readonly string[],
  url: string,
  single: boolean,
): Checked<R> {
  const checked: Checked<R> = { items: [], rejected: [] };
  values.forEach((value, index) => {
    const text = texts[index]!;
    const found = validate(spec, value, text);
    if (found.ok) {
      checked.items.push({ record: found.record, raw: text as RawJson });
    } else {
      const where = single ? url : `record ${index + 1} of ${url}`;
      checked.rejected.push({
        resource: spec.resource,
        url,
        reason: `${where}${idLabel(value)}: ${found.problem}`,
        raw: text,
      });
    }
  });
  return checked;
}

type Validated<R> = { ok: true; record: R } | { ok: false; problem: string };

function validate<R>(spec: ReadSpec<R>, value: unknown, text: string): Validated<R> {
  let record = fastParse(spec.schema, value);
  if (record === undefined) {
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) return { ok: false, problem: describeIssues(parsed.error) };
    record = parsed.data;
  }
  // PostgreSQL stores no U+0000 in text or jsonb; the escaped form is the only way JSON carries one.
  if (text.includes('\\u0000') && containsNul(value)) {
    return {
      ok: false,
      problem: 'contains a NUL character (U+0000), which PostgreSQL cannot store',
    };
  }
  return { ok: true, record };
}

function idLabel(value: unknown): string {
  const id =
    value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'number' || typeof id === 'string' ? ` (id ${id})` : '';
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, v]) => key.includes('\u0000') || containsNul(v));
  }
  return false;
}

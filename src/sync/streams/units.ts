import { readCursor, writeCursor } from '../../db/queries/cursors.ts';
import {
  markUnitsDeleted,
  markUnitsMissingInRange,
  type UnitScope,
} from '../../db/queries/deletions.ts';
import { clearPending, listPending, removePending } from '../../db/queries/pending.ts';
import { findUnitCountMismatches } from '../../db/queries/translation-state.ts';
import { HttpError } from '../../errors.ts';
import { pipelined } from '../../lib/pipelined.ts';
import { shiftSeconds } from '../../lib/timestamps.ts';
import { type KeysetPage, walkKeyset } from '../../weblate/keyset.ts';
import { weblateUnit } from '../../weblate/schemas.ts';
import { commitPage } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { checkPage, PAGE_SIZE } from '../read.ts';
import { storeUnits, unitRows, writeUnitRows } from './unit-rows.ts';
import { sweepTranslation } from './unit-sweep.ts';

/** Where the unit walk of one scope stands. */
export interface UnitCursor {
  /** Server time at the start of the last complete walk. */
  mark: string | null;
  /** Highest unit id mirrored. */
  maxId: string | null;
  /** The walk in progress: its query parameters and the last id committed. */
  walk: {
    full: boolean;
    since: string | null;
    maxIdBefore: string | null;
    after: string | null;
    end: string;
  } | null;
}

interface Scope {
  key: string;
  projectSlug: string | null;
}

/**
 * Mirrors units through the global /api/units/ (10,000 per request), walked by id: all of
 * them in a full sync, else only those changed since the mark (or new), and only when a
 * translation moved or a change named a unit. Then units named by changes that the walk did
 * not cover, and a sweep of every translation whose unit count differs from its total.
 * Servers without the global list or `q` are read translation by translation instead.
 */
export async function syncUnits(ctx: SyncContext): Promise<void> {
  const scopes: Scope[] =
    ctx.scope.projects === null
      ? [{ key: '', projectSlug: null }]
      : ctx.scope.projects.map((slug) => ({ key: slug, projectSlug: slug }));
  let globalListWorks = true;
  for (const scope of scopes) {
    if (!globalListWorks || !(await walkScope(ctx, scope))) {
      globalListWorks = false;
      await sweepPendingTranslations(ctx);
    }
  }
  if (ctx.mode === 'incremental') await syncNamedUnits(ctx, globalListWorks);
  await sweepMismatches(ctx);
}

/** Returns false when the server has no usable global unit list. */
async function walkScope(ctx: SyncContext, scope: Scope): Promise<boolean> {
  const cursor = (await readCursor<UnitCursor>(ctx.db, 'units', scope.key)) ?? {
    mark: null,
    maxId: null,
    walk: null,
  };
  // A walk left unfinished by an earlier run resumes, unless it was incremental and this run
  // must read everything (`sync --full`).
  const resumable = cursor.walk !== null && (cursor.walk.full || ctx.mode === 'incremental');
  const walk = resumable ? cursor.walk : await planWalk(ctx, scope, cursor);
  if (walk === null) return true;
  const conditions = [
    walk.full ? null : changedQuery(walk),
    scope.projectSlug === null ? null : `project:${scope.projectSlug}`,
  ];
  const q = conditions.filter((c): c is string => c !== null).join(' AND ') || null;
  let maxId = cursor.maxId;
  try {
    ctx.tally.begin('units');
    ctx.tally.expectPages(1);
    const pages = walkKeyset(ctx.client, 'units/', {
      resource: 'units',
      pageSize: PAGE_SIZE.large,
      q,
      after: walk.after,
      signal: ctx.signal,
    });
    const deletionScope: UnitScope =
      scope.projectSlug === null ? null : { projectSlug: scope.projectSlug };
    // While one page is written, the next is fetched, validated and turned into rows.
    const prepare = (page: KeysetPage) => {
      if (page.through !== null) ctx.tally.expectPages(1);
      const checked = checkPage(
        ctx,
        { resource: 'units', schema: weblateUnit },
        page.results,
        page.resultTexts,
        page.url,
      );
      // Only what the commit needs: the parsed records are garbage once they are rows.
      const { url, ids, after, through } = page;
      return {
        page: { url, ids, after, through },
        rejected: checked.rejected,
        rows: unitRows(ctx, checked.items),
      };
    };
    // Page k+1's rows are written while page k commits (ids are disjoint); its cursor waits
    // for page k, so the cursor never claims a page that was not stored.
    const commit = (
      { page, rejected, rows }: ReturnType<typeof prepare>,
      previous: Promise<void>,
    ) => {
      maxId = maxOf(maxId, ...page.ids);
      const next: UnitCursor =
        page.through === null
          ? { mark: walk.end, maxId, walk: null }
          : { mark: cursor.mark, maxId, walk: { ...walk, after: page.through } };
      return commitPage(ctx, 'units', rejected, async (trx) => {
        const result = await writeUnitRows(trx, rows, page.url);
        await removePending(trx, 'unit', page.ids);
        if (walk.full) await markUnitsMissingInRange(trx, deletionScope, page, page.ids);
        await previous;
        // Pending units are not known by project: only a walk of every project covers them all.
        if (walk.full && page.through === null && scope.projectSlug === null) {
          await clearPending(trx, 'unit');
        }
        await writeCursor(trx, 'units', scope.key, next);
        return result;
      });
    };
    await pipelined(pages, prepare, commit, ctx.overlapCommits);
  } catch (err) {
    if (isUnsupported(err)) {
      ctx.tally.warn(
        `the server has no usable /api/units/ list (${(err as Error).message}); units are read per translation`,
      );
      return false;
    }
    throw err;
  }
  return true;
}

async function planWalk(
  ctx: SyncContext,
  scope: Scope,
  cursor: UnitCursor,
): Promise<UnitCursor['walk']> {
  if (ctx.mode === 'full' || cursor.mark === null) {
    return { full: true, since: null, maxIdBefore: null, after: null, end: ctx.windowEnd };
  }
  const hasWork =
    (await listPending(ctx.db, 'translation')).length > 0 ||
    (await listPending(ctx.db, 'unit')).length > 0;
  if (!hasWork) {
    // Nothing moved since the mark: no translation changed and no change named a unit.
    await writeCursor(ctx.db, 'units', scope.key, { ...cursor, mark: ctx.windowEnd });
    return null;
  }
  return {
    full: false,
    since: shiftSeconds(cursor.mark, -ctx.lookbackSeconds),
    maxIdBefore: cursor.maxId,
    after: null,
    end: ctx.windowEnd,
  };
}

/** Changed or new units; parenthesised, because AND binds tighter than OR in Weblate's search. */
function changedQuery(walk: NonNullable<UnitCursor['walk']>): string {
  const changed = `last_changed:>=${walk.since ?? '1970-01-01T00:00:00Z'}`;
  return walk.maxIdBefore === null ? changed : `(${changed} OR id:>${walk.maxIdBefore})`;
}

/** Units named by changes that the walk did not bring: read by id, 100 per request. */
async function syncNamedUnits(ctx: SyncContext, globalListWorks: boolean): Promise<void> {
  const ids = await listPending(ctx.db, 'unit');
  if (ids.length === 0) return;
  if (!globalListWorks) return sweepTranslationsOfUnits(ctx, ids);
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const url = ctx.client.resolve('units/');
    url.searchParams.set('q', `id:${chunk.join(',')}`);
    url.searchParams.set('page_size', String(PAGE_SIZE.large));
    const response = await ctx.client.getJson(url, 'units', ctx.signal);
    const results = Array.isArray((response.value as { results?: unknown }).results)
      ? (response.value as { results: unknown[] }).results
      : [];
    const checked = checkPage(
      ctx,
      { resource: 'units', schema: weblateUnit },
      results,
      response.resultTexts ?? [],
      response.url,
    );
    const found = new Set(checked.items.map((item) => item.record.id));
    await commitPage(ctx, 'units', checked.rejected, async (trx) => {
      const result = await storeUnits(ctx, trx, checked.items, response.url);
      // Named by a change but gone now: deleted upstream since.
      await markUnitsDeleted(
        trx,
        chunk.filter((id) => !found.has(id)),
      );
      await removePending(trx, 'unit', chunk);
      return result;
    });
  }
}

async function sweepTranslationsOfUnits(ctx: SyncContext, unitIds: string[]): Promise<void> {
  const rows = await ctx.db
    .selectFrom('weblate.units')
    .select('translation_id')
    .distinct()
    .where('id', 'in', unitIds)
    .execute();
  for (const { translation_id: id } of rows) {
    const ref = ctx.lookup.translationsById.get(id);
    if (ref !== undefined) await sweepTranslation(ctx, ref);
  }
  await removePending(ctx.db, 'unit', unitIds);
}

async function sweepPendingTranslations(ctx: SyncContext): Promise<void> {
  for (const id of await listPending(ctx.db, 'translation')) {
    const ref = ctx.lookup.translationsById.get(Number(id));
    if (ref !== undefined) await sweepTranslation(ctx, ref);
  }
}

/** A translation whose live unit count differs from its total gets an id sweep (only that one). */
async function sweepMismatches(ctx: SyncContext): Promise<void> {
  for (const mismatch of await findUnitCountMismatches(ctx.db, ctx.scope.projects)) {
    const ref = ctx.lookup.translationsById.get(mismatch.id);
    if (ref === undefined) continue;
    ctx.log.info(
      { translation: ref.url, total: mismatch.total, mirrored: mismatch.live },
      'unit count differs from total: sweeping',
    );
    await sweepTranslation(ctx, ref);
  }
}

function isUnsupported(err: unknown): boolean {
  return (
    err instanceof HttpError &&
    (err.status === 404 || (err.status === 400 && /\bq\b/.test(err.detail ?? '')))
  );
}

function maxOf(current: string | null, ...ids: string[]): string | null {
  let max = current;
  for (const id of ids) if (max === null || BigInt(id) > BigInt(max)) max = id;
  return max;
}

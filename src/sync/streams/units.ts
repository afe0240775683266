import {
  markUnitsDeleted,
  markUnitsMissingInRange,
  type UnitScope,
} from '../../db/queries/deletions.ts';
import { unitsRead } from '../../db/queries/pending-lifecycle.ts';
import {
  applyTransitions,
  pending,
  readCursor,
  transition,
  type UnitCursor,
} from '../../db/queries/sync-state.ts';
import {
  countLiveUnitsThrough,
  findUnitCountMismatches,
} from '../../db/queries/translation-state.ts';
import { shiftSeconds } from '../../lib/timestamps.ts';
import type { WalkShare } from '../../weblate/keyset.ts';
import { weblateUnit } from '../../weblate/schemas.ts';
import type { SyncContext, WindowedContext } from '../context.ts';
import { CoveredIds } from '../covered.ts';
import { byIdsRead, idWindowRead, PAGE_SIZE } from '../reads.ts';
import { runStream } from '../run-stream.ts';
import { unitRows, writeUnitRows } from './unit-rows.ts';
import { lazyUnitStrategy, type UnitStrategy, type UnitStrategyMemo } from './unit-strategy.ts';
import { sweepTranslation } from './unit-sweep.ts';

export type { UnitCursor } from '../../db/queries/sync-state.ts';

interface Scope {
  key: string;
  projectSlug: string | null;
}

type Walk = NonNullable<UnitCursor['walk']>;

/**
 * Mirrors units through the global /api/units/ (10,000 per request), walked by id: all of
 * them in a full sync, else only those changed since the mark (or new), and only when a
 * translation moved or a change named a unit. Then units named by changes that the walk did
 * not cover, and a sweep of every translation whose unit count differs from its total.
 * What the server can do is probed once, when the run first needs the global list (see
 * unit-strategy.ts); without `last_changed` search or without the list, moved translations
 * are read one by one instead.
 */
export async function syncUnits(
  ctx: WindowedContext,
  {
    knownStrategy = null,
    share = null,
  }: {
    knownStrategy?: UnitStrategyMemo | null;
    /** Id windows a full walk reads side by side at most until `until` settles (see KeysetOptions). */
    share?: WalkShare | null;
  } = {},
): Promise<void> {
  const scopes: Scope[] =
    ctx.scope.projects === null
      ? [{ key: '', projectSlug: null }]
      : ctx.scope.projects.map((slug) => ({ key: slug, projectSlug: slug }));
  const strategy = lazyUnitStrategy(ctx, knownStrategy);
  let hasSweptPending = false;
  for (const scope of scopes) {
    const cursor = (await readCursor(ctx.db, 'units', scope.key)) ?? {
      mark: null,
      maxId: null,
      walk: null,
    };
    const walk = await walkToDo(ctx, scope, cursor);
    if (walk === null) continue;
    const chosen = await strategy();
    if (chosen.kind === 'global' || (chosen.kind === 'global-ids' && walk.full)) {
      await walkScope(ctx, scope, cursor, walk, share);
      continue;
    }
    // Pending translations are those of every scope: one sweep covers them all.
    if (!hasSweptPending) await sweepPendingTranslations(ctx, chosen);
    hasSweptPending = true;
    const swept = { ...cursor, mark: walk.end, walk: null };
    await applyTransitions(ctx.db, [transition.cursor('units', scope.key, swept)]);
  }
  if (ctx.reading.followNewChanges) await syncNamedUnits(ctx, strategy);
  await sweepMismatches(ctx);
}

/**
 * The walk this run owes the scope: one left unfinished by an earlier run resumes, unless it
 * was incremental and this run must read everything (`sync --full`); else a new one, or
 * none when nothing moved.
 */
async function walkToDo(
  ctx: WindowedContext,
  scope: Scope,
  cursor: UnitCursor,
): Promise<Walk | null> {
  const resumable = cursor.walk !== null && (cursor.walk.full || !ctx.reading.fromScratch);
  return resumable ? cursor.walk : planWalk(ctx, scope, cursor);
}

/** Walks /api/units/ by id for one scope, committing the cursor with every page. */
async function walkScope(
  ctx: WindowedContext,
  scope: Scope,
  cursor: UnitCursor,
  walk: Walk,
  share: WalkShare | null,
): Promise<void> {
  const conditions = [
    walk.full ? null : changedQuery(walk),
    scope.projectSlug === null ? null : `project:${scope.projectSlug}`,
  ];
  const q = conditions.filter((c): c is string => c !== null).join(' AND ') || null;
  let maxId = cursor.maxId;
  const deletionScope: UnitScope =
    scope.projectSlug === null ? null : { projectSlug: scope.projectSlug };
  // A full walk reads every unit in bounded id windows (see weblate/keyset.ts); a walk for
  // what changed matches few units, and `id:>K` alone counts only those.
  const source = idWindowRead('units/', {
    q,
    after: walk.after,
    pageSize: PAGE_SIZE.large,
    windows: walk.full
      ? {
          expected: await unitsExpected(ctx, scope, walk.after),
          concurrency: ctx.client.concurrency,
          share,
          hints: ctx.unitIdHints ?? undefined,
        }
      : null,
  });
  // Windows read side by side commit in the order they arrive: the cursor claims only the
  // gapless prefix of what is stored.
  const covered = new CoveredIds(walk.after);
  await runStream(ctx, source, {
    resource: 'units',
    schema: weblateUnit,
    // Page k+1's rows are written while page k commits (ids are disjoint); its cursor waits
    // for page k, so the cursor never claims a page that was not stored.
    overlap: true,
    // Pages are prepared in the order they commit: the page that completes the walk is the
    // last, and its maxId covers every page.
    prepare: ({ items, page }) => ({
      rows: unitRows(ctx, items),
      maxId: (maxId = maxOf(maxId, ...page.at.ids)),
    }),
    write: async (trx, { rows, maxId }, { page: { url, at }, previous, copy }) => {
      const result = await writeUnitRows(trx, copy, rows, url);
      if (walk.full) await markUnitsMissingInRange(trx, deletionScope, at, at.ids);
      await previous;
      const reach = covered.with(at.after, at.through);
      const next: UnitCursor = reach.complete
        ? { mark: walk.end, maxId, walk: null }
        : { mark: cursor.mark, maxId, walk: { ...walk, after: reach.through } };
      // Pending units are not known by project: only a walk of every project covers them all.
      const coversAll = walk.full && reach.complete && scope.projectSlug === null;
      const transitions = [
        ...unitsRead(at.ids, { coversAll }),
        transition.cursor('units', scope.key, next),
      ];
      return { ...result, transitions };
    },
    committed: (_, { at }) => covered.add(at.after, at.through),
  });
}

/**
 * Units a walk after `after` should find: what the translations in scope hold by their
 * totals, less the units already stored up to `after` when a walk resumes; null when a
 * translation has no total.
 */
async function unitsExpected(
  ctx: SyncContext,
  scope: Scope,
  after: string | null,
): Promise<number | null> {
  let sum = 0;
  for (const translation of ctx.lookup.translationsById.values()) {
    if (scope.projectSlug !== null && translation.component.projectSlug !== scope.projectSlug)
      continue;
    if (translation.total === null) return null;
    sum += translation.total;
  }
  if (after === null) return sum;
  const projects = scope.projectSlug === null ? null : [scope.projectSlug];
  return Math.max(0, sum - (await countLiveUnitsThrough(ctx.db, projects, after)));
}

async function planWalk(
  ctx: WindowedContext,
  scope: Scope,
  cursor: UnitCursor,
): Promise<Walk | null> {
  if (ctx.reading.fromScratch || cursor.mark === null) {
    return { full: true, since: null, maxIdBefore: null, after: null, end: ctx.windowEnd };
  }
  const hasWork =
    (await pending.movedTranslations.has(ctx.db)) || (await pending.namedUnits.has(ctx.db));
  if (!hasWork) {
    // Nothing moved since the mark: no translation changed and no change named a unit.
    const quiet = { ...cursor, mark: ctx.windowEnd };
    await applyTransitions(ctx.db, [transition.cursor('units', scope.key, quiet)]);
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
function changedQuery(walk: Walk): string {
  const changed = `last_changed:>=${walk.since ?? '1970-01-01T00:00:00Z'}`;
  return walk.maxIdBefore === null ? changed : `(${changed} OR id:>${walk.maxIdBefore})`;
}

/** Units named by changes that the walk did not bring: read by id, 100 per request. */
async function syncNamedUnits(
  ctx: SyncContext,
  strategy: () => Promise<UnitStrategy>,
): Promise<void> {
  const ids = await pending.namedUnits.list(ctx.db);
  if (ids.length === 0) return;
  const chosen = await strategy();
  if (chosen.kind === 'per-translation') return sweepTranslationsOfUnits(ctx, ids, chosen);
  const source = byIdsRead('units/', ids, { chunkSize: 100, pageSize: PAGE_SIZE.large });
  await runStream(ctx, source, {
    resource: 'units',
    schema: weblateUnit,
    prepare: ({ items }) => unitRows(ctx, items),
    write: async (trx, rows, { page: { url, at }, copy }) => {
      const result = await writeUnitRows(trx, copy, rows, url);
      if (at.missing === null) return result;
      // Named by a change but gone now: deleted upstream since.
      await markUnitsDeleted(trx, at.missing);
      return { ...result, transitions: unitsRead(at.chunk, { coversAll: false }) };
    },
  });
}

async function sweepTranslationsOfUnits(
  ctx: SyncContext,
  unitIds: string[],
  strategy: UnitStrategy,
): Promise<void> {
  const rows = await ctx.db
    .selectFrom('weblate.units')
    .select('translation_id')
    .distinct()
    .where('id', 'in', unitIds)
    .execute();
  for (const { translation_id: id } of rows) {
    const ref = ctx.lookup.translationsById.get(id);
    if (ref !== undefined) await sweepTranslation(ctx, ref, sweepOptions(strategy));
  }
  await applyTransitions(ctx.db, unitsRead(unitIds, { coversAll: false }));
}

/** Reads every unit of each pending translation (those that moved; all in a full sync). */
async function sweepPendingTranslations(ctx: SyncContext, strategy: UnitStrategy): Promise<void> {
  for (const id of await pending.movedTranslations.list(ctx.db)) {
    const ref = ctx.lookup.translationsById.get(Number(id));
    if (ref !== undefined) await sweepTranslation(ctx, ref, sweepOptions(strategy));
  }
}

/** A server known to refuse `id:` terms is walked by pages right away. */
function sweepOptions(strategy: UnitStrategy): { byPages: boolean } {
  return { byPages: strategy.hasIdSearch === false };
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

function maxOf(current: string | null, ...ids: string[]): string | null {
  let max = current;
  for (const id of ids) if (max === null || BigInt(id) > BigInt(max)) max = id;
  return max;
}

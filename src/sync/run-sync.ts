import type { DatabaseKind } from '../db/client.ts';
import { hasSucceededRun } from '../db/queries/sync-runs.ts';
import { pending } from '../db/queries/sync-state.ts';
import { SyncError } from '../errors.ts';
import { runBackfill } from '../history/backfill.ts';
import { forEachConcurrently, TaskGroup } from '../lib/task-group.ts';
import { fromDate } from '../lib/timestamps.ts';
import type { SyncContext, SyncDeps, SyncMode, WindowedContext } from './context.ts';
import { discoverFromChanges, isDiscoveryDue, recordDiscovery } from './discovery.ts';
import { loadMirrored } from './mirrored.ts';
import { recordRun, type RunOptions, type RunResult } from './run-record.ts';
import { GLOBAL_CHANGES, projectChanges, syncChanges } from './streams/changes.ts';
import { syncComponents } from './streams/components.ts';
import { syncCategoriesAndLabels } from './streams/labels.ts';
import { syncLanguages } from './streams/languages.ts';
import { syncSubscriptions } from './streams/notifications.ts';
import { syncProjects } from './streams/projects.ts';
import { syncStatistics } from './streams/statistics.ts';
import { syncTranslations } from './streams/translations.ts';
import type { UnitStrategyMemo } from './streams/unit-strategy.ts';
import { syncUnits } from './streams/units.ts';
import { syncUsers } from './streams/users.ts';

/** Whether page commits are worth overlapping on a database of this kind (see SyncContext). */
export function overlapsCommits(kind: DatabaseKind): boolean {
  return kind === 'postgres';
}

export type { SyncDeps } from './context.ts';

export interface SyncOptions extends RunOptions {
  /** Read every list completely and mark what vanished (`sync --full`); otherwise automatic. */
  full?: boolean;
  /**
   * Seconds between complete reads of the discovery lists in incremental syncs; in between,
   * discovery follows the changes (see discovery.ts). 0, the default here, reads them every
   * sync; the CLI and the worker pass WEBLATE_DISCOVERY_INTERVAL_SECONDS (default 3600).
   */
  discoveryIntervalSeconds?: number;
  /** A sync of what webhooks named (see TargetedSync); a plain incremental sync when not given. */
  targeted?: TargetedSync;
}

/**
 * What a sync driven by webhooks (src/webhooks/) reads, recorded as kind `webhook`: like an
 * incremental sync, what the changes since the mark name, and no more:
 * - the complete discovery lists only when the mirror has none for its scope (their interval
 *   is left to the scheduled syncs);
 * - with WEBLATE_PROJECTS, only the change lists of the projects the events named;
 * - no statistics: the translations that moved owe their snapshots (and their languages'
 *   sums) to the next sync that reads statistics, a scheduled one;
 * - the translations its changes name are read again by the next other sync: Weblate sends
 *   its webhooks before it recounts the translation, so their records may be one change
 *   behind (pending.recheckTranslations);
 * - the unit strategy the caller learned before, not a probe each time.
 * It is never the first sync: the caller runs it only once a sync has succeeded.
 */
export interface TargetedSync {
  /** Slugs of the projects the events named; null when an event named none (every project). */
  projects: ReadonlySet<string> | null;
  unitStrategy: UnitStrategyMemo;
}

export interface SyncResult extends RunResult {
  mode: SyncMode;
}

/**
 * One sync, recorded in weblate.sync_runs: full the first time (and with `full`), then
 * incremental. Never throws for a failed sync: the result says what happened, and what was
 * committed before a failure stays (the next run resumes from the cursors). A sync that
 * `signal` stops is recorded `interrupted`.
 */
export async function runSync(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncResult> {
  const isFirst = !(await hasSucceededRun(deps.db));
  const mode: SyncMode = options.full === true || isFirst ? 'full' : 'incremental';
  const targeted = options.targeted ?? null;
  if (targeted !== null && mode === 'full')
    throw new SyncError('a sync driven by webhooks follows a sync that succeeded; none has');
  // A targeted sync lists everything only when it must (never in step with the interval).
  const interval = targeted === null ? (options.discoveryIntervalSeconds ?? 0) : Infinity;
  const kind = targeted === null ? mode : 'webhook';
  const result = await recordRun(deps, { kind, mode }, options, (ctx, controller) =>
    syncEverything(ctx, controller, interval, targeted),
  );
  if (isFirst && result.status === 'succeeded') await backfillAfterFirstSync(deps);
  return { ...result, mode };
}

/**
 * The first sync brings the change history and the first snapshots: the history before
 * them is estimated right away (docs/history.md). A failed estimate fails nothing: the sync
 * is stored, and `weblate-mirror backfill` tries again.
 */
async function backfillAfterFirstSync(deps: SyncDeps): Promise<void> {
  try {
    await runBackfill(deps.db, deps.log);
  } catch (err) {
    deps.log.error(
      { err },
      'estimating the progress history failed; the sync is stored: run `weblate-mirror backfill` to try again',
    );
  }
}

/**
 * The stages, in dependency order: discovery (complete lists, which mark what vanished, when
 * due; else the mirrored objects), the change history (every project's at once when all are
 * in scope, else each project's; windows end at the server time the run knows when they
 * open), discovery from the changes new to the mirror, then units (beside the changes in a
 * full sync), statistics, the people the changes named, and with a complete discovery the
 * subscriptions.
 */
async function syncEverything(
  run: SyncContext,
  controller: AbortController,
  discoveryIntervalSeconds: number,
  targeted: TargetedSync | null,
): Promise<void> {
  const listed = await isDiscoveryDue(run, discoveryIntervalSeconds);
  const found = listed ? await discoverByLists(run) : await loadMirrored(run);
  const named = targeted?.projects ?? null;
  const changedProjects =
    named === null ? found.projects : found.projects.filter((p) => named.has(p.slug));
  // Complete lists cover whatever changes an interrupted run left for discovery, and the
  // translations earlier webhook syncs left to read again.
  if (run.mode === 'full') await pending.newChanges.settleAll(run.db);
  if (listed) await pending.recheckTranslations.settleAll(run.db);
  const ctx: WindowedContext = { ...run, windowEnd: fromDate(run.client.serverNow()) };
  const changes = () =>
    ctx.scope.projects === null
      ? syncChanges(ctx, GLOBAL_CHANGES)
      : forEachConcurrently(changedProjects, controller, (project) =>
          syncChanges(ctx, projectChanges(project)),
        );
  if (ctx.mode === 'full') {
    // A full unit walk needs nothing from the changes: the two largest reads go side by side,
    // their requests in flight together and their pages written as they come. While the
    // changes are read, the unit walk leaves one of the client's places to them, whose
    // requests would otherwise queue behind unit pages that take seconds each on a slow server.
    const group = new TaskGroup(controller);
    const changesRead = changes();
    group.add(changesRead);
    const share = { atOnce: ctx.client.concurrency - 1, until: changesRead };
    group.add(syncUnits(ctx, { share }));
    await group.settle();
  } else {
    await changes();
    await discoverFromChanges(ctx, controller, found.projects, {
      listed,
      webhooks: targeted !== null,
    });
    await syncUnits(ctx, { knownStrategy: targeted?.unitStrategy ?? null });
  }
  await syncStatistics(ctx, found.languageUrls, { deferSnapshots: targeted !== null });
  await syncUsers(ctx, controller);
  if (!listed) return;
  for (const username of ctx.scope.users) await syncSubscriptions(ctx, username);
  await recordDiscovery(ctx);
}

/**
 * The complete discovery lists: languages, projects, components, the projects' categories
 * and labels, translations.
 */
async function discoverByLists(ctx: SyncContext) {
  const languageUrls = await syncLanguages(ctx);
  const projects = await syncProjects(ctx);
  const components = await syncComponents(ctx, projects);
  await syncCategoriesAndLabels(ctx, projects, { global: ctx.scope.projects === null });
  await syncTranslations(ctx, components);
  return { projects, languageUrls };
}

import type { DatabaseKind } from '../db/client.ts';
import { hasSucceededRun } from '../db/queries/sync-runs.ts';
import { applyTransitions, readCursor, transition } from '../db/queries/sync-state.ts';
import { runBackfill } from '../history/backfill.ts';
import { forEachConcurrently, TaskGroup } from '../lib/task-group.ts';
import { fromDate } from '../lib/timestamps.ts';
import { IdHints } from '../weblate/id-hints.ts';
import type { SyncContext, SyncDeps, SyncMode, WindowedContext } from './context.ts';
import { discoverFromChanges, recordDiscovery } from './discovery.ts';
import { loadMirrored } from './mirrored.ts';
import { planRun, readingPlan, runKindOf, type RunPlan, type RunRequest } from './plan.ts';
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
 * A sync driven by webhooks (kind `webhook`): what the changes since the mark name, and no
 * more; never the first sync (docs/internals.md#webhook-syncs).
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
  const hasSucceeded = await hasSucceededRun(deps.db);
  const request: Omit<RunRequest, 'now'> = {
    full: options.full === true,
    discoveryIntervalSeconds: options.discoveryIntervalSeconds ?? 0,
    webhook: options.targeted ?? null,
    scope: deps.scope,
  };
  const { kind, mode } = runKindOf(request, hasSucceeded);
  const run = { kind, mode, reading: readingPlan(mode) };
  const result = await recordRun(deps, run, options, async (ctx, controller) => {
    const discovery = await readCursor(ctx.db, 'discovery', '');
    const plan = planRun({ hasSucceeded, discovery }, { ...request, now: ctx.now() });
    await executeRun(ctx, controller, plan);
  });
  if (!hasSucceeded && result.status === 'succeeded') await backfillAfterFirstSync(deps);
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
 * The stages of a plan, in dependency order: discovery, the change history (windows end at
 * the server time the run knows when they open), discovery from the changes, units,
 * statistics, the people the changes named, then subscriptions with complete lists.
 */
async function executeRun(
  run: SyncContext,
  controller: AbortController,
  plan: RunPlan,
): Promise<void> {
  const found = plan.discovery === 'lists' ? await discoverByLists(run) : await loadMirrored(run);
  const named = plan.changedProjects;
  const changedProjects =
    named === null ? found.projects : found.projects.filter((p) => named.has(p.slug));
  await applyTransitions(
    run.db,
    plan.settle.map((step) => transition.settleAll(step)),
  );
  const ctx: WindowedContext = {
    ...run,
    windowEnd: fromDate(run.client.serverNow()),
    unitIdHints: new IdHints(),
  };
  const changes = () =>
    ctx.scope.projects === null
      ? syncChanges(ctx, GLOBAL_CHANGES)
      : forEachConcurrently(changedProjects, controller, (project) =>
          syncChanges(ctx, projectChanges(project)),
        );
  if (plan.unitsBesideChanges) {
    // The two largest reads side by side; while the changes are read the unit walk leaves
    // them one of the client's places, as their requests would queue behind slow unit pages.
    const group = new TaskGroup(controller);
    const changesRead = changes();
    group.add(changesRead);
    // A unit walk that meets a gap before the changes have named enough units waits for them.
    ctx.unitIdHints.expectUntil(changesRead);
    const share = { atOnce: ctx.client.concurrency - 1, until: changesRead };
    group.add(syncUnits(ctx, { share }));
    await group.settle();
  } else {
    await changes();
    if (plan.discoverFromChanges !== null)
      await discoverFromChanges(ctx, controller, found.projects, {
        listed: plan.discovery === 'lists',
        webhooks: plan.discoverFromChanges.webhooks,
      });
    await syncUnits(ctx, { knownStrategy: plan.knownStrategy });
  }
  await syncStatistics(ctx, found.languageUrls, { deferSnapshots: plan.deferSnapshots });
  await syncUsers(ctx, controller);
  if (!plan.recordDiscovery) return;
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

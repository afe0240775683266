import type { DatabaseKind } from '../db/client.ts';
import { refreshPlannerStatistics } from '../db/planner-statistics.ts';
import { refreshFingerprint } from '../db/queries/instances.ts';
import { hasSucceededRun } from '../db/queries/sync-runs.ts';
import { applyTransitions, readCursor } from '../db/queries/sync-state.ts';
import { listLiveTranslations } from '../db/queries/translation-state.ts';
import { runBackfill } from '../history/backfill.ts';
import { forEachConcurrently, TaskGroup } from '../lib/task-group.ts';
import { fromDate } from '../lib/timestamps.ts';
import { logFailure } from '../logger.ts';
import { IdHints } from '../weblate/id-hints.ts';
import type { SyncContext, SyncDeps, SyncMode, WindowedContext } from './context.ts';
import { discoverFromChanges } from './discovery.ts';
import { languageUrlsOf, loadMirrored, toTranslationRefs } from './mirrored.ts';
import { planRun, readingPlan, runKindOf, type RunPlan, type RunRequest } from './plan.ts';
import type { ProjectRef } from './refs.ts';
import { recordRun, type RunOptions, type RunResult } from './run-record.ts';
import { GLOBAL_CHANGES, projectChanges, syncChanges } from './streams/changes.ts';
import { syncComponents } from './streams/components.ts';
import { syncCategoriesAndLabels } from './streams/labels.ts';
import { syncLanguages } from './streams/languages.ts';
import { syncSubscriptions } from './streams/notifications.ts';
import { syncProjects } from './streams/projects.ts';
import {
  snapshotTranslations,
  syncLanguageStatistics,
  syncStatistics,
} from './streams/statistics.ts';
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
  // The rest of the state that decides the plan is read inside the run: a cursor this
  // version cannot read fails the run, recorded with its message.
  const result = await recordRun(
    deps,
    { kind, mode, reading: readingPlan(mode) },
    options,
    async (ctx, controller) => {
      const discovery = await readCursor(ctx.db, 'discovery', '');
      const plan = planRun({ hasSucceeded, discovery }, { ...request, now: ctx.now() });
      await executeRun(ctx, controller, plan);
      // The projects this run left live identify the instance apart from its address.
      await refreshFingerprint(ctx.db);
    },
  );
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
    await runBackfill(deps.db, deps.log, deps.limits?.disk ?? null, deps.outage ?? null);
    await refreshPlannerStatistics(deps.db);
  } catch (err) {
    logFailure(
      deps.log,
      err,
      'estimating the progress history failed; the sync is stored: run `weblate-mirror backfill` to try again',
    );
  }
}

/**
 * Runs a plan's steps in order. Discovery's findings (the projects and the languages'
 * statistics URLs) feed the steps after it; nothing else passes between steps.
 */
export async function executeRun(
  run: SyncContext,
  controller: AbortController,
  plan: RunPlan,
): Promise<void> {
  let windowed: WindowedContext | null = null;
  // Windows end at the server time the run knows when the first of them opens, after
  // discovery's answers told it.
  const windows = (): WindowedContext =>
    (windowed ??= { ...run, windowEnd: fromDate(run.client.serverNow()), unitIdHints: null });
  if (plan.discovery === null) {
    for (const step of plan.steps)
      if (step.read === 'statisticsSnapshot') await snapshotMirrored(run);
    return;
  }
  const found = plan.discovery === 'lists' ? await discoverByLists(run) : await loadMirrored(run);
  for (const step of plan.steps) {
    if ('apply' in step) {
      await applyTransitions(run.db, step.apply);
      continue;
    }
    switch (step.read) {
      case 'changesBesideUnits':
        await changesBesideUnits(windows(), controller, found.projects);
        break;
      case 'changes':
        await readChanges(windows(), controller, found.projects, step.projects);
        break;
      case 'discoveryFromChanges':
        await discoverFromChanges(windows(), controller, found.projects, step);
        break;
      case 'units':
        await syncUnits(windows(), { knownStrategy: step.knownStrategy });
        break;
      case 'statistics':
        await syncStatistics(windows(), found.languageUrls, step);
        break;
      case 'users':
        await syncUsers(windows(), controller);
        break;
      case 'subscriptions':
        for (const username of run.scope.users) await syncSubscriptions(run, username);
        break;
    }
  }
}

/** Every live translation the mirror holds in scope, and their languages: the statistics job. */
async function snapshotMirrored(ctx: SyncContext): Promise<void> {
  const live = await listLiveTranslations(ctx.db, ctx.scope.projects);
  const translations = toTranslationRefs(live);
  await snapshotTranslations(ctx, translations, { settlesPending: false });
  await syncLanguageStatistics(ctx, languageUrlsOf(live, translations));
}

/** The change history of the projects named (null: all), or the global feed without a scope. */
function readChanges(
  ctx: WindowedContext,
  controller: AbortController,
  projects: ProjectRef[],
  named: ReadonlySet<string> | null,
): Promise<unknown> {
  if (ctx.scope.projects === null) return syncChanges(ctx, GLOBAL_CHANGES);
  const changed = named === null ? projects : projects.filter((p) => named.has(p.slug));
  return forEachConcurrently(changed, controller, (project) =>
    syncChanges(ctx, projectChanges(project)),
  );
}

/**
 * The two largest reads side by side. While the changes are read the unit walk leaves them
 * one of the client's places, as their requests would queue behind slow unit pages; a walk
 * that meets a gap before the changes have named enough units waits for them.
 */
async function changesBesideUnits(
  ctx: WindowedContext,
  controller: AbortController,
  projects: ProjectRef[],
): Promise<void> {
  const hints = new IdHints();
  const withHints: WindowedContext = { ...ctx, unitIdHints: hints };
  const group = new TaskGroup(controller);
  const changesRead = readChanges(withHints, controller, projects, null);
  group.add(changesRead);
  hints.expectUntil(changesRead, HINTS_BEFORE_A_JUMP);
  const share = { atOnce: ctx.client.concurrency - 1, until: changesRead };
  group.add(syncUnits(withHints, { share }));
  await group.settle();
}

/** Units the change history names before a walk in a gap jumps: a change page's worth. */
const HINTS_BEFORE_A_JUMP = 1_000;

/**
 * The complete discovery lists: languages, projects, components, the projects' categories
 * and labels, translations (also what `sync --dry-run` reads, into a scratch database).
 */
export async function discoverByLists(ctx: SyncContext) {
  const languageUrls = await syncLanguages(ctx);
  const projects = await syncProjects(ctx);
  const components = await syncComponents(ctx, projects);
  await syncCategoriesAndLabels(ctx, projects, { global: ctx.scope.projects === null });
  await syncTranslations(ctx, components);
  return { projects, languageUrls };
}

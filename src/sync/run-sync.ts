import type { DatabaseKind } from '../db/client.ts';
import { cascadeDeletions } from '../db/queries/deletions.ts';
import { hasSucceededRun } from '../db/queries/sync-runs.ts';
import { forEachConcurrently } from '../lib/task-group.ts';
import { fromDate } from '../lib/timestamps.ts';
import type { SyncContext, SyncDeps, SyncMode, WindowedContext } from './context.ts';
import { recordRun, type RunOptions, type RunResult } from './run-record.ts';
import { syncProjectChanges } from './streams/changes.ts';
import { syncComponents } from './streams/components.ts';
import { syncLanguages } from './streams/languages.ts';
import { syncSubscriptions } from './streams/notifications.ts';
import { syncProjects } from './streams/projects.ts';
import { syncStatistics } from './streams/statistics.ts';
import { syncTranslations } from './streams/translations.ts';
import { syncUnits } from './streams/units.ts';

/** Whether page commits are worth overlapping on a database of this kind (see SyncContext). */
export function overlapsCommits(kind: DatabaseKind): boolean {
  return kind === 'postgres';
}

export type { SyncDeps } from './context.ts';

export interface SyncOptions extends RunOptions {
  /** Read every list completely and mark what vanished (`sync --full`); otherwise automatic. */
  full?: boolean;
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
  const mode: SyncMode =
    options.full === true || !(await hasSucceededRun(deps.db)) ? 'full' : 'incremental';
  const result = await recordRun(deps, { kind: mode, mode }, options, syncEverything);
  return { ...result, mode };
}

/**
 * The stages, in dependency order: discovery (languages, projects, components, translations;
 * complete lists mark what vanished), change history per project (whose windows end at the
 * server time of the run's first answer), then units, statistics and subscriptions.
 */
async function syncEverything(run: SyncContext, controller: AbortController): Promise<void> {
  const languageUrls = await syncLanguages(run);
  const ctx: WindowedContext = { ...run, windowEnd: fromDate(run.client.serverNow()) };
  const projects = await syncProjects(ctx);
  const components = await syncComponents(ctx, projects);
  await syncTranslations(ctx, components);
  await cascadeDeletions(ctx.db);
  await forEachConcurrently(projects, controller, (project) => syncProjectChanges(ctx, project));
  await syncUnits(ctx);
  await syncStatistics(ctx, languageUrls);
  for (const username of ctx.scope.users) await syncSubscriptions(ctx, username);
}

import type { Kysely } from 'kysely';

import type { DatabaseKind } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import { cascadeDeletions } from '../db/queries/deletions.ts';
import { finishSyncRun, hasSucceededRun, startSyncRun } from '../db/queries/sync-runs.ts';
import { HttpError, ResponseError, SyncError, toError, TransformError } from '../errors.ts';
import { forEachConcurrently } from '../lib/task-group.ts';
import { fromDate } from '../lib/timestamps.ts';
import type { Logger } from '../logger.ts';
import type { WeblateClient } from '../weblate/client.ts';
import { emptyLookup, type SyncContext, type SyncMode, type SyncScope } from './context.ts';
import { unlessGone } from './gone.ts';
import { syncProjectChanges } from './streams/changes.ts';
import { syncComponents } from './streams/components.ts';
import { syncLanguages } from './streams/languages.ts';
import { syncSubscriptions } from './streams/notifications.ts';
import { syncProjects } from './streams/projects.ts';
import { syncStatistics } from './streams/statistics.ts';
import { syncTranslations } from './streams/translations.ts';
import { syncUnits } from './streams/units.ts';
import { buildSummary, type SyncSummary } from './summary.ts';
import { SyncTally } from './tally.ts';

export interface SyncDeps {
  db: Kysely<Database>;
  client: WeblateClient;
  log: Logger;
  scope: SyncScope;
  /** See SyncContext.overlapCommits; false when not given. */
  overlapCommits?: boolean;
}

/** Whether page commits are worth overlapping on a database of this kind (see SyncContext). */
export function overlapsCommits(kind: DatabaseKind): boolean {
  return kind === 'postgres';
}

export interface SyncOptions {
  /** Read every list completely and mark what vanished (`sync --full`); otherwise automatic. */
  full?: boolean;
  /** How far each window reaches back before the previous mark (default 300 s). */
  lookbackSeconds?: number;
  now?: () => Date;
  signal?: AbortSignal;
  /** Receives the tally as soon as the run starts (for a progress display). */
  onStart?: (tally: SyncTally) => void;
}

export interface SyncResult {
  runId: number;
  mode: SyncMode;
  status: 'succeeded' | 'failed';
  error: Error | null;
  summary: SyncSummary;
}

/**
 * One sync, recorded in weblate.sync_runs: full the first time (and with `full`), then
 * incremental. Never throws for a failed sync: the result says what happened, and what was
 * committed before a failure stays (the next run resumes from the cursors).
 */
export async function runSync(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncResult> {
  const started = Date.now();
  const mode: SyncMode =
    options.full === true || !(await hasSucceededRun(deps.db)) ? 'full' : 'incremental';
  const runId = await startSyncRun(deps.db, { kind: mode, weblateUrl: deps.client.apiRoot.href });
  const log = deps.log.child({ runId, mode });
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const tally = new SyncTally();
  options.onStart?.(tally);
  const ctx: SyncContext = {
    ...deps,
    log,
    runId,
    tally,
    mode,
    signal: controller.signal,
    now: options.now ?? (() => new Date()),
    windowEnd: '',
    lookbackSeconds: options.lookbackSeconds ?? 300,
    lookup: emptyLookup(),
    overlapCommits: deps.overlapCommits ?? false,
  };
  log.info(
    { weblate: deps.client.apiRoot.href, projects: deps.scope.projects ?? 'all' },
    'sync started',
  );
  let error: Error | null = null;
  try {
    await syncEverything(ctx, controller);
  } catch (err) {
    error = toError(err);
    if (options.signal?.aborted) {
      error = new SyncError(`interrupted by ${toError(options.signal.reason).message}`, {
        cause: error,
      });
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  return finish(ctx, { started, error });
}

async function finish(
  ctx: SyncContext,
  outcome: { started: number; error: Error | null },
): Promise<SyncResult> {
  const { error } = outcome;
  const summary = buildSummary(ctx.tally, ctx.client.stats, Date.now() - outcome.started, ctx.mode);
  const status = error === null ? 'succeeded' : 'failed';
  await finishSyncRun(ctx.db, ctx.runId, {
    status,
    requests: summary.requests,
    rowsWritten: summary.rowsWritten,
    rejected: summary.rejected,
    error: error?.message ?? null,
    summary,
  });
  const counts = {
    requests: summary.requests,
    rows: summary.rowsWritten,
    rejected: summary.rejected,
  };
  if (error === null) ctx.log.info({ ...counts, ms: summary.durationMs }, 'sync succeeded');
  else ctx.log.error({ ...describeFailure(error), ...counts }, 'sync failed');
  return { runId: ctx.runId, mode: ctx.mode, status, error, summary };
}

/**
 * Failures the mirror raises on purpose (a server answer, a bad record, a setting) are
 * logged by message; anything else is a bug and keeps its stack for the report.
 */
function describeFailure(error: Error): Record<string, unknown> {
  const expected = [HttpError, ResponseError, TransformError, SyncError].some(
    (type) => error instanceof type,
  );
  return expected ? { error: error.message } : { err: error };
}

/**
 * The stages, in dependency order: discovery (languages, projects, components, translations;
 * complete lists mark what vanished), change history per project (whose windows end at the
 * server time of the run's first answer), then units, statistics and subscriptions.
 */
async function syncEverything(ctx: SyncContext, controller: AbortController): Promise<void> {
  const languageUrls = await syncLanguages(ctx);
  ctx.windowEnd = fromDate(ctx.client.serverNow());
  const projects = await syncProjects(ctx);
  const components = await syncComponents(ctx, projects);
  await syncTranslations(ctx, components);
  await cascadeDeletions(ctx.db);
  await forEachConcurrently(projects, controller, (project) =>
    unlessGone(ctx, { table: 'projects', id: project.id, label: `project ${project.slug}` }, () =>
      syncProjectChanges(ctx, project),
    ),
  );
  await syncUnits(ctx);
  await syncStatistics(ctx, languageUrls);
  for (const username of ctx.scope.users) await syncSubscriptions(ctx, username);
}

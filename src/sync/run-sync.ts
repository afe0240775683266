import type { Kysely } from 'kysely';
import pLimit from 'p-limit';

import type { Database } from '../db/database.ts';
import { finishSyncRun, startSyncRun } from '../db/queries/sync-runs.ts';
import { HttpError, ResponseError, SyncError, toError, TransformError } from '../errors.ts';
import { forEachConcurrently, TaskGroup } from '../lib/task-group.ts';
import type { Logger } from '../logger.ts';
import type { WeblateClient } from '../weblate/client.ts';
import { urlKey } from '../weblate/urls.ts';
import type { SyncContext, SyncScope } from './context.ts';
import { type ChangeLookup, syncProjectChanges } from './streams/changes.ts';
import { syncComponents } from './streams/components.ts';
import { syncLanguages } from './streams/languages.ts';
import { syncSubscriptions } from './streams/notifications.ts';
import { syncProjects } from './streams/projects.ts';
import { syncLanguageStatistics, syncTranslationStatistics } from './streams/statistics.ts';
import {
  listTranslations,
  slicePages,
  syncTranslation,
  type TranslationRef,
} from './streams/translations.ts';
import { syncUnits } from './streams/units.ts';
import { buildSummary, type SyncSummary } from './summary.ts';
import { SyncTally } from './tally.ts';

export interface SyncDeps {
  db: Kysely<Database>;
  client: WeblateClient;
  log: Logger;
  scope: SyncScope;
}

export interface SyncOptions {
  now?: () => Date;
  signal?: AbortSignal;
  /** Receives the tally as soon as the run starts (for a progress display). */
  onStart?: (tally: SyncTally) => void;
}

export interface SyncResult {
  runId: number;
  status: 'succeeded' | 'failed';
  error: Error | null;
  summary: SyncSummary;
}

/**
 * One full sync of everything in scope, recorded in weblate.sync_runs. Never throws for a
 * failed sync: the result says what happened (what was committed before a failure stays).
 */
export async function runSync(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncResult> {
  const started = Date.now();
  const runId = await startSyncRun(deps.db, { kind: 'full', weblateUrl: deps.client.apiRoot.href });
  const log = deps.log.child({ runId });
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
    signal: controller.signal,
    now: options.now ?? (() => new Date()),
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
      const reason = toError(options.signal.reason).message;
      error = new SyncError(`interrupted by ${reason}`, { cause: error });
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  const summary = buildSummary(tally, deps.client.stats, Date.now() - started);
  const status = error === null ? 'succeeded' : 'failed';
  await finishSyncRun(deps.db, runId, {
    status,
    requests: summary.requests,
    rowsWritten: summary.rowsWritten,
    error: error?.message ?? null,
    summary,
  });
  if (error === null)
    log.info(
      { requests: summary.requests, rows: summary.rowsWritten, ms: summary.durationMs },
      'sync succeeded',
    );
  else
    log.error(
      { ...describeFailure(error), requests: summary.requests, rows: summary.rowsWritten },
      'sync failed',
    );
  return { runId, status, error, summary };
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

/** Translation slices (detail, units, statistics) in flight at once, per request slot. */
const SLICES_PER_REQUEST_SLOT = 2;

async function syncEverything(ctx: SyncContext, controller: AbortController): Promise<void> {
  const languageStatisticsUrls = await syncLanguages(ctx);
  const projects = await syncProjects(ctx);
  const lookup: ChangeLookup = { translations: new Map(), components: new Map() };
  const languagesInScope = new Map<string, string | null>();
  const slices = pLimit(ctx.client.gate.concurrency * SLICES_PER_REQUEST_SLOT);
  const translationTasks = new TaskGroup(controller);

  await forEachConcurrently(projects, controller, async (project) => {
    const components = await syncComponents(ctx, project);
    await forEachConcurrently(components, controller, async (component) => {
      if (component.url !== null)
        lookup.components.set(urlKey(component.url), { id: component.id, slug: component.slug });
      for (const ref of await listTranslations(ctx, component)) {
        lookup.translations.set(urlKey(ref.url), {
          id: ref.id,
          componentId: component.id,
          componentSlug: component.slug,
          languageCode: ref.languageCode,
        });
        languagesInScope.set(ref.language, languageStatisticsUrls.get(ref.language) ?? null);
        ctx.tally.expectPages(slicePages(ref));
        translationTasks.add(slices(() => syncTranslationSlice(ctx, ref)));
      }
    });
  });
  await translationTasks.settle();
  await forEachConcurrently(projects, controller, (project) =>
    syncProjectChanges(ctx, project, lookup),
  );
  await syncLanguageStatistics(ctx, languagesInScope);
  for (const username of ctx.scope.users) await syncSubscriptions(ctx, username);
}

async function syncTranslationSlice(ctx: SyncContext, ref: TranslationRef): Promise<void> {
  ctx.signal.throwIfAborted();
  const translation = await syncTranslation(ctx, ref);
  await syncUnits(ctx, translation);
  await syncTranslationStatistics(ctx, translation);
}

import type { Kysely } from 'kysely';

import { explainDatabaseError } from '../db/connect-errors.ts';
import type { Database } from '../db/database.ts';
import { isDatabaseLost, type OutageHooks, rideThrough } from '../db/outage.ts';
import { refreshPlannerStatistics } from '../db/planner-statistics.ts';
import { recordLabelStatistics } from '../db/queries/statistics.ts';
import { finishSyncRun, type RunOutcome, startSyncRun } from '../db/queries/sync-runs.ts';
import {
  ConfigError,
  ExplainedError,
  HttpError,
  ResponseError,
  SyncError,
  toError,
  TransformError,
} from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ReadingPlan, SyncContext, SyncDeps, SyncMode } from './context.ts';
import { checkInstance, recordFirstInstance } from './instance.ts';
import { emptyLookup } from './refs.ts';
import { buildSummary, type SyncSummary } from './summary.ts';
import { SyncTally } from './tally.ts';

/** `sync_runs.kind`: a sync (full or incremental), or a statistics snapshot. */
/** What a run was: a sync (`webhook`: driven by webhooks, see TargetedSync) or a statistics snapshot. */
export type RunKind = SyncMode | 'statistics' | 'webhook';

/**
 * `interrupted`: the caller's signal stopped the run (SIGINT/SIGTERM) after the statements
 * in flight; what it committed stays and the next run resumes from the cursors.
 */
export type RunStatus = 'succeeded' | 'failed' | 'interrupted';

export interface RunOptions {
  /** How far each window reaches back before the previous mark (default 300 s). */
  lookbackSeconds?: number;
  now?: () => Date;
  signal?: AbortSignal;
  /** Receives the tally as soon as the run starts (for a progress display). */
  onStart?: (tally: SyncTally) => void;
}

export interface RunResult {
  runId: number;
  kind: RunKind;
  /** The API root of the instance the run mirrored; null when its check refused it. */
  instance: string | null;
  status: RunStatus;
  error: Error | null;
  summary: SyncSummary;
}

/** The stages of a run, given its context and the controller that stops them all. */
export type RunBody = (ctx: SyncContext, controller: AbortController) => Promise<void>;

/**
 * Runs `body` as one run recorded in weblate.sync_runs (started, then finished with its
 * status, counts and summary), once the instance check allows it (instance.ts): a run
 * against another instance than the database's fails before it reads anything. Never throws
 * for a failed body: the result says what happened. The stages read `run.reading` as
 * `ctx.reading`.
 */
export async function recordRun(
  deps: SyncDeps,
  run: { kind: RunKind; mode: SyncMode; reading: ReadingPlan },
  options: RunOptions,
  body: RunBody,
): Promise<RunResult> {
  const started = Date.now();
  const location = deps.databaseLocation ?? "the mirror's database";
  const clientWarnings = deps.client.warnings.length;
  const runId = await startSyncRun(deps.db, {
    kind: run.kind,
    weblateUrl: deps.client.apiRoot.href,
  });
  const log = deps.log.child({ runId, mode: run.mode, kind: run.kind });
  // One controller per attempt: a failed one aborted its own (TaskGroup).
  let controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const tally = new SyncTally();
  options.onStart?.(tally);
  const ctx: SyncContext = {
    ...deps,
    log,
    runId,
    tally,
    reading: run.reading,
    signal: controller.signal,
    now: options.now ?? (() => new Date()),
    warn(event, message, fields = {}) {
      tally.warn(message);
      log.warn({ ...fields, warning: message }, event);
    },
    lookbackSeconds: options.lookbackSeconds ?? 300,
    lookup: emptyLookup(),
    overlapCommits: deps.overlapCommits ?? false,
    copy: deps.copy ?? null,
    limits: deps.limits ?? null,
    outage: deps.outage ?? null,
  };
  log.info(
    { weblate: deps.client.apiRoot.href, projects: deps.scope.projects ?? 'all' },
    'sync started',
  );
  let error: Error | null = null;
  let status: RunStatus = 'succeeded';
  let instance: string | null = null;
  let isRecorded = true;
  try {
    ({ apiRoot: instance, isRecorded } = await checkInstance(ctx));
    await rideThrough(
      deps.db,
      ctx.outage,
      () => {
        if (controller.signal.aborted) controller = new AbortController();
        return body({ ...ctx, signal: controller.signal }, controller);
      },
      outageHooks(ctx, options.signal),
    );
  } catch (err) {
    error = explainDatabaseError(err, location);
    status = 'failed';
    if (options.signal?.aborted) {
      status = 'interrupted';
      error = new SyncError(`interrupted by ${toError(options.signal.reason).message}`, {
        cause: error,
      });
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (instance !== null && !isRecorded && tally.rowsWritten > 0) await recordFirst(ctx, instance);
  // What the client noticed about the server (e.g. http links), and logged then, goes into
  // this run's summary too.
  for (const warning of deps.client.warnings.slice(clientWarnings)) tally.warn(warning);
  return finish(ctx, { kind: run.kind, instance, started, status, error, location });
}

/** What a run says while it waits for its database, and once it is back. */
function outageHooks(ctx: SyncContext, signal: AbortSignal | undefined): OutageHooks {
  return {
    signal,
    onLost: (error) =>
      ctx.log.info({ error: error.message }, 'lost the database; waiting for it to answer again'),
    onBack: (away) =>
      ctx.warn(
        'database back',
        `the database was away for ${away}; the run went on from its last committed page`,
        { away },
      ),
  };
}

/**
 * The first sync records its instance once it wrote something. A failure to does not fail
 * the run: the next sync adopts the address this one read (instance.ts).
 */
async function recordFirst(ctx: SyncContext, instance: string): Promise<void> {
  try {
    await recordFirstInstance(ctx, instance);
  } catch (err) {
    ctx.warn('instance not recorded', `instance not recorded: ${toError(err).message}`);
  }
}

async function finish(
  ctx: SyncContext,
  outcome: {
    kind: RunKind;
    instance: string | null;
    started: number;
    status: RunStatus;
    error: Error | null;
    location: string;
  },
): Promise<RunResult> {
  const { error, status } = outcome;
  await recordLabelHistory(ctx);
  await analyzeAfterRun(ctx);
  const summary = buildSummary(
    ctx.tally,
    ctx.client.stats,
    Date.now() - outcome.started,
    outcome.kind,
  );
  const ending: RunOutcome = {
    status,
    requests: summary.requests,
    rowsWritten: summary.rowsWritten,
    rejected: summary.rejected,
    error: error?.message ?? null,
    summary,
  };
  let recordError: Error | null = null;
  try {
    await rideThrough(ctx.db, ctx.outage, () => finishSyncRun(ctx.db, ctx.runId, ending), {
      onLost: (lost) =>
        ctx.log.info({ error: lost.message }, 'lost the database; waiting to record its end'),
      onBack: (away) =>
        ctx.log.warn({ away }, 'the database was away as the run ended; its end is recorded'),
    });
  } catch (err) {
    // The first cause stays the run's error. The next run of this process records this
    // end as it was (recordLateEnds); another process's run closes the row as abandoned.
    recordError = explainDatabaseError(err, outcome.location);
    lateEnds(ctx.db).set(ctx.runId, {
      ...ending,
      status: 'failed',
      error: `${error?.message ?? 'succeeded'}; its end recorded late: ${recordError.message}`,
    });
    retryLateEnds(ctx.db, ctx.log);
  }
  const ended = { runId: ctx.runId, kind: outcome.kind, instance: outcome.instance };
  const counts = {
    requests: summary.requests,
    rows: summary.rowsWritten,
    rejected: summary.rejected,
  };
  if (recordError !== null) {
    ctx.log.error(
      { error: error?.message ?? null, recording: recordError.message, ...counts },
      'sync ended, but its end could not be recorded',
    );
    const cause = error ?? new SyncError(`its end could not be recorded: ${recordError.message}`);
    return { ...ended, status: 'failed', error: cause, summary };
  }
  if (error === null) ctx.log.info({ ...counts, ms: summary.durationMs }, 'sync succeeded');
  else if (status === 'interrupted')
    ctx.log.warn({ error: error.message, ...counts }, 'sync interrupted');
  else {
    ctx.log.error({ error: error.message, ...counts }, 'sync failed');
    logStack(ctx, error);
  }
  return { ...ended, status, error, summary };
}

/** Ends this process could not record, by database, until a later run records them. */
const unrecorded = new WeakMap<Kysely<Database>, Map<number, RunOutcome>>();

function lateEnds(db: Kysely<Database>): Map<number, RunOutcome> {
  let ends = unrecorded.get(db);
  if (ends === undefined) unrecorded.set(db, (ends = new Map<number, RunOutcome>()));
  return ends;
}

/** Databases whose late ends a timer of retryLateEnds is after. */
const retrying = new WeakSet<Kysely<Database>>();

const LONGEST_RETRY_MS = 30_000;

/**
 * Records late ends as soon as the database answers again, not only when this process's
 * next run begins: a worker may wait an hour for it. The timer holds no process open; a
 * command records what is left as it exits (recordLateEnds in cli/runtime.ts).
 */
function retryLateEnds(db: Kysely<Database>, log: Logger, wait = 1_000): void {
  if (retrying.has(db)) return;
  retrying.add(db);
  setTimeout(() => {
    recordLateEnds(db).then(
      (runs) => {
        retrying.delete(db);
        if (runs.length > 0) log.warn({ runs }, 'ends of runs recorded once the database answered');
        if (lateEnds(db).size > 0) retryLateEnds(db, log);
      },
      (err: unknown) => {
        retrying.delete(db);
        // A database closed for good (the command ended) is not waited for.
        if (isDatabaseLost(err)) retryLateEnds(db, log, Math.min(wait * 2, LONGEST_RETRY_MS));
      },
    );
  }, wait).unref();
}

/**
 * Records the ends of this process's runs that could not be recorded when they ended, as
 * they were: only rows of this process's own runs are written, so no lock is needed.
 * Returns the runs recorded.
 */
export async function recordLateEnds(db: Kysely<Database>): Promise<number[]> {
  const recorded: number[] = [];
  for (const [runId, ending] of lateEnds(db)) {
    await finishSyncRun(db, runId, ending);
    lateEnds(db).delete(runId);
    recorded.push(runId);
  }
  return recorded;
}

/**
 * Failures the mirror raises on purpose (a server answer, a bad record, a setting, a lost
 * database) say everything in their message; anything else is a bug, whose stack goes to
 * the debug level only: log lines at the default level carry messages, never stacks or a
 * statement's parameters.
 */
function logStack(ctx: SyncContext, error: Error): void {
  const expected = [
    HttpError,
    ResponseError,
    TransformError,
    SyncError,
    ExplainedError,
    ConfigError,
  ].some((type) => error instanceof type);
  if (!expected) ctx.log.debug({ stack: error.stack }, 'sync failure stack');
}

/**
 * Label history, from the units this run wrote (and any an earlier run left due). A
 * failure here costs no mirrored row: what is due stays due for the next run.
 */
/** Planner statistics for what the run grew; a failure leaves the old ones and fails nothing. */
async function analyzeAfterRun(ctx: SyncContext): Promise<void> {
  const started = Date.now();
  try {
    const tables = await refreshPlannerStatistics(ctx.db, ctx.tally.rowsByTable);
    if (tables.length > 0)
      ctx.log.debug({ tables, ms: Date.now() - started }, 'planner statistics refreshed');
  } catch (err) {
    ctx.warn(
      'planner statistics not refreshed',
      `planner statistics not refreshed (ANALYZE failed: ${toError(err).message}); answers may read slowly until the next run`,
    );
  }
}

async function recordLabelHistory(ctx: SyncContext): Promise<void> {
  try {
    const recorded = await recordLabelStatistics(ctx.db, ctx.runId);
    if (recorded > 0) ctx.log.debug({ recorded }, 'label history recorded');
  } catch (err) {
    ctx.warn('label history not recorded', `label history not recorded: ${toError(err).message}`);
  }
}

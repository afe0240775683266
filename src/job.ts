import type { CronVariable } from './config.ts';
import type { SyncDeps } from './sync/context.ts';
import type { RunResult, RunStatus } from './sync/run-record.ts';

/*
 * What a job is and what running one reports: shared by the worker, which schedules jobs,
 * and the webhook receiver, whose batches run as jobs too.
 */

/** What a job's run receives. */
export interface JobContext {
  /** The database, a Weblate client of this run's own, a logger naming the job, the scope. */
  deps: SyncDeps;
  /** Aborted by SIGINT/SIGTERM: the run stops after the work in flight, recorded `interrupted`. */
  signal: AbortSignal;
  lookbackSeconds: number;
  discoveryIntervalSeconds: number;
}

/**
 * A scheduled job, declared in `jobs/<name>.ts`: what it is called, when it runs by default
 * and which variable changes that, and the call into src/ that does the work (recorded in
 * weblate.sync_runs, never throwing for a failed run).
 */
export interface JobDefinition {
  /** Lower-case name, as in `weblate-mirror run <name>`, logs and metrics. */
  name: string;
  /** One line for --help and the README. */
  description: string;
  /** node-cron expression used when `cronVariable` is unset. */
  defaultCron: string;
  cronVariable: CronVariable;
  run(ctx: JobContext): Promise<RunResult>;
}

/** What the job runner needs of a job: scheduled ones, and the syncs webhooks start. */
export type RunnableJob = Pick<JobDefinition, 'name' | 'run'>;

export const SKIP_REASONS = ['overlap', 'locked', 'stopping'] as const;
/** Why a run did not start: its job was running, another process held it, or shutdown began. */
export type SkipReason = (typeof SKIP_REASONS)[number];

export type JobRunReport =
  | { job: string; status: RunStatus; result: RunResult }
  /** The run did not start (see SkipReason). */
  | { job: string; status: 'skipped'; reason: SkipReason }
  /** The run could not start or could not be recorded (the database failed). */
  | { job: string; status: 'failed'; result: null; error: Error };

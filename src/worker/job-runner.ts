import type { Config } from '../config.ts';
import { withLockSession } from '../db/advisory-lock.ts';
import type { DbHandle } from '../db/client.ts';
import { explainDatabaseError } from '../db/connect-errors.ts';
import type { JobRunReport, RunnableJob } from '../job.ts';
import { logFailure, type Logger } from '../logger.ts';
import type { SyncDeps } from '../sync/context.ts';
import { configuredRun, withWriter } from '../sync/write-session.ts';
import type { WorkerMetrics } from './metrics.ts';

/** The writer lock every job takes after its own (see sync/write-session.ts). */
export { WRITER_LOCK } from '../sync/write-session.ts';

/** Name of the lock that keeps two runs of one job apart. */
export function jobLockName(job: string): string {
  return `job:${job}`;
}

export interface JobRunnerOptions {
  handle: DbHandle;
  config: Config;
  log: Logger;
  /** Aborted at shutdown: runs stop after the work in flight and end `interrupted`. */
  signal: AbortSignal;
  metrics?: WorkerMetrics | null;
  /** How often a job waiting for the writer lock tries again (default 1 s). */
  lockPollMs?: number;
}

/**
 * Runs jobs under their locks (see advisory-lock.ts): a job whose lock another run holds, in
 * this process or another, is skipped; then it waits for the writer lock. Each run gets a
 * Weblate client of its own (its request counts are the run's summary). Never throws.
 */
export class JobRunner {
  readonly #options: JobRunnerOptions;
  readonly #inFlight = new Set<Promise<JobRunReport>>();

  constructor(options: JobRunnerOptions) {
    this.#options = options;
  }

  /** Runs `job` once, unless it is running elsewhere or shutdown began; says what happened. */
  run(job: RunnableJob): Promise<JobRunReport> {
    const running = this.#run(job);
    this.#inFlight.add(running);
    void running.finally(() => this.#inFlight.delete(running));
    return running;
  }

  /** Whether a run is in flight. */
  get busy(): boolean {
    return this.#inFlight.size > 0;
  }

  /** Resolves when every run in flight has ended (and released its locks). */
  async settle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #run(job: RunnableJob): Promise<JobRunReport> {
    const { handle, signal, metrics } = this.#options;
    const log = this.#options.log.child({ job: job.name });
    const started = Date.now();
    let report: JobRunReport;
    try {
      report = signal.aborted
        ? { job: job.name, status: 'skipped', reason: 'stopping' }
        : await withLockSession(handle, async (session) => {
            if (!(await session.tryLock(jobLockName(job.name)))) {
              return { job: job.name, status: 'skipped', reason: 'locked' } as const;
            }
            let started = false;
            try {
              const onResponse = metrics
                ? ({ status }: { status: number }) => metrics.observeResponse(status)
                : undefined;
              return await withWriter(
                session,
                handle,
                configuredRun(this.#options.config, log, { onResponse }),
                {
                  signal,
                  pollMs: this.#options.lockPollMs,
                  onWait: () => log.info('waiting for another job that writes the mirror'),
                  onClient: (client) => metrics?.watchGate(client.gate),
                },
                async (deps) => {
                  started = true;
                  log.info('job started');
                  return this.#execute(job, deps);
                },
              );
            } catch (err) {
              // Stopped while it waited for the writer lock: it never started.
              if (signal.aborted && !started)
                return { job: job.name, status: 'skipped', reason: 'stopping' } as const;
              throw err;
            }
          });
    } catch (err) {
      report = {
        job: job.name,
        status: 'failed',
        result: null,
        error: explainDatabaseError(err, handle.location),
      };
    }
    this.#report(report, log, Date.now() - started);
    if (report.status === 'skipped') metrics?.recordSkip(job.name, report.reason);
    else metrics?.recordRun(job.name, report.result, new Date());
    return report;
  }

  async #execute(job: RunnableJob, deps: SyncDeps): Promise<JobRunReport> {
    const { config, signal } = this.#options;
    const result = await job.run({
      deps,
      signal,
      lookbackSeconds: config.lookbackSeconds,
      discoveryIntervalSeconds: config.discoveryIntervalSeconds,
    });
    return { job: job.name, status: result.status, result };
  }

  #report(report: JobRunReport, log: Logger, ms: number): void {
    if (report.status === 'skipped') {
      if (report.reason === 'locked')
        log.info({ reason: report.reason }, 'job skipped: its lock is held by another run');
      else log.info({ reason: report.reason }, 'job skipped: shutting down');
      return;
    }
    if (report.result === null) {
      logFailure(log, report.error, 'job could not run', { ms });
      return;
    }
    const { runId, kind, status } = report.result;
    const fields = { runId, kind, status, ms };
    if (status === 'failed') log.error(fields, 'job finished');
    else if (status === 'interrupted') log.warn(fields, 'job finished');
    else log.info(fields, 'job finished');
  }
}

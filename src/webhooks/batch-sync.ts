import type { Kysely } from 'kysely';

import { explainDatabaseError } from '../db/connect-errors.ts';
import type { Database } from '../db/database.ts';
import { hasSucceededRun } from '../db/queries/sync-runs.ts';
import type { JobRunReport, RunnableJob } from '../job.ts';
import { logFailure, type Logger } from '../logger.ts';
import { runSync } from '../sync/run-sync.ts';
import { UnitStrategyMemo } from '../sync/streams/unit-strategy.ts';
import type { Batch, BatchOutcome } from './coalescer.ts';

/** The name of the syncs webhooks start, in logs, metrics and locks (`job:webhook`). */
export const WEBHOOK_JOB = 'webhook';

export interface BatchSyncOptions {
  db: Kysely<Database>;
  /** Where the mirror is (DbHandle.location), named when its database fails. */
  location: string;
  log: Logger;
  /** Runs a job under its lock and the writer lock (JobRunner.run). */
  run(job: RunnableJob): Promise<JobRunReport>;
  /** How long the unit strategy learned by one sync serves the next (default an hour). */
  strategyMaxAgeMs?: number;
}

/**
 * The sync of one batch of webhook events: a targeted sync (see TargetedSync) run as the
 * job `webhook`, so under the writer lock with the scheduled jobs and never beside another
 * of its own. Before the mirror's first sync has succeeded, a batch starts nothing: that
 * first sync, scheduled, reads everything.
 */
export function batchSync(options: BatchSyncOptions): (batch: Batch) => Promise<BatchOutcome> {
  const unitStrategy = new UnitStrategyMemo(options.strategyMaxAgeMs ?? 3_600_000);
  return async (batch) => {
    let ready: boolean;
    try {
      ready = await hasSucceededRun(options.db);
    } catch (err) {
      // Outside the job runner, which explains its own failures: this read is ours to.
      const error = explainDatabaseError(err, options.location);
      logFailure(options.log, error, 'webhook events could not start a sync');
      return { status: 'failed' };
    }
    if (!ready) {
      options.log.info(
        { events: batch.events },
        'webhook events wait for the first sync, which reads everything',
      );
      return { status: 'skipped', retry: false };
    }
    const job: RunnableJob = {
      name: WEBHOOK_JOB,
      run: (ctx) =>
        runSync(ctx.deps, {
          signal: ctx.signal,
          lookbackSeconds: ctx.lookbackSeconds,
          targeted: { projects: batch.projects, unitStrategy },
        }),
    };
    const report = await options.run(job);
    if (report.status === 'skipped')
      return { status: 'skipped', retry: report.reason !== 'stopping' };
    return { status: report.status === 'succeeded' ? 'succeeded' : 'failed' };
  };
}

import type { JobDefinition } from '../src/job.ts';
import { runStatisticsSnapshot } from '../src/sync/run-statistics.ts';

/** Snapshots the statistics of every translation and language in scope, changed or not. */
export const statisticsJob: JobDefinition = {
  name: 'statistics',
  description: 'statistics snapshot of every translation and language in scope, changed or not',
  defaultCron: '0 * * * *',
  cronVariable: 'WORKER_STATISTICS_CRON',
  run: (ctx) => runStatisticsSnapshot(ctx.deps, { signal: ctx.signal }),
};

import type { JobDefinition } from '../src/job.ts';
import { runSync } from '../src/sync/run-sync.ts';

/** Reads what changed since the last sync (everything, the first time). */
export const syncJob: JobDefinition = {
  name: 'sync',
  description: 'incremental sync: reads what changed since the last sync (full the first time)',
  defaultCron: '*/15 * * * *',
  cronVariable: 'WORKER_SYNC_CRON',
  run: (ctx) =>
    runSync(ctx.deps, {
      signal: ctx.signal,
      lookbackSeconds: ctx.lookbackSeconds,
      discoveryIntervalSeconds: ctx.discoveryIntervalSeconds,
    }),
};

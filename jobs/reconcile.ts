import type { JobDefinition } from '../src/job.ts';
import { runSync } from '../src/sync/run-sync.ts';

/** A full sync: reads every list again and marks what vanished upstream as deleted. */
export const reconcileJob: JobDefinition = {
  name: 'reconcile',
  description: 'full reconcile sweep: reads everything again and marks what vanished as deleted',
  defaultCron: '30 3 * * *',
  cronVariable: 'WORKER_RECONCILE_CRON',
  run: (ctx) =>
    runSync(ctx.deps, { full: true, signal: ctx.signal, lookbackSeconds: ctx.lookbackSeconds }),
};

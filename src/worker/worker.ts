import type { Config } from '../config.ts';
import type { DbHandle } from '../db/client.ts';
import { lastSucceededSyncAt } from '../db/queries/sync-runs.ts';
import { ConfigError } from '../errors.ts';
import type { JobDefinition, RunnableJob } from '../job.ts';
import type { Logger } from '../logger.ts';
import { digestSourceOf } from '../watch/digest/source.ts';
import { loadWatchConfig } from '../watch/rules.ts';
import { startWatch } from '../watch/service.ts';
import { WEBHOOK_JOB } from '../webhooks/batch-sync.ts';
import { startWebhooks } from '../webhooks/start.ts';
import { checkHealth } from './health.ts';
import { startHttpServer } from './http-server.ts';
import { JobRunner } from './job-runner.ts';
import { createMetrics } from './metrics.ts';
import { planSchedule, type SchedulerClock, startScheduler } from './scheduler.ts';

export interface WorkerOptions {
  /** An open, migrated database; the caller closes it after the worker returns. */
  handle: DbHandle;
  config: Config;
  log: Logger;
  /** The first SIGINT/SIGTERM: the worker stops (see runWorker). */
  signal: AbortSignal;
  jobs: readonly JobDefinition[];
  /** How often a job waiting for the writer lock tries again (default 1 s). */
  lockPollMs?: number;
  /** When the jobs' ticks come (default: node-cron on the wall clock; tests bring their own). */
  clock?: SchedulerClock;
}

/**
 * Schedules the jobs and serves /healthz and /metrics (when a port is configured) until
 * `signal` aborts. Then no run starts any more; runs in flight stop after the statements in
 * flight and are recorded `interrupted`; their locks are released; the server closes.
 */
export async function runWorker(options: WorkerOptions): Promise<void> {
  const { handle, config, log, signal } = options;
  const plan = planSchedule(options.jobs, config);
  if (config.webhookSecret !== null && config.httpPort === null) {
    throw new ConfigError([
      'WEBLATE_WEBHOOK_SECRET is set but WORKER_HTTP_PORT is not: webhooks arrive on the HTTP server',
    ]);
  }
  if (plan.length === 0) {
    throw new ConfigError([
      `every job is off (${options.jobs.map((j) => j.cronVariable).join(', ')}): the worker would have nothing to do`,
    ]);
  }
  // Before anything starts: a bad rules file stops the worker with every bad line named.
  const watchConfig = await loadWatchConfig(config.watchRulesFile);
  const metrics = createMetrics({
    jobs: plan.map((p) => p.job.name),
    lastSyncAt: () => lastSucceededSyncAt(handle.db),
  });
  const runner = new JobRunner({
    handle,
    config,
    log,
    signal,
    metrics,
    lockPollMs: options.lockPollMs,
  });
  const watch = startWatch({
    handle,
    config: watchConfig,
    badgesDir: config.badgesDir,
    log: log.child({ job: 'watch' }),
    signal,
    digests: digestSourceOf(handle.db),
    busy: () => runner.busy,
  });
  // The watch looks after every run, before the run counts as ended (so no run overlaps it).
  const run = async (job: RunnableJob) => {
    const report = await runner.run(job);
    await watch.afterRun(report);
    return report;
  };
  const webhooks =
    config.webhookSecret === null
      ? null
      : startWebhooks({
          secret: config.webhookSecret,
          debounceMs: config.webhookDebounceMs,
          db: handle.db,
          location: handle.location,
          log: log.child({ job: WEBHOOK_JOB }),
          registry: metrics.registry,
          run,
        });
  const server =
    config.httpPort === null
      ? null
      : await startHttpServer({
          host: config.httpHost,
          port: config.httpPort,
          health: () => checkHealth(handle.db, { maxAgeSeconds: config.healthMaxAgeSeconds }),
          registry: metrics.registry,
          log,
          webhook: webhooks?.receiver ?? null,
          badges: config.badgesDir === null ? null : { dir: config.badgesDir },
        }).catch(async (err: unknown) => {
          await watch.stop();
          throw err;
        });
  try {
    if (signal.aborted) return;
    const scheduler = startScheduler(plan, {
      timezone: config.timezone,
      log,
      run,
      onOverlap: (job) => metrics.recordSkip(job.name, 'overlap'),
      clock: options.clock,
    });
    // Synchronously, in the abort itself: no tick may start a run after the signal.
    signal.addEventListener('abort', () => scheduler.stop(), { once: true });
    log.info(
      {
        jobs: Object.fromEntries(plan.map((p) => [p.job.name, p.expression])),
        timezone: config.timezone,
        http: server?.url ?? null,
        webhooks: webhooks === null || server === null ? null : `${server.url}webhooks/weblate`,
        watch: {
          rules: watchConfig.rules.length,
          channels: watchConfig.channels.map((c) => c.name),
          file: watchConfig.file,
        },
        database: handle.location,
      },
      'worker started',
    );
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    log.info('worker stopping: no new runs; runs in flight stop after their current statements');
    await webhooks?.coalescer.stop();
    await runner.settle();
    await watch.stop();
  } finally {
    await server?.close();
  }
  log.info('worker stopped');
}

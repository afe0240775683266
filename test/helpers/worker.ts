import { JOBS } from '../../jobs/index.ts';
import { loadConfig } from '../../src/config.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { runWorker } from '../../src/worker/worker.ts';
import { type ManualClock, manualClock } from './clock.ts';
import { captureLogger, parseLogLines } from './logs.ts';
import { waitFor } from './wait.ts';

export interface WorkerRun {
  clock: ManualClock;
  /** What it logged so far, a JSON line each, as the process would on stderr. */
  lines: string[];
  /** Whether runWorker has returned. */
  readonly hasStopped: boolean;
  /** Aborts its signal as the first SIGTERM does; resolves when it has stopped. */
  stop: () => Promise<void>;
}

/**
 * The worker as `weblate-mirror worker` runs it (same jobs, configuration from `env`), in this
 * process on `handle`, with a manual clock: no tick comes until the test moves it. The caller
 * stops it (`stop` may be called more than once).
 */
export function runWorkerInProcess(handle: DbHandle, env: Record<string, string>): WorkerRun {
  const config = loadConfig({ env, envFile: false });
  const { log, lines } = captureLogger('info');
  const controller = new AbortController();
  const clock = manualClock();
  let hasStopped = false;
  const done = runWorker({
    handle,
    config,
    log,
    signal: controller.signal,
    jobs: JOBS,
    clock,
    lockPollMs: 20,
  }).finally(() => (hasStopped = true));
  return {
    clock,
    lines,
    get hasStopped() {
      return hasStopped;
    },
    stop: () => {
      controller.abort(new Error('SIGTERM'));
      return done;
    },
  };
}

/**
 * A worker that takes webhooks signed with `secret` on a free port, with a debounce of
 * 0.5 s: its scheduled sync ticks every 2 s of its manual clock (so only when a test moves
 * it), the other jobs are off.
 */
export function webhookWorkerEnv(secret: string): Record<string, string> {
  return {
    WORKER_SYNC_CRON: '*/2 * * * * *',
    WORKER_STATISTICS_CRON: 'off',
    WORKER_RECONCILE_CRON: 'off',
    WORKER_HTTP_PORT: '0',
    WEBLATE_WEBHOOK_SECRET: secret,
    WEBHOOK_DEBOUNCE_SECONDS: '0.5',
  };
}

/** The fields of the worker's `worker started` line, once it has logged it. */
export function workerStarted(run: WorkerRun): Promise<Record<string, unknown>> {
  return waitFor(
    () => parseLogLines(run.lines.join('\n')).find((l) => l.msg === 'worker started'),
    'the worker to start',
  );
}

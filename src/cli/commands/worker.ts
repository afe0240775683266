import { JOBS } from '../../../jobs/index.ts';
import { CRON_VARIABLES, loadConfig } from '../../config.ts';
import { createLogger } from '../../logger.ts';
import { runWorker } from '../../worker/worker.ts';
import {
  type Command,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
  SYNC_ENVIRONMENT,
  variableOptionHelp,
  WEBLATE_FLAGS,
  WEBLATE_HELP,
  WEBLATE_OPTIONS,
} from '../args.ts';
import { withInterruption } from '../interruption.ts';
import { withDatabase } from '../runtime.ts';

/**
 * How long the worker waits, beyond its shutdown deadline, for another process to release the
 * embedded database: a restarted worker outwaits the old one's deadline, while a second worker
 * on the same folder is told soon that it cannot run.
 */
const EMBEDDED_LOCK_GRACE_MS = 5_000;

const WORKER_FLAGS = {
  ...WEBLATE_FLAGS,
  'http-port': 'WORKER_HTTP_PORT',
  'http-host': 'WORKER_HTTP_HOST',
} as const;

export const workerCommand: Command = {
  name: 'worker',
  description: 'Run the scheduled jobs until stopped, optionally serving /healthz and /metrics.',
  summary:
    'Run the scheduled jobs until SIGTERM or SIGINT (migrates first when needed):\n' +
    JOBS.map((j) => `  ${j.name.padEnd(10)} ${j.defaultCron.padEnd(13)} ${j.description}`).join(
      '\n',
    ) +
    '\nSchedules come from ' +
    JOBS.map((j) => j.cronVariable).join(', ') +
    ' (a cron expression, or "off"),\n' +
    'read in WORKER_TIMEZONE. A run of a job never overlaps another run of it, in this process or in\n' +
    'any other sharing the PostgreSQL database: that tick is skipped. With --http-port, serves /healthz and\n' +
    '/metrics. SIGTERM/SIGINT stops scheduling, lets the statements in flight finish, records the run as\n' +
    'interrupted and exits 0 within WORKER_SHUTDOWN_TIMEOUT_SECONDS; a second signal exits at once.',
  usage: 'worker [options]',
  options: {
    ...DATABASE_OPTIONS,
    ...WEBLATE_OPTIONS,
    'http-port': { type: 'string' },
    'http-host': { type: 'string' },
  },
  optionHelp: [
    variableOptionHelp('--http-port <port>', 'WORKER_HTTP_PORT'),
    variableOptionHelp('--http-host <addr>', 'WORKER_HTTP_HOST'),
    ...WEBLATE_HELP,
    ...DATABASE_HELP,
  ],
  environment: [
    ...SYNC_ENVIRONMENT,
    ...CRON_VARIABLES,
    'WORKER_TIMEZONE',
    'WORKER_HEALTH_MAX_AGE_SECONDS',
    'WORKER_SHUTDOWN_TIMEOUT_SECONDS',
    'WEBLATE_WEBHOOK_SECRET',
    'WEBHOOK_DEBOUNCE_SECONDS',
    'WATCH_RULES_FILE',
    'BADGES_DIR',
  ],
  async run(values) {
    const config = loadConfig({
      overrides: flagOverrides(values, WORKER_FLAGS),
      required: ['WEBLATE_URL'],
    });
    const log = createLogger({ level: config.logLevel });
    await withInterruption(
      log,
      (signal) =>
        withDatabase(
          config,
          log,
          { mode: 'migrate', lockWaitMs: config.shutdownTimeoutMs + EMBEDDED_LOCK_GRACE_MS },
          (handle) => runWorker({ handle, config, log, signal, jobs: JOBS }),
        ),
      { deadlineMs: config.shutdownTimeoutMs },
    );
    return 0;
  },
};

import { JOBS } from '../../../jobs/index.ts';
import { loadConfig } from '../../config.ts';
import { UsageError } from '../../errors.ts';
import { createLogger } from '../../logger.ts';
import { JobRunner } from '../../worker/job-runner.ts';
import {
  type Command,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
  SYNC_ENVIRONMENT,
  WEBLATE_FLAGS,
  WEBLATE_HELP,
  WEBLATE_OPTIONS,
} from '../args.ts';
import { withInterruption } from '../interruption.ts';
import { print, printError, withDatabase } from '../runtime.ts';
import { exitCodeOf, printResult } from './sync.ts';

export const runJobCommand: Command = {
  name: 'run',
  description: 'Run one job of the worker once and exit, for cron, CronJobs and CI.',
  summary:
    'Run one job of the worker once and exit, for system cron, Kubernetes CronJobs and CI (migrates first\n' +
    'when needed). Jobs:\n' +
    JOBS.map((j) => `  ${j.name.padEnd(10)} ${j.description}`).join('\n') +
    '\nIt takes the same locks as the worker: when a run of the job is already going (here or in a worker),\n' +
    'it says so and exits 0 without running. Exit code 0 when the run succeeded, or was interrupted by\n' +
    'SIGTERM/SIGINT (recorded as interrupted; the next run resumes), 1 when it failed.',
  usage: 'run <job> [options]',
  options: { ...DATABASE_OPTIONS, ...WEBLATE_OPTIONS },
  optionHelp: [...WEBLATE_HELP, ...DATABASE_HELP],
  environment: [...SYNC_ENVIRONMENT, 'WORKER_SHUTDOWN_TIMEOUT_SECONDS'],
  async run(values, positionals) {
    const names = JOBS.map((j) => j.name).join(', ');
    const [name, ...extra] = positionals;
    if (name === undefined) throw new UsageError(`run needs a job name: one of ${names}`);
    if (extra.length > 0) throw new UsageError(`run takes one job, got ${positionals.join(' ')}`);
    const job = JOBS.find((j) => j.name === name);
    if (job === undefined) throw new UsageError(`unknown job "${name}": one of ${names}`);
    const config = loadConfig({
      overrides: flagOverrides(values, WEBLATE_FLAGS),
      required: ['WEBLATE_URL'],
    });
    const log = createLogger({ level: config.logLevel });
    return withInterruption(
      log,
      (signal) =>
        withDatabase(config, log, { mode: 'migrate' }, async (handle) => {
          const report = await new JobRunner({ handle, config, log, signal }).run(job);
          if (report.status === 'skipped') {
            print(
              report.reason === 'locked'
                ? `${job.name}: not run, another run of it is going (its lock is held)`
                : `${job.name}: not run, interrupted before it started`,
            );
            return 0;
          }
          if (report.result === null) {
            printError(`error: ${job.name} could not run: ${report.error.message}`);
            return 1;
          }
          printResult(report.result, handle.location);
          return report.status === 'failed' ? exitCodeOf(report.result) : 0;
        }),
      { deadlineMs: config.shutdownTimeoutMs },
    );
  },
};

import { createTask, type ScheduledTask } from 'node-cron';

import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { JobDefinition } from './job.ts';

export interface ScheduledJob {
  job: JobDefinition;
  /** node-cron expression (5 fields, or 6 with seconds first). */
  expression: string;
}

/**
 * Which jobs run when: each job's variable (see config.ts), else its default; a job whose
 * variable is `off` is left out.
 */
export function planSchedule(
  jobs: readonly JobDefinition[],
  config: Pick<Config, 'cron'>,
): ScheduledJob[] {
  return jobs.flatMap((job) => {
    const configured = config.cron[job.cronVariable];
    if (configured === null) return [];
    return [{ job, expression: configured ?? job.defaultCron }];
  });
}

export interface SchedulerOptions {
  timezone: string;
  log: Logger;
  /** Runs the job; must not throw. */
  run: (job: JobDefinition) => Promise<unknown>;
  /** A tick that found the job's previous run still going (in this process) and was skipped. */
  onOverlap?: (job: JobDefinition) => void;
}

export interface Scheduler {
  /** Stops every task: no new run starts; runs in flight go on. */
  stop(): void;
}

/**
 * One node-cron task per job. `noOverlap` skips a tick while the job's previous run in this
 * process is still going; across processes, the job's lock does the same (see JobRunner).
 */
export function startScheduler(
  plan: readonly ScheduledJob[],
  options: SchedulerOptions,
): Scheduler {
  const tasks: ScheduledTask[] = [];
  for (const { job, expression } of plan) {
    const log = options.log.child({ job: job.name });
    const task = createTask(expression, () => options.run(job), {
      name: job.name,
      timezone: options.timezone,
      noOverlap: true,
      // A tick that fires late (a busy event loop) still runs, rather than being dropped.
      missedExecutionTolerance: 60_000,
      logger: cronLogger(log),
    });
    task.on('execution:overlap', () => {
      log.warn('job skipped: its previous run is still going');
      options.onOverlap?.(job);
    });
    task.on('execution:missed', (context) => {
      log.warn({ at: context.date.toISOString() }, 'tick missed');
    });
    tasks.push(task);
  }
  for (const task of tasks) void task.start();
  return {
    stop() {
      for (const task of tasks) void task.destroy();
    },
  };
}

/**
 * node-cron's own messages, at debug level: what they report (overlaps, missed ticks) is
 * logged above in our own words, and nothing may write to the console.
 */
function cronLogger(log: Logger) {
  return {
    info: (message: string) => log.debug({ cron: message }, 'node-cron'),
    warn: (message: string) => log.debug({ cron: message }, 'node-cron'),
    error: (message: string | Error, err?: Error) =>
      log.error({ err: err ?? message }, 'node-cron error'),
    debug: (message: string | Error) => log.debug({ cron: String(message) }, 'node-cron'),
  };
}

import { createTask } from 'node-cron';

import type { Config } from '../config.ts';
import type { JobDefinition } from '../job.ts';
import { logFailure, type Logger } from '../logger.ts';

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
  /** When ticks come (default cronClock: node-cron on the wall clock). */
  clock?: SchedulerClock;
}

export interface Scheduler {
  /** Stops every task: no new run starts; runs in flight go on. */
  stop(): void;
}

/**
 * What tells the scheduler that a job's time has come: node-cron on the wall clock in the
 * worker, a clock of their own in tests (which then need not wait for real seconds to pass).
 */
export interface SchedulerClock {
  /** Calls `tick` at every time `expression` matches in `timezone`, until the returned stop(). */
  every(
    expression: string,
    options: { name: string; timezone: string; log: Logger },
    tick: () => void,
  ): () => void;
}

/** node-cron's ticks, at the times its expressions match on the system clock. */
export const cronClock: SchedulerClock = {
  every(expression, { name, timezone, log }, tick) {
    const task = createTask(expression, tick, {
      name,
      timezone,
      // A tick that fires late (a busy event loop) still runs, rather than being dropped.
      missedExecutionTolerance: 60_000,
      logger: cronLogger(log),
    });
    task.on('execution:missed', (context) => {
      log.warn({ at: context.date.toISOString() }, 'tick missed');
    });
    void task.start();
    return () => void task.destroy();
  },
};

/**
 * One ticking schedule per job. A tick while the job's previous run in this process is still
 * going is skipped; across processes, the job's lock does the same (see JobRunner).
 */
export function startScheduler(
  plan: readonly ScheduledJob[],
  options: SchedulerOptions,
): Scheduler {
  const clock = options.clock ?? cronClock;
  const stops = plan.map(({ job, expression }) => {
    const log = options.log.child({ job: job.name });
    let isRunning = false;
    const tick = () => {
      if (isRunning) {
        log.warn('job skipped: its previous run is still going');
        options.onOverlap?.(job);
        return;
      }
      isRunning = true;
      const done = () => {
        isRunning = false;
      };
      void options.run(job).then(done, done);
    };
    return clock.every(expression, { name: job.name, timezone: options.timezone, log }, tick);
  });
  return {
    stop() {
      for (const stop of stops) stop();
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
      logFailure(log, err ?? message, 'node-cron error'),
    debug: (message: string | Error) => log.debug({ cron: String(message) }, 'node-cron'),
  };
}

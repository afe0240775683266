import { createTask } from 'node-cron';

import type { SchedulerClock } from '../../src/worker/scheduler.ts';

/** A scheduler clock that a test moves on by hand, instead of waiting for real seconds. */
export interface ManualClock extends SchedulerClock {
  now(): Date;
  /**
   * Moves on by `seconds`, one second at a time, and at each calls the ticks of the
   * expressions that match it, as node-cron would at that time.
   */
  advance(seconds?: number): void;
}

export function manualClock(start = new Date('2026-01-05T00:00:00.000Z')): ManualClock {
  let now = start.getTime();
  const schedules = new Set<{ matches: (date: Date) => boolean; tick: () => void }>();
  return {
    now: () => new Date(now),
    every(expression, { timezone }, tick) {
      // Never started: only its matcher is used, node-cron's own reading of the expression.
      const task = createTask(expression, () => undefined, { timezone });
      const schedule = { matches: (date: Date) => task.match(date), tick };
      schedules.add(schedule);
      return () => {
        schedules.delete(schedule);
        void task.destroy();
      };
    },
    advance(seconds = 1) {
      for (let i = 0; i < seconds; i++) {
        now += 1000;
        const date = new Date(now);
        for (const schedule of [...schedules]) if (schedule.matches(date)) schedule.tick();
      }
    },
  };
}

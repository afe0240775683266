import { validate } from 'node-cron';
import { describe, expect, it } from 'vitest';

import { JOBS } from '../../jobs/index.ts';
import { CRON_VARIABLES } from '../../src/config.ts';
import { planSchedule } from '../../src/worker/scheduler.ts';

describe('jobs/', () => {
  it('declares each job once, with a valid default schedule and a variable of its own', () => {
    expect(JOBS.map((j) => j.name)).toEqual(['sync', 'statistics', 'reconcile']);
    expect(JOBS.map((j) => j.defaultCron)).toEqual(['*/15 * * * *', '0 * * * *', '30 3 * * *']);
    for (const job of JOBS) {
      expect(job.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(validate(job.defaultCron), job.name).toBe(true);
      expect(CRON_VARIABLES).toContain(job.cronVariable);
    }
    expect(new Set(JOBS.map((j) => j.cronVariable)).size).toBe(JOBS.length);
  });

  it('schedules each job by its variable, else by its default, and leaves out those set to off', () => {
    const plan = planSchedule(JOBS, {
      cron: { WORKER_SYNC_CRON: '*/5 * * * *', WORKER_RECONCILE_CRON: null },
    });
    expect(plan.map((p) => [p.job.name, p.expression])).toEqual([
      ['sync', '*/5 * * * *'],
      ['statistics', '0 * * * *'],
    ]);
  });
});

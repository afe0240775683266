import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config.ts';
import type { DbHandle } from '../../src/db/client.ts';
import type { JobDefinition } from '../../src/job.ts';
import type { RunResult } from '../../src/sync/run-record.ts';
import { JobRunner } from '../../src/worker/job-runner.ts';
import { createMetrics } from '../../src/worker/metrics.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';

let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
});

afterAll(async () => {
  await database.drop();
});

/** Nothing is requested: the fake jobs below never use their client. */
const config = loadConfig({ env: { WEBLATE_URL: 'http://127.0.0.1:1/' }, envFile: false });

function result(status: RunResult['status']): RunResult {
  const summary = {
    mode: 'incremental',
    peakRssMb: 0,
    resources: [],
    rejected: 0,
    requests: 0,
    rowsWritten: 0,
    durationMs: 0,
    warnings: [],
  };
  return { runId: 0, kind: 'incremental', instance: null, status, error: null, summary };
}

/** A job whose runs last until the test lets them finish; it notes when each starts and ends. */
function controlledJob(name: string, events: string[]) {
  const releases: Array<() => void> = [];
  const job: JobDefinition = {
    name,
    description: name,
    defaultCron: '* * * * *',
    cronVariable: 'WORKER_SYNC_CRON',
    run: async () => {
      events.push(`${name} start`);
      await new Promise<void>((resolve) => releases.push(resolve));
      events.push(`${name} end`);
      return result('succeeded');
    },
  };
  return { job, releaseAll: () => releases.splice(0).forEach((release) => release()) };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

function runner(signal = new AbortController().signal) {
  const metrics = createMetrics({ jobs: ['a', 'b'], lastSyncAt: () => Promise.resolve(null) });
  const log = captureLogger('info');
  return {
    runner: new JobRunner({ handle, config, log: log.log, signal, metrics, lockPollMs: 10 }),
    metrics,
    lines: log.lines,
  };
}

describe('JobRunner', () => {
  it('skips a job whose run is still going, and runs other jobs one after another', async () => {
    const events: string[] = [];
    const a = controlledJob('a', events);
    const b = controlledJob('b', events);
    const { runner: jobs, lines } = runner();
    const first = jobs.run(a.job);
    await until(() => events.includes('a start'));
    expect(await jobs.run(a.job)).toEqual({ job: 'a', status: 'skipped', reason: 'locked' });
    // b waits for the writer lock that a holds.
    const other = jobs.run(b.job);
    await until(() => lines.some((l) => l.includes('waiting for another job that writes')));
    expect(events).toEqual(['a start']);
    a.releaseAll();
    await until(() => events.includes('b start'));
    b.releaseAll();
    expect((await first).status).toBe('succeeded');
    expect((await other).status).toBe('succeeded');
    expect(events).toEqual(['a start', 'a end', 'b start', 'b end']);
    await jobs.settle();
  });

  it('starts nothing once shutdown began, and stops a job waiting for the writer lock', async () => {
    const events: string[] = [];
    const a = controlledJob('a', events);
    const b = controlledJob('b', events);
    const controller = new AbortController();
    const { runner: jobs, metrics } = runner(controller.signal);
    const running = jobs.run(a.job);
    await until(() => events.includes('a start'));
    const waiting = jobs.run(b.job);
    controller.abort(new Error('SIGTERM'));
    expect(await waiting).toEqual({ job: 'b', status: 'skipped', reason: 'stopping' });
    expect(await jobs.run(b.job)).toEqual({ job: 'b', status: 'skipped', reason: 'stopping' });
    a.releaseAll();
    await running;
    await jobs.settle();
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^weblate_mirror_job_skips_total\{job="b",reason="stopping"\} 2$/m);
    expect(events).toEqual(['a start', 'a end']);
  });

  it('reports a job that throws as failed, logs it and counts it', async () => {
    const { runner: jobs, metrics, lines } = runner();
    const broken: JobDefinition = {
      ...controlledJob('a', []).job,
      run: () => Promise.reject(new Error('database gone')),
    };
    const report = await jobs.run(broken);
    expect(report).toMatchObject({ job: 'a', status: 'failed', result: null });
    expect(lines.some((l) => l.includes('"msg":"job could not run"'))).toBe(true);
    expect(await metrics.registry.metrics()).toMatch(
      /^weblate_mirror_job_runs_total\{job="a",status="failed"\} 1$/m,
    );
    // Its locks were released: the next run goes ahead.
    const ok: JobDefinition = { ...broken, run: () => Promise.resolve(result('succeeded')) };
    expect((await jobs.run(ok)).status).toBe('succeeded');
  });
});

import { afterAll, describe, expect, it } from 'vitest';

import { runJobCommand } from '../../src/cli/commands/run-job.ts';
import { statusCommand } from '../../src/cli/commands/status.ts';
import type { DbHandle } from '../../src/db/client.ts';
import type { SyncRunRow } from '../../src/db/database.ts';
import { countRows } from '../../src/db/queries/status.ts';
import { ABANDONED_RUN } from '../../src/db/queries/sync-runs.ts';
import { startChurn } from '../../src/simulator/churn.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { expectSameAsCleanSync } from '../helpers/clean-sync.ts';
import { databaseEnv, type RunningCli, startCli } from '../helpers/cli.ts';
import type { ManualClock } from '../helpers/clock.ts';
import { type CommandResult, databaseFlags, runCommand } from '../helpers/commands.ts';
import { DATABASE_KIND, type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import { parseLogLines } from '../helpers/logs.ts';
import { subscribedUsers } from '../helpers/sync.ts';
import { runWorkerInProcess } from '../helpers/worker.ts';

/**
 * The worker runs in this process on a clock of the test's own, which moves on a second every
 * TICK_MS: schedules of seconds pass ten times as fast, and nothing waits for a real second.
 * Only what needs a process of its own runs as one: signals, a kill, two workers on one lock,
 * and the embedded database's lock between processes. The commands run after a worker process
 * stopped (`run sync`, `status`) run in this process too: they only read what it left.
 */
const TICK_MS = 100;

const databases = useTestDatabases();
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function database(): Promise<TestDatabase> {
  return databases.create();
}

async function simulator(options: Parameters<typeof startSimulator>[0]): Promise<RunningSimulator> {
  const sim = await startSimulator({
    projects: 1,
    components: 2,
    languages: 3,
    users: 1,
    ...options,
  });
  cleanups.push(() => sim.close());
  return sim;
}

/** Only the jobs given run, on second-level schedules; the others are off. */
function workerEnv(
  db: TestDatabase,
  sim: RunningSimulator,
  cron: { sync?: string; statistics?: string; reconcile?: string },
): Record<string, string> {
  return {
    ...databaseEnv(db),
    WEBLATE_URL: sim.url,
    // The users a clean sync of the simulator mirrors (see syncSimulator).
    WEBLATE_USERS: subscribedUsers(sim).join(','),
    LOG_LEVEL: 'info',
    WORKER_SYNC_CRON: cron.sync ?? 'off',
    WORKER_STATISTICS_CRON: cron.statistics ?? 'off',
    WORKER_RECONCILE_CRON: cron.reconcile ?? 'off',
  };
}

/** `weblate-mirror run sync` in this process, as the CLI runs it (see workerEnv). */
function runSyncCommand(db: TestDatabase, sim: RunningSimulator): Promise<CommandResult> {
  return runCommand(
    runJobCommand,
    { ...databaseFlags(db), url: sim.url, users: subscribedUsers(sim).join(',') },
    ['sync'],
  );
}

/** `weblate-mirror status` in this process. */
function runStatusCommand(db: TestDatabase): Promise<CommandResult> {
  return runCommand(statusCommand, databaseFlags(db));
}

/** `weblate-mirror worker` in a process of its own. */
function startWorker(env: Record<string, string>, args: string[] = []): RunningCli {
  const worker = startCli(['worker', ...args], env, 180_000);
  cleanups.push(async () => {
    if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await worker.done;
  });
  return worker;
}

interface InProcessWorker {
  clock: ManualClock;
  /** What it logged so far, a JSON line each, as the process would on stderr. */
  readonly stderr: string;
  /** Moves its clock on until `pattern` matches what it logged; rejects after `waitMs`. */
  waitForStderr(pattern: RegExp, waitMs?: number): Promise<RegExpExecArray>;
  /** Until `condition` holds, moves its clock on; rejects after `waitMs` or when it stopped. */
  tickUntil(condition: () => boolean, what: () => string, waitMs?: number): Promise<void>;
  /** Aborts its signal as the first SIGTERM does; resolves when it has stopped. */
  stop(): Promise<void>;
}

/**
 * The worker as `weblate-mirror worker` runs it (same jobs, configuration from `env`), in this
 * process on `handle`, with a manual clock: no tick comes until the test moves it.
 */
function startWorkerInProcess(handle: DbHandle, env: Record<string, string>): InProcessWorker {
  const run = runWorkerInProcess(handle, env);
  const { clock, lines, stop } = run;
  cleanups.push(() => stop().catch(() => undefined));
  const stderr = () => `${lines.join('\n')}\n`;
  const tickUntil = async (condition: () => boolean, what: () => string, waitMs = 60_000) => {
    const deadline = Date.now() + waitMs;
    while (!condition()) {
      if (Date.now() > deadline || run.hasStopped)
        throw new Error(`${what()}; logs:\n${stderr().slice(-3000)}`);
      clock.advance();
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
  };
  return {
    clock,
    get stderr() {
      return stderr();
    },
    async waitForStderr(pattern, waitMs) {
      await tickUntil(
        () => pattern.test(stderr()),
        () => `no match of ${String(pattern)}`,
        waitMs,
      );
      return pattern.exec(stderr())!;
    },
    tickUntil,
    stop,
  };
}

/** Finished runs of `job` with `status` that a worker logged. */
function finishedRuns(stderr: string, job: string, status = 'succeeded'): number {
  return parseLogLines(stderr).filter(
    (l) => l.msg === 'job finished' && l.job === job && l.status === status,
  ).length;
}

/** Moves the worker's clock on until it has logged `count` finished runs of `job` with `status`. */
async function waitForRuns(
  worker: InProcessWorker,
  job: string,
  count: number,
  options: { status?: string; waitMs?: number } = {},
): Promise<void> {
  const finished = () => finishedRuns(worker.stderr, job, options.status);
  await worker.tickUntil(
    () => finished() >= count,
    () => `${finished()} of ${count} runs of ${job}`,
    options.waitMs,
  );
}

/** Stops an in-process worker and says whether it stopped as the process would before exit 0. */
async function stopped(worker: InProcessWorker): Promise<boolean> {
  await worker.stop();
  return parseLogLines(worker.stderr).some((l) => l.msg === 'worker stopped');
}

/** Sends SIGTERM and returns the exit code and the time it took to exit. */
async function terminate(worker: RunningCli): Promise<{ code: number | null; ms: number }> {
  const sent = Date.now();
  worker.child.kill('SIGTERM');
  const result = await worker.done;
  return { code: result.code, ms: Date.now() - sent };
}

async function runsOf(handle: DbHandle): Promise<SyncRunRow[]> {
  return handle.db.selectFrom('weblate.sync_runs').selectAll().orderBy('started_at').execute();
}

/** Pairs of runs whose [started_at, finished_at] intervals overlap. */
function overlapping(runs: SyncRunRow[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (const [i, a] of runs.entries()) {
    for (const b of runs.slice(i + 1)) {
      const end = (r: SyncRunRow) => Date.parse(r.finished_at ?? '9999-01-01T00:00:00Z');
      if (Date.parse(b.started_at) < end(a) && Date.parse(a.started_at) < end(b))
        pairs.push([a.id, b.id]);
    }
  }
  return pairs;
}

/** The mirror in `handle` equals a clean full sync of the simulator as it is now. */
function expectMirrorOf(sim: RunningSimulator, handle: DbHandle): Promise<void> {
  return expectSameAsCleanSync(databases, sim, handle.db);
}

describe('weblate-mirror worker', () => {
  it('keeps the mirror up with an instance that keeps changing, one job at a time', async () => {
    const sim = await simulator({ seed: 21, units: 120, changes: 40 });
    const db = await database();
    const handle = await db.migrated();
    const worker = startWorkerInProcess(
      handle,
      workerEnv(db, sim, {
        sync: '*/2 * * * * *',
        statistics: '*/3 * * * * *',
        reconcile: '*/5 * * * * *',
      }),
    );
    // A tick of edits every 0.3 s (real time): the instance changes while the syncs run.
    let churned = 0;
    const churn = startChurn(
      sim.instance,
      sim.mutate,
      { edits: 3, everySeconds: 0.3 },
      () => churned++,
    );
    try {
      await waitForRuns(worker, 'sync', 3);
      await worker.tickUntil(
        () => churned >= 3,
        () => `${churned} of 3 churn ticks`,
      );
    } finally {
      churn.stop();
    }
    // Runs that finish from now on may have started before the churn stopped: wait for two.
    const before = finishedRuns(worker.stderr, 'sync');
    await waitForRuns(worker, 'sync', before + 2);
    await waitForRuns(worker, 'statistics', 1);
    expect(await stopped(worker)).toBe(true);

    const runs = await runsOf(handle);
    expect(new Set(runs.map((r) => r.kind))).toEqual(
      new Set(['full', 'incremental', 'statistics']),
    );
    expect(runs.filter((r) => r.status === 'failed')).toEqual([]);
    // Different jobs do not write at once either: they share the writer lock.
    expect(overlapping(runs)).toEqual([]);
    await expectMirrorOf(sim, handle);
  });

  it('does not start a run of a job while its previous run is still going', async () => {
    // Every request takes 60 ms: a sync (a dozen rounds of requests or more) spans several of
    // its one-second ticks, 100 ms each.
    const sim = await simulator({ seed: 22, units: 100, changes: 30, latencyMs: 60 });
    const db = await database();
    const handle = await db.migrated();
    const worker = startWorkerInProcess(handle, workerEnv(db, sim, { sync: '* * * * * *' }));
    await worker.waitForStderr(/"msg":"job skipped: its previous run is still going"/, 60_000);
    await waitForRuns(worker, 'sync', 1);
    expect(await stopped(worker)).toBe(true);
    const runs = await runsOf(handle);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(overlapping(runs)).toEqual([]);
  });

  it('stops on SIGTERM after the page in flight with the run recorded interrupted, and the next run completes the mirror', async () => {
    const sim = await simulator({
      seed: 23,
      components: 3,
      languages: 4,
      units: 300,
      changes: 60,
    });
    const db = await database();
    const worker = startWorker({
      ...workerEnv(db, sim, { sync: '* * * * * *' }),
      WEBLATE_CONCURRENCY: '1',
      // Three pages of units, so that the walk is stopped halfway.
      WEBLATE_MAX_PAGE_SIZE: '100',
      // Time enough for a busy machine: the deadline itself is test/cli/interruption.test.ts's.
      WORKER_SHUTDOWN_TIMEOUT_SECONDS: '100',
    });
    // Just before the unit walk's first page is served: the sync is in full swing.
    const trigger = sim.at({ match: /^\/api\/units\//, nth: 1 }, () =>
      worker.child.kill('SIGTERM'),
    );
    const result = await worker.done;
    expect(trigger.fired).toBe(true);
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    const logs = parseLogLines(result.stderr);
    expect(logs.some((l) => l.msg === 'worker stopped')).toBe(true);

    const handle = await db.open();
    const [run, ...others] = await runsOf(handle);
    expect(others).toEqual([]);
    expect(run).toMatchObject({
      kind: 'full',
      status: 'interrupted',
      error: 'interrupted by SIGTERM',
    });
    expect(run!.finished_at).not.toBeNull();
    // It stopped after the page in flight, not after the walk.
    const { units } = await countRows(handle.db);
    expect(units).toBeLessThan(sim.instance.units.length);
    await handle.close();

    const next = await runSyncCommand(db, sim);
    expect(next.code, `${String(next.error)}\n${next.stdout}`).toBe(0);
    expect(next.stdout).toMatch(/^full sync run 2 of .*: succeeded$/m);
    await expectMirrorOf(sim, await db.open());
  });

  it('leaves nothing behind when killed outright: the next run takes over and completes the mirror', async () => {
    const sim = await simulator({
      seed: 27,
      components: 3,
      languages: 4,
      units: 300,
      changes: 60,
    });
    const db = await database();
    const worker = startWorker({
      ...workerEnv(db, sim, { sync: '* * * * * *' }),
      WEBLATE_CONCURRENCY: '1',
      // Three pages of units, so that the walk is stopped halfway.
      WEBLATE_MAX_PAGE_SIZE: '100',
    });
    // While page 1 of the unit walk is being written: its job lock and the writer lock are held.
    const trigger = sim.at({ match: /^\/api\/units\//, nth: 2 }, () =>
      worker.child.kill('SIGKILL'),
    );
    const killed = await worker.done;
    expect([trigger.fired, killed.signal]).toEqual([true, 'SIGKILL']);

    // Until a run closes it, `status` tells the killed run from one in progress, once the
    // server has noticed that the killed process's connection is gone (its locks go with it).
    const stopped = / stopped .*its process stopped before recording the end/;
    let status = await runStatusCommand(db);
    for (let tries = 1; tries < 50 && !stopped.test(status.stdout); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await runStatusCommand(db);
    }
    expect(status.code, String(status.error)).toBe(0);
    expect(status.stdout).toMatch(stopped);

    const next = await runSyncCommand(db, sim);
    expect(next.code, `${String(next.error)}\n${next.stdout}`).toBe(0);
    // Not necessarily run 2: the embedded database's recovery after a kill skips ahead in
    // the id sequence (PostgreSQL logs sequence values 32 at a time).
    expect(next.stdout).toMatch(/^full sync run \d+ of .*: succeeded$/m);
    const handle = await db.open();
    const runs = await runsOf(handle);
    // The killed run could not record its end: the next run, holding the writer lock,
    // closed it as failed. Nothing else of it remains.
    expect(runs.map((r) => r.status)).toEqual(['failed', 'succeeded']);
    expect(runs[0]!.error).toContain(ABANDONED_RUN);
    await expectMirrorOf(sim, handle);
  });

  it('serves /healthz and /metrics', async () => {
    const sim = await simulator({ seed: 24, units: 100, changes: 30 });
    const db = await database();
    // As --http-port 0 sets it.
    const worker = startWorkerInProcess(await db.migrated(), {
      ...workerEnv(db, sim, { sync: '*/2 * * * * *' }),
      WORKER_HTTP_PORT: '0',
    });
    const started = await worker.waitForStderr(/"http":"(http:\/\/127\.0\.0\.1:\d+\/)"/, 60_000);
    const url = started[1]!;
    await waitForRuns(worker, 'sync', 1);
    const health = await fetch(new URL('healthz', url));
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok', reason: null });
    const metrics = await (await fetch(new URL('metrics', url))).text();
    for (const name of [
      'weblate_mirror_job_runs_total{job="sync",status="succeeded"}',
      'weblate_mirror_weblate_requests_total{code="200"}',
      'weblate_mirror_rows_written_total{table="units"}',
      'weblate_mirror_rejected_records_total{table="units"}',
      'weblate_mirror_job_last_success_timestamp_seconds{job="sync"}',
      'weblate_mirror_data_freshness_lag_seconds',
      'weblate_mirror_rate_limit_remaining',
    ]) {
      const line = metrics.split('\n').find((l) => l.startsWith(`${name} `));
      expect(line, name).toBeDefined();
    }
    const value = (name: string) =>
      Number(
        metrics
          .split('\n')
          .find((l) => l.startsWith(`${name} `))!
          .split(' ')[1],
      );
    expect(
      value('weblate_mirror_job_runs_total{job="sync",status="succeeded"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(value('weblate_mirror_weblate_requests_total{code="200"}')).toBeGreaterThan(0);
    expect(value('weblate_mirror_rows_written_total{table="units"}')).toBe(
      sim.instance.units.length,
    );
    expect(value('weblate_mirror_data_freshness_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(await stopped(worker)).toBe(true);
  });
});

describe('two workers on one database', () => {
  it.runIf(DATABASE_KIND === 'postgres')(
    'never run the same job at once: the second finds the lock taken and skips the tick',
    async () => {
      const sim = await simulator({ seed: 25, units: 200, changes: 50, latencyMs: 100 });
      const db = await database();
      const env = workerEnv(db, sim, { sync: '* * * * * *' });
      const workers = [startWorker(env), startWorker(env)];
      for (const worker of workers) await worker.waitForStderr(/"msg":"worker started"/, 60_000);
      const skipped = /"job":"sync".*"msg":"job skipped: its lock is held by another run"/;
      const succeeded = () =>
        workers
          .flatMap((w) => parseLogLines(w.output.stderr))
          .filter((l) => l.msg === 'job finished' && l.status === 'succeeded').length;
      const deadline = Date.now() + 60_000;
      while (
        !(workers.some((w) => skipped.test(w.output.stderr)) && succeeded() >= 3) &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 100));
      const results = await Promise.all(workers.map(terminate));
      expect(results.map((r) => r.code)).toEqual([0, 0]);
      expect(workers.some((w) => skipped.test(w.output.stderr))).toBe(true);

      const runs = await runsOf(await db.open());
      expect(runs.length).toBeGreaterThanOrEqual(3);
      expect(runs.filter((r) => r.status === 'running')).toEqual([]);
      expect(overlapping(runs)).toEqual([]);
    },
  );

  it.runIf(DATABASE_KIND === 'pglite')(
    'cannot share the embedded database: the second worker says it is in use and exits',
    async () => {
      const sim = await simulator({ seed: 26, units: 100, changes: 20 });
      const db = await database();
      // A sync once a day: what the second finds is the folder the first holds while it runs,
      // not a run of it (the second waits its shutdown deadline and 5 s for the folder).
      const env = {
        ...workerEnv(db, sim, { sync: '0 0 0 * * *' }),
        WORKER_SHUTDOWN_TIMEOUT_SECONDS: '1',
      };
      const first = startWorker(env);
      await first.waitForStderr(/"msg":"worker started"/, 60_000);
      const second = await startWorker(env).done;
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(
        /the embedded database in .* is in use by another weblate-mirror process \(pid \d+\)/,
      );
      expect((await terminate(first)).code).toBe(0);
    },
  );
});

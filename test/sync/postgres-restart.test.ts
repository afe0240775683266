import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDb, type DbHandle } from '../../src/db/client.ts';
import {
  type RunningSimulator,
  startSimulator,
  type TriggerHandle,
} from '../../src/simulator/index.ts';
import { cleanSyncOnce, expectSameAsCleanSync } from '../helpers/clean-sync.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { parseLogLines } from '../helpers/logs.ts';
import { type OwnCluster, startOwnCluster } from '../helpers/own-cluster.ts';
import { subscribedUsers } from '../helpers/sync.ts';
import { waitFor } from '../helpers/wait.ts';
import { TEST_SECRET } from '../helpers/webhooks.ts';

// PostgreSQL restarted under a sync, on a server of the test's own: the run completes or
// fails in one line that names the database, never crashes or stays running, and the next
// run leaves the mirror equal to a fresh full sync.

const databases = useTestDatabases();
let cluster: OwnCluster;
let sim: RunningSimulator;
const handles: DbHandle[] = [];

beforeAll(async () => {
  cluster = await startOwnCluster();
  sim = await startSimulator({
    seed: 41,
    projects: 2,
    components: 3,
    languages: 3,
    units: 1_200,
    changes: 100,
  });
}, 120_000);

afterAll(async () => {
  for (const handle of handles) await handle.close().catch(() => undefined);
  await sim?.close();
  await cluster?.destroy();
});

function env(database: string): Record<string, string> {
  return {
    DATABASE_URL: cluster.url(database),
    WEBLATE_URL: sim.url,
    WEBLATE_USERS: subscribedUsers(sim).join(','),
    // About 12 pages of units: a restart at the 3rd lands mid-walk.
    WEBLATE_MAX_PAGE_SIZE: '100',
    WEBLATE_CONCURRENCY: '1',
    LOG_LEVEL: 'info',
  };
}

/** The mirror equals a clean full sync of the simulator before the webhook test edits it. */
const sameAsUnedited = cleanSyncOnce(databases, () => sim);

async function runsOf(handle: DbHandle) {
  const { rows } = await sql<{ status: string; error: string | null }>`
    select status, error from weblate.sync_runs order by id`.execute(handle.db);
  return rows;
}

/** What a command must never print, whatever the database did. */
function expectNoCrash(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/Unhandled|uncaught|Aborted\(\)/i);
  // Log lines carry messages: no stack, no error object with a statement's parameters.
  for (const line of parseLogLines(stderr)) {
    expect(line).not.toHaveProperty('err');
    expect(line).not.toHaveProperty('stack');
  }
}

/** The error lines a command said: on stderr, never among its results. */
function errorLines(result: { stdout: string; stderr: string }): string[] {
  expect(result.stdout).not.toMatch(/^error: /m);
  return result.stderr.split('\n').filter((l) => l.startsWith('error: '));
}

/** The one run of a command that rode through an outage: succeeded, and said for how long. */
async function expectRodeThrough(
  result: { code: number | null; stdout: string; stderr: string },
  database: string,
): Promise<void> {
  expectNoCrash(result.stderr);
  expect(result.code, `${result.stdout}\n${result.stderr.slice(-3000)}`).toBe(0);
  const said = `${result.stdout}\n${result.stderr}`;
  expect(said).toMatch(/the database was away for \d+\.\d s; the run went on/);
  const handle = await createDb({ databaseUrl: cluster.url(database), dataDir: '' });
  handles.push(handle);
  // One run, ended where it was: no failed run before a successful one.
  expect((await runsOf(handle)).map((r) => r.status)).toEqual(['succeeded']);
  await sameAsUnedited(handle.db);
}

/** Runs `sync --full` into a new database of the own cluster, `outage` starting at the 3rd unit page. */
async function syncThrough(
  database: string,
  outage: () => Promise<void>,
  settings: Record<string, string> = {},
) {
  await cluster.createDatabase(database);
  // While the units are walked: the outage runs beside the sync.
  let during: Promise<void> = Promise.resolve();
  const trigger = sim.at({ match: /^\/api\/units\//, nth: 3 }, () => {
    during = outage();
  });
  const result = await runCli(['sync', '--full'], { ...env(database), ...settings }, 240_000);
  trigger.cancel();
  expect(trigger.fired).toBe(true);
  await during;
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL restarted under a sync', () => {
  for (const mode of ['fast', 'immediate'] as const) {
    it(`restarted (${mode}): the run waits, goes on and succeeds`, async () => {
      const database = `mirror_${mode}`;
      const result = await syncThrough(database, () => cluster.restart(mode));
      await expectRodeThrough(result, database);
    }, 300_000);
  }

  for (const seconds of [2, 30]) {
    it(`crashed, started again ${seconds} s later: the run waits, goes on and succeeds`, async () => {
      const database = `mirror_crash_${seconds}`;
      const result = await syncThrough(database, async () => {
        await cluster.crash();
        await sleep(seconds * 1000);
        await cluster.start();
      });
      await expectRodeThrough(result, database);
    }, 300_000);
  }

  it('away past DATABASE_RETRY_SECONDS: the run fails with the first cause, its row closed', async () => {
    const database = 'mirror_long_outage';
    let sync: ReturnType<typeof startCli> | null = null;
    let down: Promise<void> = Promise.resolve();
    await cluster.createDatabase(database);
    const trigger = sim.at({ match: /^\/api\/units\//, nth: 3 }, () => {
      down = cluster.crash();
    });
    sync = startCli(['sync', '--full'], { ...env(database), DATABASE_RETRY_SECONDS: '5' }, 240_000);
    // The database comes back only once the run gave up on it and waits to record its end.
    await sync.waitForStderr(/waiting to record its end/, 120_000);
    await down;
    await cluster.start();
    const result = await sync.done;
    trigger.cancel();
    expectNoCrash(result.stderr);
    expect(result.code, result.stderr.slice(-3000)).toBe(1);
    const said = errorLines(result);
    expect(said, `${result.stdout}\n${result.stderr}`).toHaveLength(1);
    const location = `127\\.0\\.0\\.1:${cluster.port}/${database}`;
    expect(said[0]).toMatch(new RegExp(`database at ${location}\\b`));
    expect(said[0]).toContain('did not answer again within DATABASE_RETRY_SECONDS=5');
    expect(`${result.stdout}${result.stderr}`).not.toContain('postgres@');
    const handle = await createDb({ databaseUrl: cluster.url(database), dataDir: '' });
    handles.push(handle);
    const runs = await runsOf(handle);
    expect(runs.map((r) => r.status)).toEqual(['failed']);
    expect(runs[0]!.error).toContain('did not answer again within DATABASE_RETRY_SECONDS=5');

    // The next run completes the mirror from what the first committed.
    const second = await runCli(['sync'], env(database), 180_000);
    expectNoCrash(second.stderr);
    expect(second.code, second.stderr).toBe(0);
    expect((await runsOf(handle)).map((r) => r.status)).toEqual(['failed', 'succeeded']);
    await sameAsUnedited(handle.db);
  }, 300_000);
});

describe('PostgreSQL restarted under backfill', () => {
  it('the estimate starts again once the database answers, and succeeds', async () => {
    const database = 'mirror_backfill';
    await cluster.createDatabase(database);
    expect((await runCli(['sync'], env(database), 180_000)).code).toBe(0);
    const handle = await createDb({ databaseUrl: cluster.url(database), dataDir: '' });
    handles.push(handle);
    const estimated = async () =>
      Number(
        (
          await sql<{ n: string }>`
            select count(*) as n from weblate.translation_progress_estimated`.execute(handle.db)
        ).rows[0]!.n,
      );
    const before = await estimated();
    expect(before).toBeGreaterThan(0);
    // Another session holds the table, so the restart meets backfill's statement mid-way.
    const blocker = await handle.db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      await sql`lock table weblate.translation_progress_estimated in access exclusive mode`.execute(
        conn,
      );
      const backfill = startCli(['backfill'], env(database), 180_000);
      await waitFor(
        async () =>
          (
            await sql<{ n: number }>`
              select count(*)::int as n from pg_stat_activity
              where datname = ${database} and application_name = 'weblate-mirror'
                and wait_event_type = 'Lock'`.execute(handle.db)
          ).rows[0]!.n > 0 || undefined,
        'backfill to wait for the table',
        60_000,
      );
      await cluster.restart('fast');
      return backfill;
    });
    const result = await blocker.done;
    expectNoCrash(result.stderr);
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(result.stderr).toMatch(/the database was away for \d+\.\d s; the estimate starts again/);
    expect(result.stdout).toMatch(/^estimated \d+ translation-days/m);
    expect(await estimated()).toBe(before);
  }, 300_000);
});

interface Health {
  status: string;
  database: string;
  lastRun: { id: number; status: string; finishedAt: string; error: string | null } | null;
}

/** The worker on `database` of the own cluster, as a child process, with its health. */
async function startWorker(database: string, settings: Record<string, string>) {
  const worker = startCli(
    ['worker'],
    {
      ...env(database),
      WORKER_SYNC_CRON: '*/2 * * * * *',
      WORKER_STATISTICS_CRON: 'off',
      WORKER_RECONCILE_CRON: 'off',
      WORKER_HTTP_PORT: '0',
      ...settings,
    },
    280_000,
  );
  const started = parseLogLines(
    (await worker.waitForStderr(/^\{.*"msg":"worker started".*$/m, 60_000))[0],
  )[0]!;
  const url = String(started.http);
  const health = async (): Promise<Health> =>
    (await (await fetch(new URL('healthz', url))).json()) as Health;
  return {
    worker,
    started,
    /** Waits (bounded) until a run that ended after `since` succeeded and health is ok. */
    async recovered(since: number): Promise<Health> {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const h = await health().catch(() => null);
        if (
          h?.status === 'ok' &&
          h.lastRun?.status === 'succeeded' &&
          Date.parse(h.lastRun.finishedAt) > since
        )
          return h;
        if (Date.now() > deadline) throw new Error(`no recovery: ${JSON.stringify(h)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    /**
     * Stops the worker and checks what must hold after restarts: it stayed up, leaked no
     * connection, left no run `running`, said which database a failed run lost, and the
     * mirror equals a fresh full sync.
     */
    async stopAndCheck(
      sameAsClean: (db: DbHandle['db']) => Promise<void>,
      expected: { failed: number } = { failed: 0 },
    ): Promise<void> {
      expect(worker.child.exitCode).toBeNull();
      const handle = await createDb({ databaseUrl: cluster.url(database), dataDir: '' });
      handles.push(handle);
      // The pool's size bounds the worker's connections: none was lost and replaced apart.
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = ${database} and application_name = 'weblate-mirror'
          and pid <> pg_backend_pid()`.execute(handle.db);
      expect(rows[0]!.n).toBeLessThanOrEqual(10);

      worker.child.kill('SIGTERM');
      const ended = await worker.done;
      expect(ended.code, ended.stderr.slice(-2000)).toBe(0);
      expectNoCrash(ended.stderr);
      const runs = await runsOf(handle);
      // Every run rode through the restarts, but for those an outage outlasted; only the stop
      // may interrupt one.
      expect(runs.filter((r) => r.status === 'failed')).toHaveLength(expected.failed);
      for (const run of runs) expect(['succeeded', 'interrupted', 'failed']).toContain(run.status);
      await sameAsClean(handle.db);
    },
    async kill(): Promise<void> {
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
      await worker.done;
    },
  };
}

/** Resolves once `trigger` fired (bounded), then waits for the restart it started. */
async function afterTrigger(trigger: TriggerHandle, restarting: () => Promise<void>) {
  const deadline = Date.now() + 60_000;
  while (!trigger.fired && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(trigger.fired).toBe(true);
  await restarting();
}

describe('PostgreSQL restarted under the worker', () => {
  it('keeps the worker running, ends every run, and leaks no connection', async () => {
    const database = 'mirror_worker';
    await cluster.createDatabase(database);
    const worker = await startWorker(database, {});
    try {
      await worker.recovered(0);

      // During a run: while it reads the change history.
      let restarting: Promise<void> = Promise.resolve();
      const during = Date.now();
      const trigger = sim.at({ match: /^\/api\/changes\//, nth: 1 }, () => {
        restarting = cluster.restart('fast');
      });
      await afterTrigger(trigger, () => restarting);
      await worker.recovered(during);

      // While it waits between runs (or in one: the schedule decides), a crash this time.
      const idle = Date.now();
      await cluster.restart('immediate');
      await worker.recovered(idle);

      // A crash during a run, the server back 2 s later.
      const crashed = Date.now();
      const crash = sim.at({ match: /^\/api\/changes\//, nth: 1 }, () => {
        restarting = (async () => {
          await cluster.crash();
          await sleep(2_000);
          await cluster.start();
        })();
      });
      await afterTrigger(crash, () => restarting);
      await worker.recovered(crashed);
      await worker.worker.waitForStderr(/the database was away for \d+\.\d s; the run went on/);
      await worker.stopAndCheck(sameAsUnedited);
    } finally {
      await worker.kill();
    }
  }, 300_000);

  it('away past the window: the run fails with the first cause, its row closed once it is back', async () => {
    const database = 'mirror_worker_outage';
    await cluster.createDatabase(database);
    const worker = await startWorker(database, { DATABASE_RETRY_SECONDS: '2' });
    try {
      await worker.recovered(0);
      // Down before the run has its page of changes, so that the run meets it, not only its end.
      const trigger = sim.at({ match: /^\/api\/changes\//, nth: 1 }, () => cluster.crashNow());
      // Both waits end with the server down: the run fails, and its end cannot be recorded.
      await worker.worker.waitForStderr(/"status":"failed".*"msg":"job finished"/, 120_000);
      await afterTrigger(trigger, () => Promise.resolve());
      const back = Date.now();
      await cluster.start();
      await worker.recovered(back);
      const handle = await createDb({ databaseUrl: cluster.url(database), dataDir: '' });
      handles.push(handle);
      const failed = (await runsOf(handle)).filter((r) => r.status === 'failed');
      expect(failed).toHaveLength(1);
      // Closed by this worker with its own first cause, not as abandoned by a later run.
      expect(failed[0]!.error).toMatch(
        // The server was down before the run's next statement: its connection was refused.
        new RegExp(`^cannot reach the database at 127\\.0\\.0\\.1:${cluster.port}/${database}\\b`),
      );
      expect(failed[0]!.error).toContain('did not answer again within DATABASE_RETRY_SECONDS=2');
      expect(failed[0]!.error).not.toContain('ended without recording its end');
      await worker.stopAndCheck(sameAsUnedited, { failed: 1 });
    } finally {
      await worker.kill();
    }
  }, 300_000);

  it('during a webhook batch: the schedule catches up what the batch lost', async () => {
    const database = 'mirror_webhooks';
    await cluster.createDatabase(database);
    expect((await runCli(['sync'], env(database), 180_000)).code).toBe(0);
    // Scheduled syncs every 10 s: the batch's own run is the one the restart meets.
    const worker = await startWorker(database, {
      WORKER_SYNC_CRON: '*/10 * * * * *',
      WEBLATE_WEBHOOK_SECRET: TEST_SECRET,
      WEBHOOK_DEBOUNCE_SECONDS: '0.5',
    });
    try {
      await worker.recovered(0);
      sim.setWebhook({ url: String(worker.started.webhooks), secret: TEST_SECRET });
      const edited = sim.instance.units
        .filter(
          (u) =>
            u.state === 20 && !sim.instance.index.translationById.get(u.translationId)!.isSource,
        )
        .slice(0, 8)
        .map((u) => u.id);
      let restarting: Promise<void> = Promise.resolve();
      // The batch reads the units its webhooks name: restart as it asks for them.
      const trigger = sim.at({ match: /^\/api\/units\//, nth: 1 }, () => {
        restarting = cluster.restart('fast');
      });
      const edits = Date.now();
      sim.mutate.editUnits(edited);
      await afterTrigger(trigger, () => restarting);
      await sim.webhooksIdle();
      await worker.recovered(edits);
      // Every edit arrives, whether in the batch or in a scheduled sync after it.
      const handle = await createDb({ databaseUrl: cluster.url(database), dataDir: '' });
      handles.push(handle);
      await waitFor(
        async () => {
          const rows = await handle.db
            .selectFrom('weblate.units')
            .select(['id', 'target'])
            .where('id', 'in', edited.map(String))
            .execute();
          const mirrored = new Map(rows.map((r) => [Number(r.id), JSON.stringify(r.target)]));
          return (
            edited.every(
              (id) =>
                mirrored.get(id) === JSON.stringify(sim.instance.index.unitById.get(id)!.target),
            ) || undefined
          );
        },
        'every edit to reach the mirror',
        90_000,
      );
      sim.setWebhook(null);
      // The statistics snapshots a batch owes are taken by the next scheduled sync.
      await waitFor(
        async () =>
          (await handle.db.selectFrom('weblate.sync_pending').select('id').execute()).length ===
            0 || undefined,
        'the scheduled sync to settle what the batches owe',
        90_000,
      );
      await worker.stopAndCheck((db) => expectSameAsCleanSync(databases, sim, db));
    } finally {
      sim.setWebhook(null);
      await worker.kill();
    }
  }, 300_000);
});

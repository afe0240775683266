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

describe('PostgreSQL restarted', () => {
  for (const mode of ['fast', 'immediate'] as const) {
    it(`during a full sync (${mode}): the run ends cleanly, the next completes the mirror`, async () => {
      const database = `mirror_${mode}`;
      await cluster.createDatabase(database);
      // While the units are walked: the restart runs beside the sync.
      let restarting: Promise<void> = Promise.resolve();
      const trigger = sim.at({ match: /^\/api\/units\//, nth: 3 }, () => {
        restarting = cluster.restart(mode);
      });
      const first = await runCli(['sync', '--full'], env(database), 180_000);
      trigger.cancel();
      expect(trigger.fired).toBe(true);
      await restarting;
      expectNoCrash(first.stderr);
      if (first.code !== 0) {
        expect(first.code, first.stderr).toBe(1);
        // One line, the first cause, naming the database and not its user.
        const said = first.stderr.split('\n').filter((l) => l.startsWith('error: '));
        expect(said, first.stderr).toHaveLength(1);
        expect(said[0]).toMatch(
          new RegExp(`database at 127\\.0\\.0\\.1:${cluster.port}/${database}\\b`),
        );
        expect(first.stdout).not.toContain('postgres@');
      }

      const second = await runCli(['sync'], env(database), 180_000);
      expectNoCrash(second.stderr);
      expect(second.code, second.stderr).toBe(0);
      const handle = await createDb({ databaseUrl: cluster.url(database), dataDir: '' });
      handles.push(handle);
      const runs = await runsOf(handle);
      expect(runs.map((r) => r.status)).not.toContain('running');
      expect(runs.at(-1)?.status).toBe('succeeded');
      await sameAsUnedited(handle.db);
    }, 300_000);
  }
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
    async stopAndCheck(sameAsClean: (db: DbHandle['db']) => Promise<void>): Promise<void> {
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
      expect(runs.map((r) => r.status)).not.toContain('running');
      // A run the restart cut short says so, naming the database.
      for (const run of runs.filter((r) => r.status === 'failed'))
        expect(run.error).toMatch(/database|ended without recording its end/);
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
      await worker.stopAndCheck(sameAsUnedited);
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

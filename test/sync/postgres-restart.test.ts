import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDb, type DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { expectSameAsCleanSync } from '../helpers/clean-sync.ts';
import { runCli } from '../helpers/cli.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { parseLogLines } from '../helpers/logs.ts';
import { type OwnCluster, startOwnCluster } from '../helpers/own-cluster.ts';

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
    units: 3_000,
    changes: 300,
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
    WEBLATE_USERS: sim.instance.users
      .filter((u) => u.subscriptions.length > 0)
      .map((u) => u.username)
      .join(','),
    WEBLATE_MAX_PAGE_SIZE: '250',
    WEBLATE_CONCURRENCY: '1',
    LOG_LEVEL: 'info',
  };
}

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
        const said = first.stdout.split('\n').filter((l) => l.startsWith('error: '));
        expect(said, first.stdout).toHaveLength(1);
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
      await expectSameAsCleanSync(databases, sim, handle.db);
    }, 300_000);
  }
});

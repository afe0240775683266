import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LOCK_NAMESPACE, lockKey } from '../../src/db/advisory-lock.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { WRITER_LOCK } from '../../src/worker/job-runner.ts';
import { databaseEnv, startCli } from '../helpers/cli.ts';
import { createTestDatabase, DATABASE_KIND, type TestDatabase } from '../helpers/database.ts';

let sim: RunningSimulator;
let database: TestDatabase;

beforeAll(async () => {
  sim = await startSimulator({ seed: 4, projects: 1, components: 1, languages: 2, units: 80 });
  database = await createTestDatabase();
  await (await database.migrated()).close();
});

afterAll(async () => {
  await sim.close();
  await database.drop();
});

// The embedded database admits one process at a time, so only PostgreSQL can have a worker
// and a sync by hand on one database at once.
describe.runIf(DATABASE_KIND === 'postgres')('sync by hand beside a worker', () => {
  it('waits while a worker job writes the mirror, then runs', async () => {
    const holder = new pg.Client({ connectionString: database.databaseUrl! });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, lockKey(WRITER_LOCK)]);
      const cli = startCli(['sync'], { ...databaseEnv(database), WEBLATE_URL: sim.url }, 60_000);
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        cli.child.stderr?.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          if (stderr.includes('waiting for a worker job that writes the mirror')) resolve();
        });
        void cli.done.then(() => reject(new Error(`sync ended without waiting: ${stderr}`)));
      });
      const runs = await holder.query<{ n: number }>(
        'select count(*)::int as n from weblate.sync_runs',
      );
      expect(runs.rows[0]!.n).toBe(0);
      await holder.query('select pg_advisory_unlock($1, $2)', [
        LOCK_NAMESPACE,
        lockKey(WRITER_LOCK),
      ]);
      const result = await cli.done;
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/full sync run \d+ .*: succeeded/);
    } finally {
      await holder.end();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv, type RunningCli, startCli } from '../helpers/cli.ts';
import { createTestDatabase, DATABASE_KIND, type TestDatabase } from '../helpers/database.ts';
import {
  findPythonTools,
  makeDbtFolder,
  type PythonTools,
  runDbt,
  writeProfiles,
} from '../helpers/dbt.ts';
import { freePort } from '../helpers/ports.ts';
import { TINY_INSTANCE } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

// dbt-postgres reads the embedded mirror through `weblate-mirror serve`: it connects, checks
// the sources' freshness and runs queries; building models, which writes, is refused in words.
// The PostgreSQL run of this suite builds the package on PostgreSQL itself (package-suite.ts);
// serve has only the embedded database to serve.

describe.runIf(DATABASE_KIND === 'pglite')('dbt-postgres through serve', () => {
  let sim: RunningSimulator;
  let database: TestDatabase;
  let tools: PythonTools;
  let dir: string;
  let remove = async () => {};
  let serve: RunningCli;
  let units: number;

  beforeAll(async () => {
    tools = await findPythonTools();
    ({ dir, remove } = await makeDbtFolder());
    sim = await startSimulator({ ...TINY_INSTANCE, users: 1 });
    database = await createTestDatabase();
    const handle = await database.migrated();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    units = Number(
      (
        await handle.db
          .selectFrom('weblate.units')
          .select((e) => e.fn.countAll().as('n'))
          .execute()
      )[0]!.n,
    );
    await handle.close();
    const port = await freePort();
    serve = startCli(['serve', '--port', String(port)], databaseEnv(database), 600_000);
    await serve.waitForStderr(/serving the mirror to PostgreSQL clients/, 60_000);
    await writeProfiles(dir, {
      // The embedded database's own name: dbt qualifies every relation with it.
      postgres: { url: `postgres://dbt@127.0.0.1:${port}/postgres`, schema: 'weblate_dbt' },
    });
  }, 600_000);

  afterAll(async () => {
    serve?.child.kill('SIGINT');
    await serve?.done;
    await sim?.close();
    await database?.drop();
    await remove();
  });

  it('connects (dbt debug)', async () => {
    const result = await runDbt(tools, dir, ['debug', '--target', 'pg']);
    expect(result.output).toMatch(/Connection test: \[OK connection ok\]/);
    expect(result.code, result.output).toBe(0);
  });

  it("checks the sources' freshness against the mirror's own sync records", async () => {
    const result = await runDbt(tools, dir, ['source', 'freshness', '--target', 'pg']);
    expect(result.output).toMatch(/PASS freshness of weblate\.sync_runs/);
    expect(result.code, result.output).toBe(0);
  });

  it('answers a query over the sources with what the mirror holds', async () => {
    const result = await runDbt(tools, dir, [
      'show',
      '--target',
      'pg',
      '--output',
      'json',
      '--inline',
      "select count(*) as units from {{ source('weblate', 'units') }}",
    ]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(new RegExp(`"units": ${units}\\b`));
  });

  it('is refused building models, which would write, with the reason', async () => {
    const result = await runDbt(tools, dir, ['build', '--target', 'pg']);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/cannot execute CREATE SCHEMA in a read-only transaction/);
  });
});

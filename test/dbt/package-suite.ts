import { join } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { functionColumns, INTERMEDIATE, MARTS, type MartSpec } from '../../scripts/dbt-docs.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { exportMirror } from '../../src/export/run-export.ts';
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.ts';
import { TEST_DATABASE_URL, type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import {
  canonicalRows,
  type DbtResult,
  findPythonTools,
  makeDbtFolder,
  pinFunctionClock,
  type PythonTools,
  readDuckdbModels,
  readFunctionRows,
  readModelRows,
  runDbt,
  type TextRows,
  writeProfiles,
} from '../helpers/dbt.ts';
import { syncSimulator } from '../helpers/sync.ts';

/** What the package's tests need of one mirrored instance, after its syncs. */
export interface PackageFixture {
  sim: RunningSimulator;
  handle: DbHandle;
  database: TestDatabase;
  tools: PythonTools;
  /** The test's own folder: profiles.yml, dbt's target and logs, the export, the DuckDB file. */
  dir: string;
  /** The instant the marts and the functions both take as now (ISO 8601, UTC). */
  now: string;
}

export const PG_SCHEMA = 'weblate_dbt';
const ON_POSTGRES = TEST_DATABASE_URL !== null;
const CHECKED: readonly MartSpec[] = [...MARTS, ...INTERMEDIATE];

/**
 * The dbt package over one simulated instance, synced (then changed by `afterFirstSync`, which
 * syncs again itself): on PostgreSQL, `dbt build` against the mirror's database, then every
 * mart equal to its answer function row for row; on both databases, the same over the Parquet
 * export with DuckDB. Each build runs once, in its block's beforeAll.
 */
export function describeDbtPackage(options: {
  instance: SimulatorOptions;
  afterFirstSync?: (fixture: PackageFixture) => Promise<void>;
  onPostgres?: (fixture: () => PackageFixture) => void;
}): void {
  const databases = useTestDatabases();
  let fixture: PackageFixture | null = null;
  let remove = async () => {};
  const current = () => {
    if (fixture === null) throw new Error('the fixture is used before beforeAll');
    return fixture;
  };

  beforeAll(async () => {
    const tools = await findPythonTools();
    const folder = await makeDbtFolder();
    remove = folder.remove;
    const sim = await startSimulator(options.instance);
    const database = await databases.create();
    const handle = await database.migrated();
    fixture = { sim, handle, database, tools, dir: folder.dir, now: '' };
    const first = await syncSimulator(sim, handle);
    expect([first.status, first.summary.rejected]).toEqual(['succeeded', 0]);
    await options.afterFirstSync?.(fixture);
    const clock = await sql<{ now: string }>`
      select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') as now`.execute(
      handle.db,
    );
    fixture.now = clock.rows[0]!.now;
    await pinFunctionClock(handle, fixture.now);
    await writeProfiles(folder.dir, {
      ...(database.databaseUrl === null
        ? {}
        : { postgres: { url: database.databaseUrl, schema: PG_SCHEMA } }),
      duckdb: { path: join(folder.dir, 'mirror.duckdb') },
    });
  });

  afterAll(async () => {
    await fixture?.sim.close();
    await remove();
  });

  // dbt-postgres needs a PostgreSQL server; the embedded database reaches dbt through its
  // export, which the DuckDB block below covers on both databases.
  describe.skipIf(!ON_POSTGRES)('on PostgreSQL', () => {
    let build: DbtResult;
    beforeAll(async () => {
      const f = current();
      build = await runDbt(f.tools, f.dir, ['build', '--target', 'pg'], {
        vars: { weblate_mirror_now: f.now },
      });
    });

    it('builds every model and passes every data test', () => {
      expect(build.output).toMatch(/Completed successfully/);
      expect(build.code, build.output).toBe(0);
    });

    it.each(CHECKED.map((spec) => [spec.model, spec] as const))(
      '%s equals its answer function row for row',
      async (_, spec) => {
        const f = current();
        const columns = functionColumns(spec.fn);
        const mart = await readModelRows(f.handle, PG_SCHEMA, spec.model);
        expectSameRows(mart, await readFunctionRows(f.handle, spec, columns), spec);
      },
    );

    options.onPostgres?.(current);
  });

  describe('on DuckDB over the export', () => {
    let build: DbtResult;
    let models: Record<string, TextRows>;
    beforeAll(async () => {
      const f = current();
      const out = join(f.dir, 'export');
      await exportMirror(f.handle, { out, tables: null, now: new Date() });
      build = await runDbt(f.tools, f.dir, ['build', '--target', 'duckdb'], {
        vars: { weblate_mirror_now: f.now, weblate_mirror_export_path: out },
      });
      models =
        build.code === 0
          ? await readDuckdbModels(
              f.tools,
              join(f.dir, 'mirror.duckdb'),
              CHECKED.map((s) => s.model),
            )
          : {};
    });

    it('builds every model and passes every data test', () => {
      expect(build.output).toMatch(/Completed successfully/);
      expect(build.code, build.output).toBe(0);
    });

    it.each(CHECKED.map((spec) => [spec.model, spec] as const))(
      '%s equals its answer function row for row',
      async (_, spec) => {
        const f = current();
        const mart = models[spec.model];
        expect(mart, `${spec.model} was not built`).toBeDefined();
        const columns = functionColumns(spec.fn);
        expectSameRows(mart!, await readFunctionRows(f.handle, spec, columns), spec);
      },
    );
  });
}

/** Same columns in the same order, and the same multiset of rows in canonical text. */
function expectSameRows(mart: TextRows, answer: TextRows, spec: MartSpec): void {
  const columns = functionColumns(spec.fn);
  expect(mart.columns, `${spec.model}: columns`).toEqual(columns.map((c) => c.name));
  // A comparison of nothing with nothing proves nothing: each instance answers every function.
  expect(answer.rows.length, `${spec.call} answers no rows`).toBeGreaterThan(0);
  expect(canonicalRows(mart, columns), `${spec.model} vs ${spec.call}`).toEqual(
    canonicalRows(answer, columns),
  );
}

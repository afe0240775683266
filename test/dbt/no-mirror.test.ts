import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TEST_DATABASE_URL, useTestDatabases } from '../helpers/database.ts';
import {
  findPythonTools,
  makeDbtFolder,
  type PythonTools,
  runDbt,
  writeProfiles,
} from '../helpers/dbt.ts';

// `dbt build` where there is nothing to model says so in one line, and fails.

const databases = useTestDatabases();
let tools: PythonTools;
let dir: string;
let remove = async () => {};

beforeAll(async () => {
  tools = await findPythonTools();
  ({ dir, remove } = await makeDbtFolder());
});

afterAll(async () => {
  await remove();
});

/** The error lines of dbt's output: the first names the problem. */
function errorLine(output: string): string | undefined {
  return output.split('\n').find((line) => line.includes('weblate-mirror:'));
}

// A database without a mirror needs a PostgreSQL server to make; the embedded database is
// always migrated before anything can read it.
describe.skipIf(TEST_DATABASE_URL === null)('on a PostgreSQL database never migrated', () => {
  it('stops before any model with one line that says what to run', async () => {
    const database = await databases.create({ empty: true });
    const name = new URL(database.databaseUrl!).pathname.slice(1);
    await writeProfiles(dir, { postgres: { url: database.databaseUrl!, schema: 'weblate_dbt' } });
    const result = await runDbt(tools, dir, ['build', '--target', 'pg']);
    expect(errorLine(result.output)?.trim()).toBe(
      `weblate-mirror: the database ${name} has no migrated mirror (schema weblate); run \`weblate-mirror migrate\` or \`weblate-mirror sync\` first`,
    );
    expect(result.output).not.toMatch(/START sql/);
    expect(result.code).not.toBe(0);
  });
});

describe('on DuckDB without an export', () => {
  it('stops before any model with one line that says what to run', async () => {
    const missing = join(dir, 'no-export');
    await writeProfiles(dir, { duckdb: { path: join(dir, 'empty.duckdb') } });
    const result = await runDbt(tools, dir, ['build', '--target', 'duckdb'], {
      vars: { weblate_mirror_export_path: missing },
    });
    expect(errorLine(result.output)?.trim()).toBe(
      `weblate-mirror: ${missing} holds no export of a mirror (no manifest.json); run \`weblate-mirror export --out ${missing}\` first, or set var weblate_mirror_export_path`,
    );
    expect(result.output).not.toMatch(/START sql/);
    expect(result.code).not.toBe(0);
  });
});

import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { sql } from 'kysely';

import type { Column, MartSpec } from '../../scripts/dbt-docs.ts';
import type { DbHandle } from '../../src/db/client.ts';

// Runs the dbt package (dbt/) the way a data team would, against a test database or an
// export of it, and reads what it built as canonical text (docs/data-teams.md).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DBT_PROJECT = join(ROOT, 'dbt');

/** dbt's and DuckDB's Python, installed by scripts/python-tools.sh when missing. */
export interface PythonTools {
  dbt: string;
  python: string;
}

export async function findPythonTools(): Promise<PythonTools> {
  const { stdout } = await promisify(execFile)('bash', [join(ROOT, 'scripts/python-tools.sh')], {
    cwd: ROOT,
    timeout: 900_000,
  });
  const bin = stdout.trim().split('\n').at(-1)!;
  return { dbt: join(bin, 'dbt'), python: join(bin, 'python') };
}

/** A folder of the test's own for profiles.yml, dbt's target and logs, an export, DuckDB. */
export async function makeDbtFolder(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'weblate-mirror-dbt-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface DbtTargets {
  /** postgres://… of the mirror's database; the models go to schema `schema`. */
  postgres?: { url: string; schema: string };
  /** The DuckDB file the models are built into. */
  duckdb?: { path: string };
}

/** Writes profiles.yml (profile weblate_mirror, targets pg and duckdb) into `dir`. */
export async function writeProfiles(dir: string, targets: DbtTargets): Promise<void> {
  const outputs: string[] = [];
  if (targets.postgres !== undefined) {
    const url = new URL(targets.postgres.url);
    outputs.push(
      '    pg:',
      '      type: postgres',
      `      host: ${JSON.stringify(url.hostname)}`,
      `      port: ${url.port === '' ? 5432 : Number(url.port)}`,
      `      user: ${JSON.stringify(decodeURIComponent(url.username))}`,
      `      password: ${JSON.stringify(decodeURIComponent(url.password))}`,
      `      dbname: ${JSON.stringify(url.pathname.slice(1))}`,
      `      schema: ${JSON.stringify(targets.postgres.schema)}`,
      '      threads: 2',
    );
  }
  if (targets.duckdb !== undefined)
    outputs.push(
      '    duckdb:',
      '      type: duckdb',
      `      path: ${JSON.stringify(targets.duckdb.path)}`,
      '      schema: main',
      '      threads: 2',
    );
  const text = ['weblate_mirror:', '  target: pg', '  outputs:', ...outputs, ''].join('\n');
  await writeFile(join(dir, 'profiles.yml'), text);
}

export interface DbtResult {
  code: number | null;
  output: string;
}

/**
 * One dbt command on the package, with the profiles of `dir`, its target and logs there too
 * (never in the checkout, which other runs share), and no network: usage statistics and the
 * version check are off. A run past `timeoutMs` is killed.
 */
export function runDbt(
  tools: PythonTools,
  dir: string,
  args: readonly string[],
  options: { vars?: Record<string, unknown>; timeoutMs?: number } = {},
): Promise<DbtResult> {
  const vars = options.vars === undefined ? [] : ['--vars', JSON.stringify(options.vars)];
  const child = spawn(
    tools.dbt,
    [...args, '--project-dir', DBT_PROJECT, '--profiles-dir', dir, ...vars],
    {
      cwd: dir,
      env: {
        ...process.env,
        // As variables, not flags: `dbt debug` takes neither flag.
        DBT_TARGET_PATH: join(dir, 'target'),
        DBT_LOG_PATH: join(dir, 'logs'),
        DBT_SEND_ANONYMOUS_USAGE_STATS: 'false',
        DBT_VERSION_CHECK: 'false',
        DBT_USE_COLORS: 'false',
        DO_NOT_TRACK: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Rows as text, every value as its database writes it (null as null). */
export interface TextRows {
  columns: string[];
  rows: Array<Array<string | null>>;
}

const CLOCK_SCHEMA = 'wm_test_clock';

/**
 * Makes the answer functions of `handle`'s database read `now` as now(), in sessions whose
 * search_path puts the clock's schema first (readFunctionRows): the marts take the same
 * instant as var weblate_mirror_now, so both sides answer for one moment.
 */
export async function pinFunctionClock(handle: DbHandle, now: string): Promise<void> {
  await sql.raw(`create schema if not exists ${CLOCK_SCHEMA}`).execute(handle.db);
  await sql
    .raw(
      `create or replace function ${CLOCK_SCHEMA}.now() returns timestamptz language sql stable
       as $$ select '${now}'::timestamptz $$`,
    )
    .execute(handle.db);
}

function selectAsText(columns: readonly string[], from: string): string {
  return `select ${columns.map((c) => `"${c}"::text as "${c}"`).join(', ')} from ${from}`;
}

async function readAsText(
  handle: DbHandle,
  columns: readonly string[],
  from: string,
  searchPath: string,
): Promise<TextRows> {
  return handle.db.connection().execute(async (conn) => {
    await sql.raw(`set search_path = ${searchPath}`).execute(conn);
    await sql.raw(`set time zone 'UTC'`).execute(conn);
    try {
      const result = await sql
        .raw<Record<string, string | null>>(selectAsText(columns, from))
        .execute(conn);
      return { columns: [...columns], rows: result.rows.map((r) => columns.map((c) => r[c]!)) };
    } finally {
      await sql.raw('reset search_path').execute(conn);
      await sql.raw('reset time zone').execute(conn);
    }
  });
}

/** The rows of an answer function (spec.call) at the pinned clock. */
export function readFunctionRows(
  handle: DbHandle,
  spec: MartSpec,
  columns: readonly Column[],
): Promise<TextRows> {
  return readAsText(
    handle,
    columns.map((c) => c.name),
    spec.call,
    `${CLOCK_SCHEMA}, pg_catalog, public`,
  );
}

/** The columns a dbt model has in PostgreSQL, in order. */
export async function modelColumns(
  handle: DbHandle,
  schema: string,
  model: string,
): Promise<string[]> {
  const result = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = ${schema} and table_name = ${model} order by ordinal_position`.execute(
    handle.db,
  );
  return result.rows.map((r) => r.column_name);
}

/** The rows of a model dbt built on PostgreSQL. */
export async function readModelRows(
  handle: DbHandle,
  schema: string,
  model: string,
): Promise<TextRows> {
  const columns = await modelColumns(handle, schema, model);
  return readAsText(handle, columns, `"${schema}"."${model}"`, 'pg_catalog, public');
}

const READ_DUCKDB = `
import duckdb, json, sys
con = duckdb.connect(sys.argv[1], read_only=True)
con.execute("set TimeZone = 'UTC'")
out = {}
for model in sys.argv[2:]:
    columns = [r[0] for r in con.execute(f'describe "main"."{model}"').fetchall()]
    select = ', '.join(f'cast("{c}" as varchar)' for c in columns)
    rows = con.execute(f'select {select} from "main"."{model}"').fetchall()
    out[model] = {'columns': columns, 'rows': [list(r) for r in rows]}
json.dump(out, sys.stdout)
`;

/** The rows of models dbt built in a DuckDB file, read with DuckDB's Python. */
export async function readDuckdbModels(
  tools: PythonTools,
  path: string,
  models: readonly string[],
): Promise<Record<string, TextRows>> {
  const { stdout } = await promisify(execFile)(tools.python, ['-c', READ_DUCKDB, path, ...models], {
    maxBuffer: 1 << 30,
    timeout: 300_000,
  });
  return JSON.parse(stdout) as Record<string, TextRows>;
}

/**
 * A value as canonical text by its column's PostgreSQL type, so that the same value reads the
 * same from PostgreSQL and DuckDB: numbers without trailing zeros of the fraction (DuckDB's
 * decimals have a fixed scale, numeric keeps the one it computed), booleans as true/false,
 * timestamps in UTC with six fractional digits.
 */
export function canonicalValue(value: string | null, type: string): string | null {
  if (value === null) return null;
  if (type === 'numeric' && /^-?\d+\.\d+$/.test(value))
    return value.replace(/0+$/, '').replace(/\.$/, '');
  if (type === 'boolean') return value === 't' || value === 'true' ? 'true' : 'false';
  if (type === 'timestamp with time zone') {
    const match = /^(\d{4,}-\d\d-\d\d[ T]\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(\+00(?::00)?|Z)$/.exec(
      value,
    );
    if (match === null) throw new Error(`not a UTC timestamp: ${value}`);
    return `${match[1]!.replace('T', ' ')}.${(match[2] ?? '').padEnd(6, '0')}+00`;
  }
  return value;
}

/** Rows as sorted canonical lines: equal when the two are the same multiset of rows. */
export function canonicalRows(rows: TextRows, columns: readonly Column[]): string[] {
  return rows.rows
    .map((row) => JSON.stringify(row.map((v, i) => canonicalValue(v, columns[i]!.type))))
    .sort();
}

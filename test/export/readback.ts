import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { type Kysely, sql } from 'kysely';

import type { Database } from '../../src/db/database.ts';
import type { Manifest } from '../../src/export/manifest.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./readback.py', import.meta.url));
const NULL = '\u0000NULL';

export interface TableReadBack {
  columns: string[];
  /** The reader's type of each column (readback.py only). */
  types?: Record<string, string>;
  rows: number;
  checksums: Record<string, string>;
}

export type ReadBack = Record<string, TableReadBack>;

/**
 * The Python of the project's tools (scripts/python-tools.sh installs DuckDB and pyarrow once,
 * into .cache/python-tools). Always run: CI and a laptop alike install them in about 25 s.
 */
export function pythonTools(): string {
  const bin = execFileSync('bash', [`${ROOT}scripts/python-tools.sh`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return `${bin}/python`;
}

/** What DuckDB and pyarrow read from the export in `out`, per table. */
export async function readBack(
  python: string,
  out: string,
  tables: string[],
): Promise<{ duckdb: ReadBack; pyarrow: ReadBack }> {
  const { stdout } = await promisify(execFile)(python, [SCRIPT, out, tables.join(',')], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as { duckdb: ReadBack; pyarrow: ReadBack };
}

/**
 * The canonical text of each value as PostgreSQL computes it, independently of the export's
 * parsing: epoch microseconds and days by PostgreSQL's arithmetic, doubles by their bits.
 */
function canonicalSql(name: string, parquetType: string) {
  const column = sql.id(name);
  if (parquetType.startsWith('INT64 TIMESTAMP'))
    return sql`(extract(epoch from ${column}) * 1000000)::numeric(30, 0)::text`;
  if (parquetType === 'INT32 DATE') return sql`(${column} - date '1970-01-01')::text`;
  if (parquetType.startsWith('LIST')) return sql`to_json(${column})::text`;
  return sql`${column}::text`;
}

function canonicalText(value: string | null, parquetType: string): string {
  if (value === null) return NULL;
  if (parquetType === 'DOUBLE') {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(Number(value));
    return bytes.toString('hex');
  }
  if (parquetType.startsWith('LIST')) return JSON.stringify(JSON.parse(value));
  return value;
}

function checksum(values: string[]): string {
  let total = 0n;
  for (const value of values)
    total += createHash('sha256').update(value, 'utf8').digest().readBigUInt64BE(0);
  return (total % 2n ** 64n).toString(16).padStart(16, '0');
}

/** The same summary as readback.py's, computed from the database. */
export async function databaseSummary(
  db: Kysely<Database>,
  manifest: Manifest,
  tables: string[],
): Promise<ReadBack> {
  const summary: ReadBack = {};
  for (const table of tables) {
    const columns = manifest.tables[table]!.columns;
    const { rows } = await sql<Record<string, string | null>>`select ${sql.join(
      columns.map((c, i) => sql`${canonicalSql(c.name, c.parquet_type)} as ${sql.id(`c${i}`)}`),
    )} from ${sql.table(`weblate.${table}`)}`.execute(db);
    summary[table] = {
      columns: columns.map((c) => c.name),
      rows: rows.length,
      checksums: Object.fromEntries(
        columns.map((c, i) => [
          c.name,
          checksum(rows.map((row) => canonicalText(row[`c${i}`] ?? null, c.parquet_type))),
        ]),
      ),
    };
  }
  return summary;
}

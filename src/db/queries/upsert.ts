import { type Kysely, type RawBuilder, sql } from 'kysely';

import { type CopyInto, type CopyKind, copyText } from '../copy.ts';
import type { Database, RawJson } from '../database.ts';

/** Every column of an insert present (null where the API sent nothing), so an update never keeps stale values. */
export type CompleteRow<T> = {
  [K in keyof Omit<T, 'first_seen_at' | 'updated_at'>]-?: Exclude<T[K], undefined>;
};

export type JsonRow = { raw: RawJson } & Record<string, unknown>;

/**
 * Serialises rows into one JSON array. `raw` is spliced in as the API's own text (valid
 * JSON by construction), so 64-bit integers and every other value stay exactly as sent.
 */
export function rowsToJson(rows: readonly JsonRow[]): string {
  const parts = rows.map(({ raw, ...rest }) => {
    const head = JSON.stringify(rest);
    return head === '{}' ? `{"raw":${raw}}` : `${head.slice(0, -1)},"raw":${raw}}`;
  });
  return `[${parts.join(',')}]`;
}

/** The rows as a set-returning expression typed like `table`, for `select … from`. */
export function jsonRecordset(table: string, rows: readonly JsonRow[]): RawBuilder<unknown> {
  return sql`jsonb_populate_recordset(null::${sql.table(table)}, ${rowsToJson(rows)}::jsonb)`;
}

/** Keeps the last row for each key: one statement may not touch a row twice. */
export function dedupeByKey<T extends Record<string, unknown>>(
  rows: readonly T[],
  key: readonly string[],
): T[] {
  const byKey = new Map<string, T>();
  const keyOf =
    key.length === 1
      ? (row: T) => String(row[key[0]!])
      : (row: T) => key.map((k) => String(row[k])).join('\u0001');
  for (const row of rows) byKey.set(keyOf(row), row);
  return byKey.size === rows.length ? [...rows] : [...byKey.values()];
}

/**
 * Inserts or updates rows by `key`, in one statement whatever the page size (one JSON
 * parameter, parsed by Postgres: exact on both drivers, no bind-parameter limit). Rows
 * whose every column is unchanged are not rewritten, so `updated_at` means "changed" and
 * the returned count is the number of rows actually written. `shape` says how `raw` is
 * stored (see RawShape).
 */
export async function upsertJsonRows(
  db: Kysely<Database>,
  table: string,
  key: readonly string[],
  rows: readonly JsonRow[],
  shape: RawShape = null,
): Promise<number> {
  return (await upsertJsonRowsReturning(db, table, key, rows, shape)).length;
}

/**
 * How `raw` is stored: as read (null), without some top-level fields, or, where the record
 * lacks its component (a translation read from its component's own list), with the
 * mirrored record of the row's component (`component_id`) nested as `component`, as the
 * global list nests it.
 */
export type RawShape = { without: readonly string[] } | { nestComponent: true } | null;

function rawValue(shape: RawShape): RawBuilder<unknown> {
  if (shape === null) return sql`raw`;
  if ('without' in shape) return sql`raw - ${`{${shape.without.join(',')}}`}::text[]`;
  return sql`case when raw ? 'component' then raw else raw || jsonb_build_object('component',
    (select c.raw from weblate.components c where c.id = component_id)) end`;
}

/**
 * Like upsertJsonRows, returning the key (first key column, as text) of every row written;
 * with `staging`, by COPY as upsertRowsByCopy.
 */
export async function upsertJsonRowsReturning(
  db: Kysely<Database>,
  table: string,
  key: readonly string[],
  rows: readonly JsonRow[],
  shape: RawShape = null,
  staging: Staging | null = null,
): Promise<string[]> {
  const written = await mergeRows(db, table, key, rows, { returnKeys: true, shape, staging });
  return written.keys;
}

/**
 * Upserts like upsertJsonRows, but with `copy` (a transaction of a database that can COPY,
 * see db/copy.ts) the rows go in by COPY into a temporary staging table and one merge: no
 * JSON for the server to parse and no page-sized string in memory. `kinds` names the array
 * and JSON columns. A column of `keep` keeps its stored value where the new row has null.
 */
export async function upsertRowsByCopy(
  db: Kysely<Database>,
  copy: CopyInto | null,
  table: string,
  key: readonly string[],
  rows: readonly JsonRow[],
  kinds: Readonly<Record<string, CopyKind>>,
  keep: readonly string[] = [],
): Promise<number> {
  const staging = copy === null ? null : { copy, kinds };
  return (await mergeRows(db, table, key, rows, { staging, keep })).count;
}

interface MergeOptions {
  /** Rows go in by COPY through a staging table (see upsertRowsByCopy); else as JSON. */
  staging?: Staging | null;
  /** Return the keys of the rows written. */
  returnKeys?: boolean;
  /** Columns that keep their stored value where the new row has null. */
  keep?: readonly string[];
  shape?: RawShape;
}

/**
 * Rows one JSON statement carries: the parameter is parsed into jsonb in the embedded
 * database's WebAssembly memory, which never shrinks (docs/performance.md#memory). COPY
 * streams and needs no cut.
 */
const JSON_ROWS_PER_STATEMENT = 500;

/** INSERT … ON CONFLICT of `rows`; the keys of the rows written only when asked for. */
async function mergeRows(
  db: Kysely<Database>,
  table: string,
  key: readonly string[],
  rows: readonly JsonRow[],
  options: MergeOptions,
): Promise<{ count: number; keys: string[] }> {
  if (rows.length === 0) return { count: 0, keys: [] };
  const unique = dedupeByKey(rows, key);
  const cut = options.staging ? unique.length : JSON_ROWS_PER_STATEMENT;
  let count = 0;
  const keys: string[] = [];
  for (let i = 0; i < unique.length; i += cut) {
    const part = await mergeStatement(db, table, key, unique.slice(i, i + cut), options);
    count += part.count;
    keys.push(...part.keys);
  }
  return { count, keys };
}

/** One INSERT … ON CONFLICT of rows with distinct keys. */
async function mergeStatement(
  db: Kysely<Database>,
  table: string,
  key: readonly string[],
  unique: readonly JsonRow[],
  { staging = null, returnKeys = false, keep = [], shape = null }: MergeOptions,
): Promise<{ count: number; keys: string[] }> {
  const columns = Object.keys(unique[0]!);
  const source =
    staging === null
      ? jsonRecordset(table, unique)
      : await stageByCopy(db, staging, table, columns, unique);
  const changing = columns.filter((c) => !key.includes(c));
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const values = sql.join(
    columns.map((c) =>
      c === 'raw' && shape !== null ? sql`${rawValue(shape)} as raw` : sql.ref(c),
    ),
  );
  const incoming = (c: string) =>
    keep.includes(c)
      ? sql`coalesce(${sql.ref(`excluded.${c}`)}, ${sql.ref(`t.${c}`)})`
      : sql.ref(`excluded.${c}`);
  const result = await sql<{ key: string }>`
    insert into ${sql.table(table)} as t (${list})
    select ${values} from ${source}
    on conflict (${sql.join(key.map((c) => sql.ref(c)))}) do update
      set ${sql.join(changing.map((c) => sql`${sql.ref(c)} = ${incoming(c)}`))}, updated_at = now()
      where (${sql.join(changing.map((c) => sql.ref(`t.${c}`)))})
        is distinct from (${sql.join(changing.map(incoming))})
    ${returnKeys ? sql`returning t.${sql.ref(key[0]!)}::text as key` : sql``}
  `.execute(db);
  const keys = result.rows.map((r) => r.key);
  return { count: returnKeys ? keys.length : Number(result.numAffectedRows ?? 0n), keys };
}

export interface Staging {
  copy: CopyInto;
  kinds: Readonly<Record<string, CopyKind>>;
}

/** COPYs rows into a transaction-local staging table shaped like `table`. */
async function stageByCopy(
  db: Kysely<Database>,
  { copy, kinds }: Staging,
  table: string,
  columns: string[],
  rows: readonly JsonRow[],
): Promise<RawBuilder<unknown>> {
  const stage = `stage_${table.replace('.', '_')}`;
  await sql`create temp table if not exists ${sql.table(stage)} (like ${sql.table(table)} including defaults)
    on commit delete rows`.execute(db);
  const quoted = columns.map((c) => `"${c}"`).join(', ');
  await copy(`copy ${stage} (${quoted}) from stdin`, copyText(rows, columns, kinds));
  return sql.table(stage);
}

import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { Database } from '../database.ts';

export interface CatalogColumn {
  name: string;
  /** format_type: `bigint`, `timestamp with time zone`, `text[]`. */
  type: string;
  /** pg_type.typname: `int8`, `timestamptz`, `_text`. */
  typeName: string;
  isNullable: boolean;
}

export interface CatalogTable {
  name: string;
  /** In table order. */
  columns: CatalogColumn[];
  /** The primary key's columns, in key order; empty when the table has none. */
  primaryKey: string[];
}

/** Every table of schema weblate with its columns, from the catalog: a new migration's too. */
export async function readExportCatalog(db: Kysely<Database>): Promise<CatalogTable[]> {
  const { rows } = await sql<{
    table_name: string;
    column_name: string;
    type: string;
    type_name: string;
    is_nullable: boolean;
    key_position: number | null;
  }>`
    select c.relname as table_name, a.attname as column_name,
           format_type(a.atttypid, a.atttypmod) as type, t.typname as type_name,
           not a.attnotnull as is_nullable,
           array_position((select i.indkey::int2[] from pg_index i
                           where i.indrelid = c.oid and i.indisprimary), a.attnum) as key_position
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    join pg_type t on t.oid = a.atttypid
    where n.nspname = 'weblate' and c.relkind in ('r', 'p')
      -- kysely_migration and kysely_migration_lock are the migrator's, not the mirror's
      and c.relname not like 'kysely\_migration%'
    order by c.relname, a.attnum`.execute(db);
  const tables = new Map<string, CatalogTable & { keys: Array<[number, string]> }>();
  for (const row of rows) {
    let table = tables.get(row.table_name);
    if (table === undefined) {
      table = { name: row.table_name, columns: [], primaryKey: [], keys: [] };
      tables.set(row.table_name, table);
    }
    table.columns.push({
      name: row.column_name,
      type: row.type,
      typeName: row.type_name,
      isNullable: row.is_nullable,
    });
    if (row.key_position !== null) table.keys.push([row.key_position, row.column_name]);
  }
  return [...tables.values()].map(({ keys, ...table }) => ({
    ...table,
    primaryKey: keys.sort((a, b) => a[0] - b[0]).map(([, name]) => name),
  }));
}

/** The newest succeeded sync run (id, finished_at as PostgreSQL's text), or null. */
export async function readNewestSucceededRun(
  db: Kysely<Database>,
): Promise<{ id: number; finishedAt: string | null } | null> {
  const { rows } = await sql<{ id: number; finished_at: string | null }>`
    select id, finished_at::text from weblate.sync_runs where status = 'succeeded'
    order by finished_at desc nulls last, id desc limit 1`.execute(db);
  const row = rows[0];
  return row === undefined ? null : { id: row.id, finishedAt: row.finished_at };
}

/**
 * Values as the export parses them, whatever the server's settings: ISO dates and times in
 * UTC, for this transaction only.
 */
export async function useExportSettings(db: Kysely<Database>): Promise<void> {
  await sql`set local datestyle = 'ISO, YMD'`.execute(db);
  await sql`set local timezone = 'UTC'`.execute(db);
}

/** The partition column of a table: its name and whether it is a timestamptz or a date. */
export interface PartitionColumn {
  name: string;
  typeName: 'timestamptz' | 'date';
}

export interface PartitionFingerprint {
  /** YYYY-MM (UTC), or null: rows whose column is null, or the whole of an unpartitioned table. */
  month: string | null;
  rows: number;
  /** The sum of a 64-bit hash of every row's text. */
  hashSum: string;
}

function monthOf(column: PartitionColumn): RawBuilder<string | null> {
  return column.typeName === 'date'
    ? sql`to_char(t.${sql.id(column.name)}, 'YYYY-MM')`
    : sql`to_char(t.${sql.id(column.name)} at time zone 'UTC', 'YYYY-MM')`;
}

/**
 * Per partition (month of `partition`, or the whole table when null): its rows and the sum of
 * a hash of each whole row's text, which any update, insert or delete of a row moves, whatever
 * the column (docs/data-teams.md, "Incremental").
 */
export async function readPartitionFingerprints(
  db: Kysely<Database>,
  table: string,
  partition: PartitionColumn | null,
): Promise<PartitionFingerprint[]> {
  const month = partition === null ? sql<null>`null::text` : monthOf(partition);
  const { rows } = await sql<{ month: string | null; rows: string; hash_sum: string }>`
    select ${month} as month, count(*)::text as rows,
           coalesce(sum(hashtextextended(t::text, 0)), 0)::text as hash_sum
    from ${sql.table(`weblate.${table}`)} as t
    group by 1 order by 1 nulls last`.execute(db);
  return rows.map((row) => ({ month: row.month, rows: Number(row.rows), hashSum: row.hash_sum }));
}

export interface RowSource {
  table: string;
  /** How each column is read: as the driver parses it, its text, or an array as JSON text. */
  columns: ReadonlyArray<{ name: string; readAs: 'native' | 'text' | 'json-array' }>;
  /** One month of a partitioned table (from/to: YYYY-MM-DD, to excluded), or its null rows. */
  where:
    | { column: PartitionColumn; from: string; to: string }
    | { column: PartitionColumn; isNull: true }
    | null;
  orderBy: readonly string[];
}

function selectList(source: RowSource): RawBuilder<unknown> {
  return sql.join(
    source.columns.map(({ name, readAs }) => {
      const column = sql.id(name);
      if (readAs === 'native') return column;
      if (readAs === 'text') return sql`${column}::text as ${column}`;
      return sql`to_json(${column})::text as ${column}`;
    }),
  );
}

function whereClause(source: RowSource): RawBuilder<unknown> {
  const where = source.where;
  if (where === null) return sql``;
  const column = sql.id(where.column.name);
  if ('isNull' in where) return sql`where ${column} is null`;
  // Literals, not parameters: DECLARE takes none on every path; from and to are dates we made.
  const bound = (day: string) =>
    where.column.typeName === 'date'
      ? sql`${sql.lit(day)}::date`
      : sql`${sql.lit(`${day} 00:00:00+00`)}::timestamptz`;
  return sql`where ${column} >= ${bound(where.from)} and ${column} < ${bound(where.to)}`;
}

/**
 * The rows of `source` in batches of at most `batchRows`, through a cursor of the current
 * transaction (call it inside one): memory holds one batch, however large the table.
 */
export async function* readRowBatches(
  db: Kysely<Database>,
  source: RowSource,
  batchRows: number,
): AsyncGenerator<Array<Record<string, unknown>>> {
  const order =
    source.orderBy.length === 0
      ? sql``
      : sql`order by ${sql.join(source.orderBy.map((c) => sql.id(c)))}`;
  await sql`declare weblate_mirror_export no scroll cursor for
    select ${selectList(source)} from ${sql.table(`weblate.${source.table}`)}
    ${whereClause(source)} ${order}`.execute(db);
  try {
    for (;;) {
      const { rows } = await sql<Record<string, unknown>>`
        fetch forward ${sql.lit(batchRows)} from weblate_mirror_export`.execute(db);
      if (rows.length > 0) yield rows;
      if (rows.length < batchRows) return;
    }
  } finally {
    await sql`close weblate_mirror_export`.execute(db).catch(() => undefined);
  }
}

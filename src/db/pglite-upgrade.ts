import { existsSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';

import { ExplainedError } from '../errors.ts';
import type { Database } from './database.ts';
import { DiskRoom, freeBytes } from './embedded-limits.ts';
import { migrateTo, unknownMigrations } from './schema-migrations.ts';

/**
 * The embedded database's folder is a PostgreSQL data directory, readable only by the major
 * release that wrote it. weblate-mirror's first releases embedded PostgreSQL 17 (PGlite 0.4);
 * since PGlite 0.5 it is 18. A folder of 17 is moved over by loading it with the release that
 * wrote it (the `pglite-pg17` dependency) and copying every row into a new 18 cluster that the
 * same migrations built (docs/reliability.md, "Upgrades").
 */
export const EMBEDDED_MAJOR = 18;

/** The folder an upgrade builds before it replaces pgdata: left over only by a crash. */
const UPGRADING = 'pgdata.upgrading';
/** Blocks (8 kB) copied per statement: the copy holds one chunk in memory at a time. */
const CHUNK_BLOCKS = 2048;

export interface EmbeddedUpgrade {
  from: number;
  to: number;
  /** Where the old folder was kept. */
  kept: string;
  rows: number;
}

/** The PostgreSQL major release of the cluster in dataDir, or null without one. */
export function clusterMajor(dataDir: string): number | null {
  const file = join(dataDir, 'pgdata', 'PG_VERSION');
  if (!existsSync(file)) return null;
  return Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
}

/**
 * Whether the folder in dataDir must be moved to EMBEDDED_MAJOR before it opens; throws, saying
 * why, when it cannot be opened by this release, or must not be moved by a read-only command.
 */
export function needsMove(dataDir: string, readOnly: boolean): boolean {
  const major = clusterMajor(dataDir);
  if (major === null || major === EMBEDDED_MAJOR) return false;
  if (major > EMBEDDED_MAJOR)
    throw new ExplainedError(
      `the embedded database at ${dataDir} was made by a newer weblate-mirror (PostgreSQL ${major}; this release reads ${EMBEDDED_MAJOR}): upgrade weblate-mirror`,
    );
  if (major !== 17)
    throw new ExplainedError(
      `the embedded database at ${dataDir} is PostgreSQL ${major}, which no weblate-mirror release made`,
    );
  if (readOnly)
    throw new ExplainedError(
      `the embedded database at ${dataDir} was made by an earlier weblate-mirror (PostgreSQL ${major}): run \`weblate-mirror migrate\` once to move it to PostgreSQL ${EMBEDDED_MAJOR}`,
    );
  return true;
}

interface Table {
  name: string;
  columns: string[];
  blocks: number;
}

/**
 * The move writes a second copy of the database beside the old folder, which it keeps, in
 * a space the old folder's size bounds: it starts only where the disk holds that and the
 * reserve a write keeps free. A crashed attempt's folder counts as room: the move replaces it.
 */
export function checkRoomToMove(dataDir: string, free: (folder: string) => number = freeBytes) {
  new DiskRoom(dataDir, free).check('move', {
    writes: folderBytes(join(dataDir, 'pgdata')),
    frees: folderBytes(join(dataDir, UPGRADING)),
  });
}

/** Bytes of the files under `path` (none where it is missing). */
function folderBytes(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = lstatSync(path);
  if (!stats.isDirectory()) return stats.size;
  return readdirSync(path).reduce((sum, name) => sum + folderBytes(join(path, name)), 0);
}

/**
 * Moves the PostgreSQL 17 cluster in dataDir to a new 18 cluster, row for row, and keeps the
 * old folder beside it as `pgdata-pg17`. The caller holds the folder's lock. A crash before
 * the final rename leaves pgdata as it was; the next attempt starts over.
 */
export async function upgradeEmbeddedCluster(
  dataDir: string,
  openNew: (pgdata: string) => Promise<PGlite>,
): Promise<EmbeddedUpgrade> {
  const from = clusterMajor(dataDir) ?? EMBEDDED_MAJOR;
  const pgdata = join(dataDir, 'pgdata');
  const building = join(dataDir, UPGRADING);
  rmSync(building, { recursive: true, force: true });
  const { PGlite: PGlite17 } = await import('pglite-pg17');
  const old = await PGlite17.create(pgdata);
  let rows = 0;
  try {
    const fresh = await openNew(building);
    try {
      rows = await copyCluster(old as unknown as PGlite, fresh);
    } finally {
      await fresh.close();
    }
  } finally {
    await old.close();
  }
  let kept = join(dataDir, `pgdata-pg${from}`);
  for (let n = 2; existsSync(kept); n++) kept = join(dataDir, `pgdata-pg${from}.${n}`);
  renameSync(pgdata, kept);
  renameSync(building, pgdata);
  return { from, to: EMBEDDED_MAJOR, kept, rows };
}

/** Builds the old cluster's schema in `fresh` by the same migrations, then copies its rows. */
async function copyCluster(old: PGlite, fresh: PGlite): Promise<number> {
  await fresh.exec(`set TimeZone = 'UTC'`);
  const applied = await appliedMigrations(old);
  const unknown = unknownMigrations(applied);
  if (unknown.length > 0)
    throw new ExplainedError(
      `the embedded database holds migrations this release does not know (${unknown.join(', ')}); upgrade weblate-mirror`,
    );
  const last = applied.at(-1);
  if (last === undefined) return 0;
  const db = new Kysely<Database>({ dialect: new PGliteDialect(fresh) });
  await migrateTo(db, last);

  const tables = await listTables(old);
  const target = new Map((await listTables(fresh)).map((t) => [t.name, t]));
  for (const table of tables) {
    const other = target.get(table.name);
    if (other === undefined || other.columns.join() !== table.columns.join())
      throw new ExplainedError(
        `cannot move the embedded database: table weblate.${table.name} differs between its migrations and the folder`,
      );
  }
  let rows = 0;
  // Triggers (and foreign keys, which are triggers) stay off: the rows were checked when written.
  await fresh.transaction(async (tx) => {
    await tx.exec('set local session_replication_role = replica');
    await tx.exec(`truncate ${tables.map((t) => `weblate.${quote(t.name)}`).join(', ')}`);
    for (const table of tables) {
      const columns = table.columns.map(quote).join(', ');
      for (let block = 0; block < Math.max(table.blocks, 1); block += CHUNK_BLOCKS) {
        const range = `ctid >= '(${block},0)'::tid and ctid < '(${block + CHUNK_BLOCKS},0)'::tid`;
        const out = await old.query(
          `copy (select ${columns} from weblate.${quote(table.name)} where ${range}) to '/dev/blob'`,
        );
        if (out.blob === undefined || out.blob.size === 0) continue;
        await tx.query(`copy weblate.${quote(table.name)} (${columns}) from '/dev/blob'`, [], {
          blob: out.blob,
        });
      }
      const counted = await countRows(old, table.name);
      const copied = await countRows(tx, table.name);
      if (counted !== copied)
        throw new ExplainedError(
          `cannot move the embedded database: weblate.${table.name} has ${counted} rows, ${copied} were copied`,
        );
      rows += counted;
    }
    const sequences = await old.query<{ name: string; last_value: string | null }>(
      `select sequencename as name, last_value::text from pg_sequences where schemaname = 'weblate'`,
    );
    for (const sequence of sequences.rows)
      if (sequence.last_value !== null)
        await tx.query(`select setval($1, $2::bigint, true)`, [
          `weblate.${quote(sequence.name)}`,
          sequence.last_value,
        ]);
  });
  await fresh.exec('checkpoint');
  return rows;
}

async function appliedMigrations(client: PGlite): Promise<string[]> {
  const exists = await client.query<{ found: boolean }>(
    `select to_regclass('weblate.kysely_migration') is not null as found`,
  );
  if (!exists.rows[0]?.found) return [];
  const result = await client.query<{ name: string }>(
    'select name from weblate.kysely_migration order by name',
  );
  return result.rows.map((row) => row.name);
}

/** The weblate schema's tables with their stored columns, in order, and their size in blocks. */
async function listTables(client: PGlite): Promise<Table[]> {
  const result = await client.query<{ name: string; columns: string[]; blocks: string }>(`
    select c.relname as name,
           array_agg(a.attname::text order by a.attnum) as columns,
           (pg_relation_size(c.oid) / current_setting('block_size')::int)::text as blocks
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                          and a.attgenerated = ''
     where n.nspname = 'weblate' and c.relkind = 'r' and c.relname <> 'kysely_migration_lock'
     group by c.oid, c.relname
     order by c.relname`);
  return result.rows.map((row) => ({
    name: row.name,
    columns: row.columns,
    blocks: Number(row.blocks),
  }));
}

async function countRows(client: Pick<PGlite, 'query'>, table: string): Promise<number> {
  const result = await client.query<{ n: string }>(
    `select count(*)::text as n from weblate.${quote(table)}`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';

import { explainConnectError, type PostgresTarget } from './connect-errors.ts';
import { type CopyCapability, copyCapability, guardedPool } from './copy.ts';
import type { Database } from './database.ts';
import { acquireDirectoryLock, type DirectoryLock } from './directory-lock.ts';
import { DEFAULT_MEMORY_LIMIT_MB, MemoryLimit } from './memory-limit.ts';
import { storedCluster } from './pglite-cluster.ts';

export type DatabaseKind = 'postgres' | 'pglite';

export interface DbHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Where the data lives, without credentials: a host/database or a folder. */
  location: string;
  /** Transactions that rows can be COPYed into: PostgreSQL has them, the embedded database not. */
  copy: CopyCapability | null;
  /** Where a sync stops before the embedded database runs out of memory; null on PostgreSQL. */
  memoryLimit: MemoryLimit | null;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Upper bound of pooled connections on PostgreSQL. */
  poolSize?: number;
  /** How long to wait for another process to release the embedded database. */
  lockWaitMs?: number;
  /** The embedded database's memory limit in MB (default DEFAULT_MEMORY_LIMIT_MB). */
  memoryLimitMb?: number;
}

// Types read as exact text: int8 (a JS number rounds past 2^53), numeric, and the
// timestamp types (a JS Date keeps only milliseconds). jsonb is parsed as usual.
const TEXT_OIDS = [20, 1700, 1082, 1114, 1184] as const;

/**
 * The embedded database's buffer cache. Its memory is WebAssembly memory, which never
 * shrinks; PGlite's default of 128 MB raised the demo sync's peak RSS from 434 MB to 569 MB.
 * The data files stay in the operating system's page cache either way.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/** Opens PostgreSQL when a URL is configured, else the embedded PGlite database in dataDir. */
export async function createDb(options: DbOptions): Promise<DbHandle> {
  return options.databaseUrl === null
    ? openPglite(options)
    : openPostgres(options.databaseUrl, options.poolSize);
}

/** host:port and database of a postgres:// URL; the credentials are left out. */
function postgresTarget(databaseUrl: string): PostgresTarget {
  const url = new URL(databaseUrl);
  return {
    server: `${url.hostname}:${url.port || 5432}`,
    database: decodeURIComponent(url.pathname.slice(1)),
  };
}

function openPostgres(databaseUrl: string, poolSize = 10): DbHandle {
  const typeParsers = pg.types;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    options: '-c TimeZone=UTC',
    application_name: 'weblate-mirror',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
        (TEXT_OIDS as readonly number[]).includes(oid)
          ? (value: string) => value
          : (typeParsers.getTypeParser(oid, format ?? 'text') as (
              value: string,
            ) => unknown)) as typeof typeParsers.getTypeParser,
    },
  });
  // An idle client losing its server (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  const target = postgresTarget(databaseUrl);
  const guarded = guardedPool(pool, (err) => explainConnectError(err, target));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guarded }) });
  return {
    db,
    kind: 'postgres',
    location: `${target.server}/${target.database}`,
    copy: copyCapability(guarded),
    memoryLimit: null,
    // Kysely ends the pool only if it ever queried; COPY transactions use the pool directly.
    close: async () => {
      await db.destroy();
      await guarded.end();
    },
  };
}

async function openPglite(options: DbOptions): Promise<DbHandle> {
  mkdirSync(options.dataDir, { recursive: true });
  const lock: DirectoryLock = await acquireDirectoryLock(
    options.dataDir,
    options.lockWaitMs ?? 60_000,
  );
  try {
    const identity = (value: string) => value;
    const parsers = Object.fromEntries(TEXT_OIDS.map((oid) => [oid, identity]));
    const pgdata = join(options.dataDir, 'pgdata');
    const isNew = !existsSync(join(pgdata, 'PG_VERSION'));
    const client = await PGlite.create(pgdata, {
      loadDataDir: (isNew && storedCluster()) || undefined,
      postgresqlconf: [`shared_buffers=${PGLITE_SHARED_BUFFERS}`],
      parsers: { ...parsers, [pgliteTypes.JSONB]: (value: string) => JSON.parse(value) as unknown },
    });
    await client.exec(`set TimeZone = 'UTC'`);
    const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    return {
      db,
      kind: 'pglite',
      location: options.dataDir,
      copy: null,
      memoryLimit: new MemoryLimit(options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB),
      close: async () => {
        try {
          // Kysely closes the client only if a query went through it.
          await db.destroy();
          if (!client.closed) await client.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}

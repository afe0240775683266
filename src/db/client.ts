import { type Dirent, mkdirSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { type Driver, Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';

import {
  DatabaseFailureError,
  ExplainedError,
  MissingDatabaseError,
  NoMirrorError,
  toError,
} from '../errors.ts';
import { explainConnectError, type PostgresTarget } from './connect-errors.ts';
import { type CopyCapability, copyCapability, guardedPool } from './copy.ts';
import type { Database } from './database.ts';
import { acquireDirectoryLock, type DirectoryLock, type LockHolder } from './directory-lock.ts';
import {
  DEFAULT_MEMORY_LIMIT_MB,
  DiskRoom,
  EmbeddedLimits,
  freeBytes,
  MemoryLimit,
} from './embedded-limits.ts';
import { storedCluster } from './pglite-cluster.ts';
import {
  checkRoomToMove,
  clusterMajor,
  needsMove,
  upgradeEmbeddedCluster,
} from './pglite-upgrade.ts';

export type DatabaseKind = 'postgres' | 'pglite';

export interface DbHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Where the data lives, without credentials: a host/database or a folder. */
  location: string;
  /** Transactions that rows can be COPYed into: PostgreSQL has them, the embedded database not. */
  copy: CopyCapability | null;
  /** Where a sync stops before the embedded database runs out of memory or disk; null on PostgreSQL. */
  limits: EmbeddedLimits | null;
  /**
   * Runs one statement in a read-only transaction that is then rolled back, and returns its
   * rows. The statement goes over the extended protocol on both databases, so the server
   * refuses a text of several statements (42601) instead of running them all.
   */
  readOnlyStatement(text: string): Promise<Array<Record<string, unknown>>>;
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
  /** Told what opening did beyond opening (an embedded folder moved to a new release). */
  onNotice?: (message: string) => void;
  /**
   * Shares the embedded session with others in this process (`serve`'s clients): given the
   * opened PGlite client, the turns every query of the handle takes. Ignored on PostgreSQL.
   */
  shareSession?: (client: PGlite) => Promise<SessionTurns>;
  /** Said by the embedded folder's lock to a process waiting for it (directory-lock.ts). */
  lockHolder?: LockHolder;
}

/** A turn on the embedded session: begun before a Kysely connection is taken, ended after. */
export interface SessionTurns {
  begin(): Promise<void>;
  end(): void;
}

// Types read as exact text: int8 (a JS number rounds past 2^53), numeric, and the
// timestamp types (a JS Date keeps only milliseconds). jsonb is parsed as usual.
const TEXT_OIDS = [20, 1700, 1082, 1114, 1184] as const;

/**
 * The embedded database's buffer cache: WebAssembly memory, which never shrinks, so smaller
 * than PGlite's 128 MB default (docs/performance.md#memory).
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * Opens PostgreSQL when a URL is configured, else the embedded PGlite database in dataDir;
 * an embedded database that does not exist yet is created.
 */
export async function createDb(options: DbOptions): Promise<DbHandle> {
  return options.databaseUrl === null
    ? openPglite(options, { readOnly: false })
    : openPostgres(options.databaseUrl, { readOnly: false, poolSize: options.poolSize });
}

/**
 * Opens an existing mirror for the commands that only read. It creates nothing: no folder,
 * no cluster, no database, and no lock file where there is no database. Where there is no
 * mirror it fails with NoMirrorError, naming the place and what to do. Every transaction
 * of the handle is read-only.
 */
export async function openMirror(options: DbOptions): Promise<DbHandle> {
  if (options.databaseUrl === null && !hasCluster(options.dataDir))
    throw new NoMirrorError(noEmbeddedMirror(options.dataDir));
  const handle =
    options.databaseUrl === null
      ? await openPglite(options, { readOnly: true })
      : openPostgres(options.databaseUrl, { readOnly: true, poolSize: options.poolSize });
  try {
    const found = await sql<{
      ok: boolean;
    }>`select to_regclass('weblate.sync_runs') is not null as ok`.execute(handle.db);
    if (found.rows[0]?.ok !== true)
      throw new NoMirrorError(
        handle.kind === 'pglite'
          ? noEmbeddedMirror(options.dataDir)
          : `no mirror in ${handle.location}: the database has no weblate schema; run \`weblate-mirror sync\` first, or check DATABASE_URL (--database-url)`,
      );
    return handle;
  } catch (err) {
    await handle.close();
    if (err instanceof MissingDatabaseError && options.databaseUrl !== null) {
      const { server, database } = postgresTarget(options.databaseUrl);
      throw new NoMirrorError(
        `no mirror at ${server}: there is no database "${database}"; create it and run \`weblate-mirror sync\`, or check DATABASE_URL (--database-url)`,
        { cause: err },
      );
    }
    throw err;
  }
}

/** Where the database of `options` is, as DbHandle.location says it, without opening it. */
export function locationOf(options: Pick<DbOptions, 'databaseUrl' | 'dataDir'>): string {
  if (options.databaseUrl === null) return options.dataDir;
  const { server, database } = postgresTarget(options.databaseUrl);
  return `${server}/${database}`;
}

/**
 * Where a folder holds no mirror: what to do, and the mirrors in the folders below it (the
 * demo's is <default folder>/demo) with the flag that reads them.
 */
function noEmbeddedMirror(dataDir: string): string {
  const below = mirrorsBelow(dataDir).map((dir) => `--data-dir ${shownPath(dir)}`);
  if (below.length === 0)
    return `no mirror in ${dataDir}: run \`weblate-mirror sync\` first, or check --data-dir (WEBLATE_MIRROR_DATA_DIR)`;
  const found =
    below.length === 1 ? `one below it: ${below[0]}` : `some below it: ${below.join(', ')}`;
  return `no mirror in ${dataDir}, but ${found}; read it with that flag (or WEBLATE_MIRROR_DATA_DIR), or run \`weblate-mirror sync\` to make one here`;
}

/** Folders up to two levels below `dataDir` that hold an embedded mirror, at most ten. */
function mirrorsBelow(dataDir: string, depth = 2): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dataDir, { withFileTypes: true });
  } catch {
    return []; // no folder there, or not one we may read
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name === 'pgdata') continue;
    const dir = join(dataDir, entry.name);
    if (hasCluster(dir)) found.push(dir);
    else if (depth > 1) found.push(...mirrorsBelow(dir, depth - 1));
  }
  return found.slice(0, 10);
}

/** A path as a user would type it here: relative to the working folder when inside it. */
function shownPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}

function hasCluster(dataDir: string): boolean {
  return clusterMajor(dataDir) !== null;
}

interface OpenOptions {
  /** Every transaction read-only (openMirror). */
  readOnly: boolean;
  poolSize?: number;
}

/** host:port and database of a postgres:// URL; the credentials are left out. */
function postgresTarget(databaseUrl: string): PostgresTarget {
  const url = new URL(databaseUrl);
  return {
    server: `${url.hostname}:${url.port || 5432}`,
    database: decodeURIComponent(url.pathname.slice(1)),
  };
}

function openPostgres(databaseUrl: string, options: OpenOptions): DbHandle {
  const typeParsers = pg.types;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Readers (report, status, query) run without JIT: the reporting views' row estimates
    // reach millions, and compiling cost more than it saved (docs/performance.md, Reporting).
    options: `-c TimeZone=UTC${options.readOnly ? ' -c default_transaction_read_only=on -c jit=off' : ''}`,
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
    location: locationOf({ databaseUrl, dataDir: '' }),
    copy: copyCapability(guarded),
    limits: null,
    async readOnlyStatement(text) {
      const client = await guarded.connect();
      try {
        await client.query('begin read only');
        try {
          // node-postgres sends a text without parameters over the simple protocol, which
          // runs every statement in it; the extended protocol takes one.
          const result = await client.query({ text, queryMode: 'extended' } as pg.QueryConfig);
          return result.rows as Array<Record<string, unknown>>;
        } finally {
          await client.query('rollback');
        }
      } finally {
        client.release();
      }
    },
    // Kysely ends the pool only if it ever queried; COPY transactions use the pool directly.
    close: async () => {
      await db.destroy();
      await guarded.end();
    },
  };
}

async function openPglite(options: DbOptions, open: OpenOptions): Promise<DbHandle> {
  // openMirror checked that the cluster exists: only a database being created needs a folder.
  if (!open.readOnly) mkdirSync(options.dataDir, { recursive: true });
  const lock: DirectoryLock = await acquireDirectoryLock(
    options.dataDir,
    options.lockWaitMs ?? 60_000,
    options.lockHolder,
  ).catch((err: unknown) => {
    // The lock file could not be written (a full disk); another process's lock says itself.
    throw (err as NodeJS.ErrnoException).code === undefined
      ? err
      : explainEmbeddedOpenError(err, options.dataDir);
  });
  try {
    const pgdata = join(options.dataDir, 'pgdata');
    if (needsMove(options.dataDir, open.readOnly)) {
      checkRoomToMove(options.dataDir);
      const upgrade = await upgradeEmbeddedCluster(options.dataDir, (folder) =>
        createPglite(folder, true),
      );
      options.onNotice?.(
        `moved the embedded database at ${options.dataDir} from PostgreSQL ${upgrade.from} to ${upgrade.to} (${upgrade.rows} rows); the old folder is kept at ${upgrade.kept}: remove it once the mirror is as expected`,
      );
    }
    const isNew = !open.readOnly && !hasCluster(options.dataDir);
    const client = await createPglite(pgdata, isNew);
    await client.exec(
      `set TimeZone = 'UTC'${open.readOnly ? '; set default_transaction_read_only = on' : ''}`,
    );
    const turns = await options.shareSession?.(client);
    const dialect =
      turns === undefined ? new PGliteDialect(client) : new TurnTakingDialect(client, turns);
    const db = new Kysely<Database>({ dialect });
    return {
      db,
      kind: 'pglite',
      location: options.dataDir,
      copy: null,
      limits: new EmbeddedLimits(
        new MemoryLimit(options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB),
        new DiskRoom(options.dataDir),
      ),
      // PGlite's query() always uses the extended protocol.
      readOnlyStatement: (text) =>
        client.transaction(async (tx) => {
          await tx.exec('set transaction read only');
          const result = await tx.query<Record<string, unknown>>(text);
          await tx.rollback();
          return result.rows;
        }),
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
    throw explainEmbeddedOpenError(err, options.dataDir);
  }
}

/** PGlite's dialect whose every connection (a statement or a transaction) is a turn. */
class TurnTakingDialect extends PGliteDialect {
  readonly #turns: SessionTurns;

  constructor(client: PGlite, turns: SessionTurns) {
    super(client);
    this.#turns = turns;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const turns = this.#turns;
    return {
      init: () => driver.init(),
      acquireConnection: async () => {
        await turns.begin();
        try {
          return await driver.acquireConnection();
        } catch (err) {
          turns.end();
          throw err;
        }
      },
      beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
      commitTransaction: (connection) => driver.commitTransaction(connection),
      rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
      releaseConnection: async (connection) => {
        try {
          await driver.releaseConnection(connection);
        } finally {
          turns.end();
        }
      },
      destroy: () => driver.destroy(),
    };
  }
}

/** A PGlite client on pgdata, loaded from the stored empty cluster when it is new. */
function createPglite(pgdata: string, isNew: boolean): Promise<PGlite> {
  const identity = (value: string) => value;
  const parsers = Object.fromEntries(TEXT_OIDS.map((oid) => [oid, identity]));
  return PGlite.create(pgdata, {
    loadDataDir: (isNew && storedCluster()) || undefined,
    postgresqlconf: [`shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    parsers: { ...parsers, [pgliteTypes.JSONB]: (value: string) => JSON.parse(value) as unknown },
  });
}

/**
 * The embedded database's failure to open, said with its folder: PGlite aborts without a
 * word when it cannot write (`Aborted()`), so a full disk is told by the space left.
 */
function explainEmbeddedOpenError(err: unknown, dataDir: string): Error {
  const error = toError(err);
  if (error instanceof ExplainedError) return error;
  let free: number | null = null;
  try {
    free = freeBytes(dataDir);
  } catch {
    // No folder, or no statfs: the error says what it says.
  }
  if (free !== null && free < 1024 * 1024)
    return new DatabaseFailureError(
      `the embedded database at ${dataDir} cannot be opened: its disk is full (${free} bytes free); free some space and try again`,
      { cause: err },
    );
  return new DatabaseFailureError(
    `the embedded database at ${dataDir} could not be opened: ${error.message.split('\n', 1)[0]}`,
    { cause: err },
  );
}

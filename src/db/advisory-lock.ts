import { type Kysely, sql } from 'kysely';

import { sleep } from '../lib/sleep.ts';
import type { DbHandle } from './client.ts';
import type { Database } from './database.ts';

// Named locks that keep two runs of one job (or two jobs that write the mirror) apart, in a
// process and across processes sharing one database (docs/internals.md#named-locks).

/** First key of every advisory lock of weblate-mirror (the two-key form; "WMJB"). */
export const LOCK_NAMESPACE = 0x574d4a42;

export interface LockSession {
  /** Takes the lock if it is free and returns true; false when another session holds it. */
  tryLock(name: string): Promise<boolean>;
  /**
   * Waits until the lock is free and takes it, trying every `pollMs`. Rejects with the
   * signal's reason when it aborts first. `onWait` is called once, if the lock was taken.
   */
  waitLock(
    name: string,
    options: { signal?: AbortSignal; pollMs?: number; onWait?: () => void },
  ): Promise<void>;
  /**
   * After the database went away: a session whose connection died lost its locks with it,
   * so it takes a new connection and each lock again, waiting for any another process took
   * meanwhile. A session whose connection survived keeps them, and this does nothing.
   */
  regain(options: { signal?: AbortSignal; pollMs?: number; onWait?: () => void }): Promise<void>;
}

/** Names held in this process, per database (by its Kysely instance). */
const heldInProcess = new WeakMap<Kysely<Database>, Set<string>>();

/** The second key of a lock name: its 32-bit FNV-1a hash, as a signed int4. */
export function lockKey(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/**
 * Runs `work` with a lock session; every lock it took is released when `work` settles (on
 * PostgreSQL before its connection goes back to the pool).
 */
export async function withLockSession<T>(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  work: (session: LockSession) => Promise<T>,
): Promise<T> {
  if (handle.kind === 'pglite') return runSession(handle.db, null, work);
  return runSession(handle.db, await holdConnection(handle.db), work);
}

/** A connection of the pool, kept out of it until `release`. */
interface HeldConnection {
  conn: Kysely<Database>;
  release(): Promise<void>;
}

function holdConnection(db: Kysely<Database>): Promise<HeldConnection> {
  return new Promise((resolve, reject) => {
    let letGo: () => void = () => undefined;
    const released = new Promise<void>((done) => (letGo = done));
    const settled = db.connection().execute(async (conn) => {
      resolve({
        conn,
        release: async () => {
          letGo();
          await settled.catch(() => undefined);
        },
      });
      await released;
    });
    // Only a connection that could not be opened rejects before `resolve`.
    settled.catch(reject);
  });
}

async function isAlive(conn: Kysely<Database>): Promise<boolean> {
  return sql`select 1`.execute(conn).then(
    () => true,
    () => false,
  );
}

async function runSession<T>(
  db: Kysely<Database>,
  first: HeldConnection | null,
  work: (session: LockSession) => Promise<T>,
): Promise<T> {
  let held = first;
  let registry = heldInProcess.get(db);
  if (registry === undefined) {
    registry = new Set();
    heldInProcess.set(db, registry);
  }
  const local = registry;
  const mine: string[] = [];
  const tryLock = async (name: string): Promise<boolean> => {
    if (mine.includes(name)) return true;
    if (local.has(name)) return false;
    local.add(name);
    try {
      if (held !== null && !(await tryAdvisoryLock(held.conn, name))) {
        local.delete(name);
        return false;
      }
    } catch (err) {
      local.delete(name);
      throw err;
    }
    mine.push(name);
    return true;
  };
  const waitFor = async (
    take: () => Promise<boolean>,
    options: { signal?: AbortSignal; pollMs?: number; onWait?: () => void },
  ) => {
    let waited = false;
    while (!(await take())) {
      if (!waited) options.onWait?.();
      waited = true;
      await sleep(options.pollMs ?? 1000, options.signal);
    }
  };
  const session: LockSession = {
    tryLock,
    waitLock: (name, options) => waitFor(() => tryLock(name), options),
    async regain(options) {
      if (held === null || (await isAlive(held.conn))) return;
      const dead = held;
      held = await holdConnection(db);
      await dead.release();
      for (const name of mine) {
        const conn = held.conn;
        await waitFor(() => tryAdvisoryLock(conn, name), options);
      }
    },
  };
  try {
    return await work(session);
  } finally {
    for (const name of mine.reverse()) {
      // A connection that broke has lost its locks with it; nothing more to release.
      if (held !== null) await advisoryUnlock(held.conn, name).catch(() => undefined);
      local.delete(name);
    }
    await held?.release();
  }
}

async function tryAdvisoryLock(conn: Kysely<Database>, name: string): Promise<boolean> {
  const result = await sql<{ locked: boolean }>`
    select pg_try_advisory_lock(${LOCK_NAMESPACE}::int4, ${lockKey(name)}::int4) as locked`.execute(
    conn,
  );
  return result.rows[0]?.locked === true;
}

async function advisoryUnlock(conn: Kysely<Database>, name: string): Promise<void> {
  await sql`select pg_advisory_unlock(${LOCK_NAMESPACE}::int4, ${lockKey(name)}::int4)`.execute(
    conn,
  );
}

/**
 * Whether another session holds `name`, for a reader that may not take it (`status`). On
 * the embedded database, a reader that could open the folder is its only process.
 */
export async function isLockHeld(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  name: string,
): Promise<boolean> {
  if (handle.kind === 'pglite') return false;
  // A two-key advisory lock shows as classid, objid (unsigned) and objsubid 2, in the
  // database it was taken in (mirrors in other databases of the server hold their own).
  const result = await sql<{ held: boolean }>`
    select exists (
      select from pg_locks
      where locktype = 'advisory' and objsubid = 2 and granted
        and database = (select oid from pg_database where datname = current_database())
        and classid = ${String(LOCK_NAMESPACE >>> 0)}::oid
        and objid = ${String(lockKey(name) >>> 0)}::oid
    ) as held`.execute(handle.db);
  return result.rows[0]?.held === true;
}

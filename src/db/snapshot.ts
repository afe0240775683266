import { type Kysely, sql } from 'kysely';

import type { Database } from './database.ts';

/** Runs one read on a free connection of the snapshot; reads beyond the connections wait. */
export type SnapshotRead = <T>(read: (db: Kysely<Database>) => Promise<T>) => Promise<T>;

/**
 * Runs `work` in one snapshot of the database, so that every figure it reads agrees with the
 * others while a sync writes: a read-only REPEATABLE READ transaction, and on PostgreSQL up to
 * `width - 1` more that import its snapshot (pg_export_snapshot), so that reads run side by
 * side. Width 1 for the embedded database, which serves one statement at a time.
 */
export async function inOneSnapshot<T>(
  db: Kysely<Database>,
  width: number,
  work: (read: SnapshotRead) => Promise<T>,
): Promise<T> {
  // Already inside a transaction (a caller's): its snapshot, one read at a time.
  if (db.isTransaction) return work(sharing([db]));
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (leader) => {
      const id = width > 1 ? await exportSnapshot(leader) : null;
      if (id === null) return work(sharing([leader]));
      const connections: Kysely<Database>[] = [leader];
      const open = (left: number): Promise<T> =>
        left === 0
          ? work(sharing(connections))
          : db
              .transaction()
              .setIsolationLevel('repeatable read')
              .setAccessMode('read only')
              .execute(async (trx) => {
                await sql`set transaction snapshot ${sql.lit(id)}`.execute(trx);
                connections.push(trx);
                return open(left - 1);
              });
      return open(width - 1);
    });
}

/** The snapshot's id, or null where it cannot be shared (a standby exports none). */
async function exportSnapshot(db: Kysely<Database>): Promise<string | null> {
  const { rows } = await sql<{ id: string | null }>`
    select case when pg_is_in_recovery() then null else pg_export_snapshot() end as id`.execute(db);
  const id = rows[0]?.id ?? null;
  return id !== null && /^[0-9A-F-]+$/i.test(id) ? id : null;
}

/** Hands the connections out one read at a time, in the order the reads asked. */
function sharing(connections: readonly Kysely<Database>[]): SnapshotRead {
  const free = [...connections];
  const waiting: ((db: Kysely<Database>) => void)[] = [];
  return async (read) => {
    const db = free.pop() ?? (await new Promise<Kysely<Database>>((r) => waiting.push(r)));
    try {
      return await read(db);
    } finally {
      const next = waiting.shift();
      if (next === undefined) free.push(db);
      else next(db);
    }
  };
}

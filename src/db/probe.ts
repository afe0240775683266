import { sql } from 'kysely';

import type { DbHandle } from './client.ts';

/**
 * Writes in a transaction that is rolled back (`weblate-mirror check`): a temporary table and
 * a row in it, which a read-only server, a standby or a full disk refuses, then the tables of
 * the weblate schema the user may not insert into, update and delete from (all of them a
 * sync writes or may write). Nothing stays: even a read-only handle may run it.
 */
export async function probeWrite(handle: DbHandle): Promise<string[]> {
  const trx = await handle.db.startTransaction().execute();
  try {
    await sql`set transaction read write`.execute(trx);
    await sql`create temporary table weblate_mirror_check (n int) on commit drop`.execute(trx);
    await sql`insert into weblate_mirror_check values (1)`.execute(trx);
    const denied = await sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'weblate' and c.relkind in ('r', 'p')
        and not has_table_privilege(c.oid, 'insert, update, delete')
      order by 1`.execute(trx);
    return denied.rows.map((r) => r.name);
  } finally {
    await trx.rollback().execute();
  }
}

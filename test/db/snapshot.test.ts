import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { inOneSnapshot } from '../../src/db/snapshot.ts';
import { useTestDatabases } from '../helpers/database.ts';

describe('inOneSnapshot', () => {
  const databases = useTestDatabases();
  let handle: DbHandle;

  beforeAll(async () => {
    handle = await databases.migrated();
  });

  const records = (db: DbHandle['db']) =>
    sql<{ n: number; isolation: string; pid: number }>`
      select count(*)::integer as n, current_setting('transaction_isolation') as isolation,
             pg_backend_pid() as pid
      from weblate.rejected_records`
      .execute(db)
      .then((r) => r.rows[0]!);

  async function addRecord(): Promise<void> {
    await sql`insert into weblate.rejected_records (resource, url, reason, raw)
      values ('units', 'https://weblate.example/api/units/1/', 'test', '{}')`.execute(handle.db);
  }

  it('reads in one repeatable-read snapshot, as wide as it is asked on PostgreSQL', async () => {
    const width = handle.kind === 'postgres' ? 3 : 1;
    const before = await records(handle.db);
    const seen = await inOneSnapshot(handle.db, width, async (read) => {
      const first = await read(records);
      // Another session commits a row: no read of the snapshot sees it, on any connection.
      if (handle.kind === 'postgres') await addRecord();
      const rest = await Promise.all(
        Array.from({ length: 6 }, () =>
          read(async (db) => {
            const row = await records(db);
            await sql`select pg_sleep(0.05)`.execute(db);
            return row;
          }),
        ),
      );
      return [first, ...rest];
    });
    expect(new Set(seen.map((s) => s.n))).toEqual(new Set([before.n]));
    expect(new Set(seen.map((s) => s.isolation))).toEqual(new Set(['repeatable read']));
    expect(new Set(seen.map((s) => s.pid)).size).toBe(width);
    if (handle.kind === 'postgres') expect((await records(handle.db)).n).toBe(before.n + 1);
  });

  it("reads in the caller's transaction when it is given one", async () => {
    const n = await handle.db.transaction().execute(async (trx) => {
      await sql`create temporary table inside_only (x integer)`.execute(trx);
      return inOneSnapshot(trx, 3, (read) =>
        read((db) =>
          sql<{ n: number }>`select count(*)::integer as n from inside_only`.execute(db),
        ),
      );
    });
    expect(n.rows[0]!.n).toBe(0);
  });
});

import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { DATABASE_KIND, TEST_DATABASE_URL, useTestDatabases } from '../helpers/database.ts';
import { waitFor } from '../helpers/wait.ts';

const databases = useTestDatabases();

/** Sessions of weblate-mirror connected to the database behind `url`. */
async function mirrorSessions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL! });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = $1 and application_name = 'weblate-mirror'`,
      [new URL(url).pathname.slice(1)],
    );
    return result.rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('the database handle', () => {
  it('can COPY into a write transaction on PostgreSQL only', async () => {
    const handle = await databases.migrated();
    expect(handle.copy !== null).toBe(DATABASE_KIND === 'postgres');
  });

  it.runIf(DATABASE_KIND === 'postgres')(
    'ends its connections on close, also those only COPY transactions used (PostgreSQL)',
    async () => {
      const database = await databases.create();
      const handle = await database.open();
      // No query through Kysely: only a COPY transaction has taken a connection.
      await handle.copy!.transaction(async (trx, copy) => {
        await sql`create temp table t (n int) on commit drop`.execute(trx);
        await copy('copy t (n) from stdin', [Buffer.from('1\n2\n')]);
        const count = await sql<{ n: number }>`select count(*)::int as n from t`.execute(trx);
        expect(count.rows[0]!.n).toBe(2);
      });
      expect(await mirrorSessions(database.databaseUrl!)).toBe(1);
      await handle.close();
      // The server ends a backend a moment after its client hung up.
      await waitFor(
        async () => (await mirrorSessions(database.databaseUrl!)) === 0,
        'the sessions to end',
        5_000,
      ).catch(() => undefined);
      expect(await mirrorSessions(database.databaseUrl!)).toBe(0);
    },
  );
});

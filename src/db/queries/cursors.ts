import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';

/** A stream's cursor for one scope (e.g. changes of one project), or null when it has none yet. */
export async function readCursor<T>(
  db: Kysely<Database>,
  stream: string,
  scope: string,
): Promise<T | null> {
  const row = await db
    .selectFrom('weblate.sync_cursors')
    .select('value')
    .where('stream', '=', stream)
    .where('scope', '=', scope)
    .executeTakeFirst();
  return row === undefined ? null : (row.value as T);
}

/** Writes a cursor; call it in the transaction of the rows it covers. */
export async function writeCursor(
  db: Kysely<Database>,
  stream: string,
  scope: string,
  value: unknown,
): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('weblate.sync_cursors')
    .values({ stream, scope, value: json })
    .onConflict((oc) =>
      oc
        .columns(['stream', 'scope'])
        // The database's clock, as on insert.
        .doUpdateSet({ value: json, updated_at: sql`now()` }),
    )
    .execute();
}

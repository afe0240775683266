import type { Kysely } from 'kysely';

import type { Database } from '../database.ts';

/**
 * Work a sync noticed but has not finished, kept in the database so that a crash cannot
 * lose it: `translation` (its units and statistics need reading), `unit` (a change named
 * it, e.g. a bulk edit that left its last_changed untouched), `language` (its statistics
 * need reading: one of its translations went away).
 */
export type PendingKind = 'translation' | 'unit' | 'language';

/** Notes pending work; already noted ids stay as they are. */
export async function addPending(
  db: Kysely<Database>,
  kind: PendingKind,
  ids: ReadonlyArray<string | number>,
): Promise<void> {
  const unique = [...new Set(ids.map(String))];
  for (let i = 0; i < unique.length; i += 5000) {
    const chunk = unique.slice(i, i + 5000).map((id) => ({ kind, id }));
    await db
      .insertInto('weblate.sync_pending')
      .values(chunk)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** All pending ids of a kind, as decimal strings. */
export async function listPending(db: Kysely<Database>, kind: PendingKind): Promise<string[]> {
  const rows = await db
    .selectFrom('weblate.sync_pending')
    .select('id')
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Marks pending work as done. */
export async function removePending(
  db: Kysely<Database>,
  kind: PendingKind,
  ids: ReadonlyArray<string | number>,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000).map(String);
    await db
      .deleteFrom('weblate.sync_pending')
      .where('kind', '=', kind)
      .where('id', 'in', chunk)
      .execute();
  }
}

/** Forgets every pending id of a kind (after a complete sweep has covered them). */
export async function clearPending(db: Kysely<Database>, kind: PendingKind): Promise<void> {
  await db.deleteFrom('weblate.sync_pending').where('kind', '=', kind).execute();
}

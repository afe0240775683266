import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';

export interface TranslationState {
  lastChange: string | null;
  total: number | null;
  revision: string | null;
  deleted: boolean;
}

/**
 * What the mirror holds of these translations: the values that tell whether a translation
 * changed (Weblate has no ETags; last_change, total and revision are the cheap signal).
 */
export async function readTranslationStates(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<Map<number, TranslationState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('weblate.translations')
    .select(['id', 'last_change', 'total', 'revision', 'deleted_at'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        lastChange: r.last_change,
        total: r.total,
        revision: r.revision,
        deleted: r.deleted_at !== null,
      },
    ]),
  );
}

export interface UnitCountMismatch {
  id: number;
  total: number;
  live: number;
}

/** Live translations in scope whose live mirrored unit count differs from their total. */
export async function findUnitCountMismatches(
  db: Kysely<Database>,
  projectSlugs: readonly string[] | null,
): Promise<UnitCountMismatch[]> {
  const scope =
    projectSlugs === null
      ? sql`true`
      : sql`t.project_slug = any(${`{${projectSlugs.join(',')}}`}::text[])`;
  const result = await sql<UnitCountMismatch>`
    select t.id, t.total, coalesce(u.live, 0)::int as live
    from weblate.translations t
    left join (select translation_id, count(*) as live from weblate.units where deleted_at is null group by translation_id) u
      on u.translation_id = t.id
    where t.deleted_at is null and t.total is not null and ${scope} and coalesce(u.live, 0) <> t.total
    order by t.id`.execute(db);
  return result.rows;
}

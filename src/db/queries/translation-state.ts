import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';

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

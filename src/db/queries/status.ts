import { type Kysely, sql } from 'kysely';

import { type Database, MIRRORED_TABLES } from '../database.ts';

/** Tables reported by `status`: the mirrored records, then the lookups and the run log. */
export const STATUS_TABLES = [
  ...MIRRORED_TABLES,
  'change_actions',
  'unit_states',
  'sync_runs',
] as const;

/** Exact row count of every table of the warehouse. */
export async function countRows(db: Kysely<Database>): Promise<Record<string, number>> {
  const parts = STATUS_TABLES.map(
    (t) => sql`select ${t} as name, count(*)::bigint as rows from ${sql.table(`weblate.${t}`)}`,
  );
  const result = await sql<{
    name: string;
    rows: string;
  }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return Object.fromEntries(result.rows.map((r) => [r.name, Number(r.rows)]));
}

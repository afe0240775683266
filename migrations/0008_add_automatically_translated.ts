import { type Kysely, sql } from 'kysely';

// Units gain `automatically_translated` (Weblate 2026 and later send it): whether the
// current target came from automatic translation, which reports of how work was done need
// typed. Rows mirrored before take it from `raw`, so the column agrees with the record at
// once and the next sync rewrites no unit for it. Frozen once merged; add a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table weblate.units add column automatically_translated boolean`.execute(db);
  await sql`
    update weblate.units set automatically_translated = (raw->>'automatically_translated')::boolean
    where jsonb_typeof(raw->'automatically_translated') = 'boolean'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table weblate.units drop column automatically_translated`.execute(db);
}

import { type Kysely, sql } from 'kysely';

// Discovery from changes. With every project in scope, changes come from the global
// /api/changes/, which names no project: a change is attributed through its translation or
// component URL, and a change that has neither (a project created, a component removed, …)
// has no project_slug. Frozen once merged; add a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table weblate.changes alter column project_slug drop not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from weblate.changes where project_slug is null`.execute(db);
  await sql`alter table weblate.changes alter column project_slug set not null`.execute(db);
}

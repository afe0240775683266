import { type Kysely, sql } from 'kysely';

// Discovery from changes. With every project in scope, changes come from the global
// /api/changes/, which names no project: a change is attributed through its translation or
// component URL, and a change that has neither (a project created, a component removed, …)
// has no project_slug. Translations and components are now also read from a component's or a
// project's own list, which leaves out the nested component and project records: `raw` keeps
// neither, whichever list a row came from (components.raw and projects.raw hold them).
// Frozen once merged; add a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table weblate.changes alter column project_slug drop not null`.execute(db);
  await sql`update weblate.translations set raw = raw - 'component' where raw ? 'component'`.execute(
    db,
  );
  await sql`update weblate.components set raw = raw - 'project' where raw ? 'project'`.execute(db);
}

/** The nested records left out of `raw` are not put back: the rows they copy hold them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from weblate.changes where project_slug is null`.execute(db);
  await sql`alter table weblate.changes alter column project_slug set not null`.execute(db);
}

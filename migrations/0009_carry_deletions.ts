import { type Kysely, sql } from 'kysely';

// Releases before this one marked the children of a deleted project, component or
// translation only at the next complete discovery, so a mirror may hold live units under a
// deleted translation (and so on up). Every deletion now carries down in its own
// transaction; this marks what such a release left, with its container's deleted_at.
// Frozen once merged; add a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update weblate.components c set deleted_at = p.deleted_at from weblate.projects p
    where c.project_id = p.id and p.deleted_at is not null and c.deleted_at is null`.execute(db);
  await sql`update weblate.translations t set deleted_at = c.deleted_at from weblate.components c
    where t.component_id = c.id and c.deleted_at is not null and t.deleted_at is null`.execute(db);
  await sql`update weblate.units u set deleted_at = t.deleted_at from weblate.translations t
    where u.translation_id = t.id and t.deleted_at is not null and u.deleted_at is null`.execute(
    db,
  );
}

/** Nothing to undo: the rows it marked were children of deleted objects. */
export async function down(): Promise<void> {}

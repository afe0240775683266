import { type Kysely, sql } from 'kysely';

// The people the change history names, with their full names where the server shows them
// to the token: Weblate's change records name users by username only. A trigger on
// weblate.changes notes the usernames of the changes written in users_due (no key: page
// commits run side by side, and a key would make each wait for the others); the sync moves
// the new ones into weblate.users with `answered` null, reads those (GET
// /api/users/<username>/, which any signed-in token may read) and records the answer: 200
// with the name, or 404 when the server does not show the user. docs/schema.md documents
// it. Frozen once merged; add a new migration.

/** Usernames of the changes in `source` (a table with user_name and author_name). */
const NAMES = (source: string) =>
  sql.raw(`
  select user_name as username from ${source} where user_name is not null
  union
  select author_name from ${source} where author_name is not null`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table weblate.users (
      username text primary key,
      id integer,
      full_name text,
      answered smallint,
      raw jsonb,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index users_unread_idx on weblate.users (username) where answered is null`.execute(
    db,
  );
  await sql`create table weblate.users_due (username text not null)`.execute(db);
  await sql`
    create function weblate.note_change_users() returns trigger language plpgsql as $$
    begin
      insert into weblate.users_due (username) ${NAMES('new_changes')};
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger changes_insert_users after insert on weblate.changes
    referencing new table as new_changes
    for each statement execute function weblate.note_change_users()`.execute(db);
  await sql`
    insert into weblate.users (username) ${NAMES('weblate.changes')}
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger changes_insert_users on weblate.changes`.execute(db);
  await sql`drop function weblate.note_change_users()`.execute(db);
  await sql`drop table weblate.users_due`.execute(db);
  await sql`drop table weblate.users`.execute(db);
}

import { type Kysely, sql } from 'kysely';

// State for incremental, resumable syncs: cursors and pending work written in the same
// transaction as the rows they cover; soft deletion; records that could not be stored.
// Frozen once merged; add a new migration.

const SOFT_DELETED = [
  'projects',
  'components',
  'translations',
  'units',
  'notification_subscriptions',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table weblate.sync_cursors (
      stream text not null,
      scope text not null default '',
      value jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (stream, scope)
    )`.execute(db);

  await sql`
    create table weblate.sync_pending (
      kind text not null,
      id bigint not null,
      noted_at timestamptz not null default now(),
      primary key (kind, id)
    )`.execute(db);

  await sql`
    create table weblate.rejected_records (
      id bigint generated always as identity primary key,
      run_id integer references weblate.sync_runs (id),
      resource text not null,
      url text not null,
      reason text not null,
      raw text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index rejected_records_run_id_idx on weblate.rejected_records (run_id)`.execute(
    db,
  );

  for (const table of SOFT_DELETED) {
    await sql`alter table ${sql.table(`weblate.${table}`)} add column deleted_at timestamptz`.execute(
      db,
    );
  }
  // A deleted object keeps its row; a new object may take its natural key.
  await sql`alter table weblate.projects drop constraint projects_slug_key`.execute(db);
  await sql`create unique index projects_live_slug_key on weblate.projects (slug) where deleted_at is null`.execute(
    db,
  );
  await sql`alter table weblate.components drop constraint components_project_slug_slug_key`.execute(
    db,
  );
  await sql`create unique index components_live_slug_key on weblate.components (project_slug, slug)
    where deleted_at is null`.execute(db);
  await sql`alter table weblate.translations
    drop constraint translations_project_slug_component_slug_language_code_key`.execute(db);
  await sql`create unique index translations_live_key on weblate.translations (project_slug, component_slug, language_code)
    where deleted_at is null`.execute(db);

  await sql`alter table weblate.sync_runs add column rejected integer not null default 0`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table weblate.sync_runs drop column rejected`.execute(db);
  await sql`drop index weblate.translations_live_key`.execute(db);
  await sql`alter table weblate.translations add constraint translations_project_slug_component_slug_language_code_key
    unique (project_slug, component_slug, language_code)`.execute(db);
  await sql`drop index weblate.components_live_slug_key`.execute(db);
  await sql`alter table weblate.components add constraint components_project_slug_slug_key unique (project_slug, slug)`.execute(
    db,
  );
  await sql`drop index weblate.projects_live_slug_key`.execute(db);
  await sql`alter table weblate.projects add constraint projects_slug_key unique (slug)`.execute(
    db,
  );
  for (const table of SOFT_DELETED) {
    await sql`alter table ${sql.table(`weblate.${table}`)} drop column deleted_at`.execute(db);
  }
  await sql`drop table weblate.rejected_records`.execute(db);
  await sql`drop table weblate.sync_pending`.execute(db);
  await sql`drop table weblate.sync_cursors`.execute(db);
}

import { type Kysely, sql } from 'kysely';

// The instance this database mirrors, in one row: its API root, as the client normalises
// WEBLATE_URL, and a fingerprint that does not depend on its address, the ids and slugs of
// the live mirrored projects. A sync compares WEBLATE_URL with the row before it reads
// anything; `weblate-mirror move-instance` changes it. A database synced before this
// migration has no row until its next sync adopts one (src/sync/instance.ts). weblate_reader
// may read it through the default privileges of 0003_add_reporting_views. docs/schema.md
// documents it. Frozen once merged; add a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table weblate.instances (
      id smallint primary key default 1 check (id = 1),
      api_root text not null,
      fingerprint jsonb not null default '[]',
      recorded_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table weblate.instances`.execute(db);
}

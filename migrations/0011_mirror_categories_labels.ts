import { type Kysely, sql } from 'kysely';

// Projects' categories and labels, and the labels each unit carries. Categories and labels
// are mirrored from each project's lists and, like every mirrored object, never deleted:
// a complete listing that no longer has one sets its deleted_at. unit_labels links a unit
// to the labels of its record's `labels`, kept in step by triggers on weblate.units, so
// every path that writes units (COPY or VALUES, sync or backfill) keeps it right: a label
// gone from a unit's record marks its link deleted, one that comes back makes it live again.
// Components gain `category_id`, the id their `category` link names. weblate_reader may
// read the new tables through the default privileges of 0003_add_reporting_views. Frozen
// once merged; add a new migration.

const TABLES = ['categories', 'labels', 'unit_labels'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table weblate.categories (
      id integer primary key,
      project_id integer not null references weblate.projects (id),
      project_slug text not null,
      slug text not null,
      name text not null,
      parent_id integer,
      url text,
      statistics_url text,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    )`.execute(db);
  await sql`create index categories_project_id_idx on weblate.categories (project_id)`.execute(db);
  await sql`
    create table weblate.labels (
      id integer primary key,
      project_id integer not null references weblate.projects (id),
      project_slug text not null,
      name text not null,
      color text,
      description text,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    )`.execute(db);
  await sql`create index labels_project_id_idx on weblate.labels (project_id)`.execute(db);
  await sql`
    create table weblate.unit_labels (
      unit_id bigint not null,
      label_id integer not null,
      first_seen_at timestamptz not null default now(),
      deleted_at timestamptz,
      primary key (unit_id, label_id)
    )`.execute(db);
  await sql`create index unit_labels_label_id_idx on weblate.unit_labels (label_id)`.execute(db);
  await addUnitLabelTriggers(db);
  await sql`alter table weblate.components add column category_id integer`.execute(db);
  await sql`
    update weblate.components
    set category_id = (substring(category from '/categories/([0-9]+)/?(\\?.*)?$'))::integer
    where category is not null`.execute(db);
}

/**
 * The label ids of a unit's `labels`: objects with an id (the unit list's shape) or bare
 * ids (the shape a unit's write serializer answers with), anything else skipped.
 */
const LABEL_IDS = sql`
  select n.id as unit_id, case jsonb_typeof(e) when 'number' then (e #>> '{}')::integer
    else (e ->> 'id')::integer end as label_id
  from new_units n
  cross join lateral jsonb_array_elements(
    case jsonb_typeof(n.labels) when 'array' then n.labels else '[]'::jsonb end) as e
  where jsonb_typeof(e) = 'number' or (jsonb_typeof(e) = 'object' and jsonb_typeof(e -> 'id') = 'number')`;

async function addUnitLabelTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function weblate.keep_unit_labels() returns trigger language plpgsql as $$
    begin
      update weblate.unit_labels ul set deleted_at = now()
      from new_units n
      where ul.unit_id = n.id and ul.deleted_at is null
        and not exists (select from (${LABEL_IDS}) l
          where l.unit_id = ul.unit_id and l.label_id = ul.label_id);
      insert into weblate.unit_labels (unit_id, label_id)
      select distinct unit_id, label_id from (${LABEL_IDS}) l
      on conflict (unit_id, label_id) do update set deleted_at = null
        where weblate.unit_labels.deleted_at is not null;
      return null;
    end
    $$`.execute(db);
  // A trigger with a transition table takes one event: one for inserts, one for updates.
  for (const event of ['insert', 'update'] as const) {
    await sql`
      create trigger ${sql.raw(`units_${event}_labels`)} after ${sql.raw(event)} on weblate.units
      referencing new table as new_units
      for each statement execute function weblate.keep_unit_labels()`.execute(db);
  }
  // Units mirrored before: their links as their rows' labels give them.
  await sql`
    with new_units as (select id, labels from weblate.units)
    insert into weblate.unit_labels (unit_id, label_id)
    select distinct unit_id, label_id from (${LABEL_IDS}) l
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table weblate.components drop column category_id`.execute(db);
  await sql`drop trigger units_insert_labels on weblate.units`.execute(db);
  await sql`drop trigger units_update_labels on weblate.units`.execute(db);
  await sql`drop function weblate.keep_unit_labels()`.execute(db);
  for (const table of [...TABLES].reverse()) {
    await sql`drop table ${sql.table(`weblate.${table}`)}`.execute(db);
  }
}

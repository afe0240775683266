import { type Kysely, sql } from 'kysely';

// What became of automatic translation. Each change gains edit_distance, Weblate's
// Change.get_distance() (the Damerau–Levenshtein distance of old and target), computed by
// the sync; rows mirrored before are computed here, in batches. machine_translation_fills
// follows each automatic fill to the first person's change after it (kept, edited,
// replaced, or superseded by another fill), machine_translation_outcomes sums them, and
// post_edits names who made each post-edit: it is granted to weblate_effort_reader only
// (issue 45: people are opt-in). docs/schema.md#post-editing defines each figure.
// Frozen once merged; add a new migration.

const FILLS = `
create function weblate.machine_translation_fills(only_projects text[] default null, only_components text[] default null, only_category integer default null, only_language text default null, since timestamptz default null, until timestamptz default null)
returns table (unit_id bigint, translation_id integer, project_slug text, component_slug text,
  language_code text, evidence text, fill_change_id bigint, filled_at timestamptz, outcome text,
  person_change_id bigint, person_action integer, person_at timestamptz, edit_distance integer,
  edit_percent numeric, edit_band text, hours_to_person numeric)
language sql stable parallel safe as $fn$
  with scope_components as (
    select k.id from weblate.components k
    join weblate.category_tree t on t.category_id = k.category_id
    where t.ancestor_id = only_category
  ), logged as (
    -- A fill is a change 6; what follows it is the unit's next change that saved a target
    -- or a state: a person's (2, 5, 7, 8, 9, 27, 32, 36, 37, 72, 77, 94), another fill (6)
    -- or the repository's (59).
    select f.unit_id, f.translation_id, f.project_slug, f.component_slug, f.language_code,
           'change log'::text as evidence, f.id as fill_change_id, f.timestamp as filled_at,
           n.id as next_id, n.action as next_action, n.timestamp as next_at,
           n.edit_distance as distance, n.old as next_old, n.target as next_target
    from weblate.changes f
    left join lateral (
      select c.id, c.action, c.timestamp, c.edit_distance, c.old, c.target
      from weblate.changes c
      where c.unit_id = f.unit_id
        and c.timestamp >= f.timestamp
        and (c.timestamp > f.timestamp or c.id > f.id)
        and c.action in (2, 5, 6, 7, 8, 9, 27, 32, 36, 37, 59, 72, 77, 94)
      order by c.timestamp, c.id
      limit 1
    ) n on true
    where f.action = 6 and f.unit_id is not null
      and (only_projects is null or f.project_slug = any(only_projects))
      and (only_components is null or f.component_slug = any(only_components))
      and (only_language is null or f.language_code = only_language)
      and (only_category is null or f.component_id in (select id from scope_components))
      and (since is null or f.timestamp >= since)
      and (until is null or f.timestamp < until)
  ), marked as (
    -- Strings whose automatic fill the change log lacks: the unit says so itself, by its
    -- flag (Weblate 2026 and later) or the "Automatically translated" label (before).
    select u.id as unit_id, u.translation_id, 'flag'::text as evidence,
           coalesce(u.last_updated, u.timestamp) as filled_at
    from weblate.units u
    where u.automatically_translated and u.deleted_at is null
    union all
    select u.id, u.translation_id, 'label', coalesce(u.last_updated, u.timestamp)
    from weblate.labels lb
    join weblate.unit_labels ul on ul.label_id = lb.id and ul.deleted_at is null
    join weblate.units u on u.id = ul.unit_id
    where lb.name = 'Automatically translated' and lb.deleted_at is null
      and u.automatically_translated is null and u.deleted_at is null
  ), unlogged as (
    select m.unit_id, m.translation_id, t.project_slug, t.component_slug, t.language_code,
           m.evidence, null::bigint as fill_change_id, m.filled_at,
           null::bigint as next_id, null::integer as next_action,
           null::timestamptz as next_at, null::integer as distance,
           null::text as next_old, null::text as next_target
    from marked m
    join weblate.translations t on t.id = m.translation_id
    where t.deleted_at is null
      and not exists (select from weblate.changes c where c.unit_id = m.unit_id and c.action = 6)
      and (only_projects is null or t.project_slug = any(only_projects))
      and (only_components is null or t.component_slug = any(only_components))
      and (only_language is null or t.language_code = only_language)
      and (only_category is null or t.component_id in (select id from scope_components))
      and (since is null or m.filled_at >= since)
      and (until is null or m.filled_at < until)
  ), fills as (
    select a.*,
           a.next_id is not null and a.next_action not in (6, 59) as is_person,
           a.distance * 100.0
             / nullif(greatest(char_length(a.next_old), char_length(a.next_target)), 0) as share
    from (select * from logged union all select * from unlogged) a
  )
  select f.unit_id, f.translation_id, f.project_slug, f.component_slug, f.language_code,
         f.evidence, f.fill_change_id, f.filled_at,
         case
           when f.next_id is null then 'kept'
           when not f.is_person then 'superseded'
           when f.distance = 0 or (f.distance is null and f.next_target is not distinct from f.next_old)
             then 'kept'
           when f.next_action in (7, 8, 9, 72, 77, 94) or f.share = 100 then 'replaced'
           else 'edited'
         end as outcome,
         case when f.is_person then f.next_id end as person_change_id,
         case when f.is_person then f.next_action end as person_action,
         case when f.is_person then f.next_at end as person_at,
         case when f.is_person then f.distance end as edit_distance,
         case when f.is_person and f.distance is not null then round(coalesce(f.share, 0), 2) end
           as edit_percent,
         case
           when not f.is_person or f.distance is null then null
           when f.distance = 0 then '0'
           when f.share <= 10 then '1-10'
           when f.share <= 30 then '11-30'
           when f.share <= 60 then '31-60'
           else 'over 60'
         end as edit_band,
         case when f.is_person then round(extract(epoch from f.next_at - f.filled_at) / 3600, 2) end
           as hours_to_person
  from fills f
$fn$`;

const POST_EDITS = `
create function weblate.post_edits(only_projects text[] default null, only_components text[] default null, only_category integer default null, only_language text default null, since timestamptz default null, until timestamptz default null)
returns table (unit_id bigint, translation_id integer, project_slug text, component_slug text,
  language_code text, evidence text, fill_change_id bigint, filled_at timestamptz, outcome text,
  person_change_id bigint, person_action integer, person_at timestamptz, edit_distance integer,
  edit_percent numeric, edit_band text, hours_to_person numeric, author_name text)
language sql stable parallel safe as $fn$
  select f.*, ch.author_name
  from weblate.machine_translation_fills(only_projects, only_components, only_category,
    only_language, since, until) f
  left join weblate.changes ch on ch.id = f.person_change_id
$fn$`;

const OUTCOMES = `
create function weblate.machine_translation_outcomes(period_unit text default 'week', only_projects text[] default null, only_components text[] default null, only_category integer default null, only_language text default null, since timestamptz default null, until timestamptz default null)
returns table (period_start date, scope text, project_slug text, component_slug text,
  language_code text, filled bigint, kept bigint, untouched bigint, edited bigint,
  replaced bigint, superseded bigint, edits_0 bigint, edits_1_10 bigint, edits_11_30 bigint,
  edits_31_60 bigint, edits_over_60 bigint, median_edit_percent numeric,
  p90_edit_percent numeric, median_hours_to_person numeric, p90_hours_to_person numeric,
  from_change_log bigint, from_flag bigint, from_label bigint)
language sql stable parallel safe as $fn$
  select f.period_start,
         case grouping(f.project_slug, f.component_slug, f.language_code)
           when 0 then 'component and language' when 1 then 'component'
           when 2 then 'project and language' when 3 then 'project' when 6 then 'language'
           else 'all'
         end as scope,
         f.project_slug, f.component_slug, f.language_code,
         count(*) as filled,
         count(*) filter (where f.outcome = 'kept') as kept,
         count(*) filter (where f.outcome = 'kept' and f.person_change_id is null) as untouched,
         count(*) filter (where f.outcome = 'edited') as edited,
         count(*) filter (where f.outcome = 'replaced') as replaced,
         count(*) filter (where f.outcome = 'superseded') as superseded,
         count(*) filter (where f.edit_band = '0') as edits_0,
         count(*) filter (where f.edit_band = '1-10') as edits_1_10,
         count(*) filter (where f.edit_band = '11-30') as edits_11_30,
         count(*) filter (where f.edit_band = '31-60') as edits_31_60,
         count(*) filter (where f.edit_band = 'over 60') as edits_over_60,
         round((percentile_cont(0.5) within group (order by f.edit_percent))::numeric, 2)
           as median_edit_percent,
         round((percentile_cont(0.9) within group (order by f.edit_percent))::numeric, 2)
           as p90_edit_percent,
         round((percentile_cont(0.5) within group (order by f.hours_to_person))::numeric, 2)
           as median_hours_to_person,
         round((percentile_cont(0.9) within group (order by f.hours_to_person))::numeric, 2)
           as p90_hours_to_person,
         count(*) filter (where f.evidence = 'change log') as from_change_log,
         count(*) filter (where f.evidence = 'flag') as from_flag,
         count(*) filter (where f.evidence = 'label') as from_label
  from (
    select date_trunc(period_unit, m.filled_at at time zone 'UTC')::date as period_start, m.*
    from weblate.machine_translation_fills(only_projects, only_components, only_category,
      only_language, since, until) m
  ) f
  group by grouping sets (
    (f.period_start, f.project_slug, f.component_slug, f.language_code),
    (f.period_start, f.project_slug, f.component_slug),
    (f.period_start, f.project_slug, f.language_code),
    (f.period_start, f.project_slug),
    (f.period_start, f.language_code),
    (f.period_start)
  )
$fn$`;

const SIGNATURE = '(text[], text[], integer, text, timestamptz, timestamptz)';

/**
 * The role that may read people's effort figures. Created as 0003 creates weblate_reader
 * (retried against other databases of the server, skipped with a warning without
 * CREATEROLE); a member of weblate_reader, so it reads whatever the reader reads.
 */
const EFFORT_ROLE = `
do $$
begin
  for attempt in 1..5 loop
    begin
      if not exists (select from pg_roles where rolname = 'weblate_effort_reader') then
        create role weblate_effort_reader nologin;
      end if;
      if exists (select from pg_roles where rolname = 'weblate_reader') then
        grant weblate_reader to weblate_effort_reader;
      end if;
      return;
    exception
      when duplicate_object or unique_violation or undefined_object then
        null; -- created or dropped concurrently from another database: look again
      when insufficient_privilege then
        raise warning 'weblate_effort_reader not set up: %', sqlerrm
          using hint = 'Create the role as an administrator (docs/schema.md, "weblate_effort_reader"), then run the grants listed there.';
        return;
    end;
  end loop;
  raise exception 'could not set up role weblate_effort_reader';
end
$$`;

const GRANTS = `
do $$
begin
  if exists (select from pg_roles where rolname = 'weblate_reader') then
    grant execute on function weblate.machine_translation_fills${SIGNATURE}, weblate.machine_translation_outcomes(text, text[], text[], integer, text, timestamptz, timestamptz) to weblate_reader;
  end if;
  if exists (select from pg_roles where rolname = 'weblate_effort_reader') then
    grant execute on function weblate.post_edits${SIGNATURE} to weblate_effort_reader;
  end if;
exception
  when undefined_object then
    null; -- dropped meanwhile by another database's rollback: nothing to grant to
end
$$`;

/** Changes whose distance one batch of the backfill computes. */
const BATCH = 1000;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table weblate.changes add column edit_distance integer`.execute(db);
  await backfillEditDistance(db);
  await sql`
    create index changes_fills_idx on weblate.changes (language_code, project_slug, timestamp)
    include (component_slug, component_id, translation_id, unit_id, id) where action = 6`.execute(
    db,
  );
  await sql`
    create index units_automatic_idx on weblate.units (translation_id)
    where automatically_translated`.execute(db);
  for (const statement of [FILLS, POST_EDITS, OUTCOMES]) await sql.raw(statement).execute(db);
  await sql
    .raw(`revoke execute on function weblate.post_edits${SIGNATURE} from public`)
    .execute(db);
  await sql.raw(EFFORT_ROLE).execute(db);
  await sql.raw(GRANTS).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function weblate.machine_translation_outcomes(text, text[], text[], integer, text, timestamptz, timestamptz)`.execute(
    db,
  );
  await sql.raw(`drop function weblate.post_edits${SIGNATURE}`).execute(db);
  await sql.raw(`drop function weblate.machine_translation_fills${SIGNATURE}`).execute(db);
  await sql`drop index weblate.units_automatic_idx`.execute(db);
  await sql`drop index weblate.changes_fills_idx`.execute(db);
  await sql`alter table weblate.changes drop column edit_distance`.execute(db);
  // The role goes when nothing of any database of the server is granted to it any more.
  await sql`
    do $$
    begin
      if exists (select from pg_roles where rolname = 'weblate_effort_reader') then
        drop role weblate_effort_reader;
      end if;
    exception
      when dependent_objects_still_exist or insufficient_privilege or undefined_object then
        null; -- still used elsewhere on the server, or not ours to drop
      when others then
        raise warning 'weblate_effort_reader kept: %', sqlerrm;
    end
    $$`.execute(db);
}

/** Weblate's distance of every change mirrored before, a batch of rows at a time. */
async function backfillEditDistance(db: Kysely<unknown>): Promise<void> {
  let after = '-9223372036854775808';
  for (;;) {
    const { rows } = await sql<{ change_id: string; old: string; target: string }>`
      select id::text as change_id, old, target from weblate.changes
      where old is not null and target is not null
        and id > ${after}::bigint
      order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    await sql`
      update weblate.changes c set edit_distance = v.distance
      from unnest(${rows.map((r) => r.change_id)}::bigint[],
                  ${rows.map((r) => editDistance(r.old, r.target))}::integer[]) as v(id, distance)
      where c.id = v.id`.execute(db);
    after = rows.at(-1)!.change_id;
  }
}

// A frozen copy of src/lib/edit-distance.ts as of this migration (migrations import nothing
// from src/): rapidfuzz's DamerauLevenshtein.distance over code points, Zhao's algorithm.

const MAX_DISTANCE_CELLS = 25_000_000;

function editDistance(a: string, b: string): number | null {
  const s1 = codePoints(a);
  const s2 = codePoints(b);
  let start = 0;
  while (start < s1.length && start < s2.length && s1[start] === s2[start]) start++;
  let end1 = s1.length;
  let end2 = s2.length;
  while (end1 > start && end2 > start && s1[end1 - 1] === s2[end2 - 1]) {
    end1--;
    end2--;
  }
  const x = s1.subarray(start, end1);
  const y = s2.subarray(start, end2);
  if (x.length === 0 || y.length === 0) return Math.max(x.length, y.length);
  if (x.length * y.length > MAX_DISTANCE_CELLS) return null;
  return zhao(x, y);
}

function codePoints(text: string): Int32Array {
  const points = new Int32Array(text.length);
  let n = 0;
  for (const char of text) points[n++] = char.codePointAt(0)!;
  return points.subarray(0, n);
}

function zhao(s1: Int32Array, s2: Int32Array): number {
  const maxVal = Math.max(s1.length, s2.length) + 1;
  const size = s2.length + 2;
  const lastRow = new Map<number, number>();
  const fr = new Int32Array(size).fill(maxVal);
  let r1 = new Int32Array(size).fill(maxVal);
  let r = new Int32Array(size);
  for (let j = 0; j < size; j++) r[j] = j;
  r[size - 1] = maxVal;
  for (let i = 1; i <= s1.length; i++) {
    [r, r1] = [r1, r];
    let lastCol = -1;
    let lastI2l1 = r[0]!;
    r[0] = i;
    let t = maxVal;
    const ch1 = s1[i - 1]!;
    for (let j = 1; j <= s2.length; j++) {
      const ch2 = s2[j - 1]!;
      let temp = Math.min(r1[j - 1]! + (ch1 === ch2 ? 0 : 1), r[j - 1]! + 1, r1[j]! + 1);
      if (ch1 === ch2) {
        lastCol = j;
        fr[j] = j >= 2 ? r1[j - 2]! : r1[size - 1]!;
        t = lastI2l1;
      } else {
        const k = lastRow.get(ch2) ?? -1;
        if (j - lastCol === 1) temp = Math.min(temp, fr[j]! + (i - k));
        else if (i - k === 1) temp = Math.min(temp, t + (j - lastCol));
      }
      lastI2l1 = r[j]!;
      r[j] = temp;
    }
    lastRow.set(ch1, i);
  }
  return r[s2.length]!;
}

import { type Kysely, sql } from 'kysely';

// Reporting in SQL: progress now and day by day, activity, contributors, stalled
// translations and completion forecasts as views in `weblate`, plus the read-only role
// `weblate_reader` for analysts and dashboards. docs/schema.md documents every view and
// the choices made here. PostgreSQL refuses to alter or drop a column that a view reads: a
// later migration that does must drop and re-create the views concerned. Frozen once
// merged; add a new migration.

/**
 * Actions that save a translation into a string on its author's behalf: 2 Translation
 * changed, 5 Translation added, 7 Suggestion accepted (the author is the suggestion's),
 * 9 Translation uploaded. Their unit's source words count as words translated.
 * Machine, bulk and propagated edits (6, 27, 32, 77) and reviews (36) do not.
 */
const TRANSLATION_ACTIONS = sql.raw([2, 5, 7, 9].join(', '));

/** A UTC day; views must not depend on the session's time zone. */
const TODAY = sql.raw(`(now() at time zone 'UTC')::date`);

/** Counts of one object, summed from rows of translation_progress(_daily) named `x`. */
const SUMMED_PROGRESS = sql.raw(`
  count(x.translation_id) as translations,
  coalesce(sum(x.total), 0)::bigint as total,
  coalesce(sum(x.total_words), 0)::bigint as total_words,
  coalesce(sum(x.translated), 0)::bigint as translated,
  coalesce(sum(x.translated_words), 0)::bigint as translated_words,
  weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true)
    as translated_percent,
  weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true)
    as translated_words_percent,
  coalesce(sum(x.fuzzy), 0)::bigint as fuzzy,
  coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words,
  weblate.truncated_percent(coalesce(sum(x.fuzzy), 0), coalesce(sum(x.total), 0)) as fuzzy_percent,
  coalesce(sum(x.approved), 0)::bigint as approved,
  coalesce(sum(x.approved_words), 0)::bigint as approved_words,
  weblate.truncated_percent(coalesce(sum(x.approved), 0), coalesce(sum(x.total), 0)) as approved_percent,
  coalesce(sum(x.failing), 0)::bigint as failing,
`);

const SUMMED_FAILING_PERCENT = sql.raw(`
  weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
`);

const SUMMED_LEFT = sql.raw(`
  coalesce(sum(x.untranslated), 0)::bigint as untranslated,
  coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words
`);

/** Views in creation order (later ones read earlier ones); dropped in reverse. */
const VIEWS = [
  'translation_progress',
  'component_progress',
  'project_progress',
  'language_progress',
  'translation_progress_daily',
  'component_progress_daily',
  'project_progress_daily',
  'language_progress_daily',
  'activity_daily',
  'contributors',
  'stalled_translations',
  'completion_forecast',
  'language_completion_forecast',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  // Weblate's percentage: truncated to one decimal, never 0.0 when something is done nor
  // 100.0 when something is left; an empty object is complete (100) for the "completed"
  // figure and 0 for the others (translation_percent in Weblate's weblate/trans/util.py).
  await sql`
    create function weblate.truncated_percent(part numeric, whole numeric, zero_complete boolean default false)
    returns numeric language sql immutable parallel safe as $$
      select case
        when part is null or whole is null then null
        when whole = 0 then case when zero_complete then 100.0 else 0.0 end
        when part > 0 and trunc(100 * part / whole, 1) = 0 then 0.1
        when part < whole and trunc(100 * part / whole, 1) = 100 then 99.9
        else trunc(100 * part / whole, 1)
      end
    $$`.execute(db);

  await createProgressViews(db);
  await createDailyViews(db);
  await createActivityViews(db);
  await createForecastViews(db);
  await grantReader(db);
}

/** Current progress: live objects, source-language translations left out. */
async function createProgressViews(db: Kysely<unknown>): Promise<void> {
  // Counts come from the translation list (read completely by every sync, in the same row
  // as deleted_at); approved counts exist only in the statistics, so they come from the
  // translation's latest statistics row.
  await sql`
    create view weblate.translation_progress as
    select t.id as translation_id,
           p.id as project_id,
           p.slug as project_slug,
           c.id as component_id,
           c.slug as component_slug,
           t.language_code,
           t.language_id,
           l.name as language_name,
           t.total,
           t.total_words,
           t.translated,
           t.translated_words,
           weblate.truncated_percent(t.translated, t.total, true) as translated_percent,
           weblate.truncated_percent(t.translated_words, t.total_words, true) as translated_words_percent,
           t.fuzzy,
           t.fuzzy_words,
           weblate.truncated_percent(t.fuzzy, t.total) as fuzzy_percent,
           s.approved,
           s.approved_words,
           weblate.truncated_percent(s.approved, t.total) as approved_percent,
           t.failing_checks as failing,
           t.failing_checks_words as failing_words,
           weblate.truncated_percent(t.failing_checks, t.total) as failing_percent,
           t.total - t.translated as untranslated,
           t.total_words - t.translated_words as untranslated_words,
           t.last_change,
           s.last_seen_at as statistics_seen_at
    from weblate.translations t
    join weblate.components c on c.id = t.component_id
    join weblate.projects p on p.id = c.project_id
    left join weblate.languages l on l.id = t.language_id
    left join lateral (
      select ts.approved, ts.approved_words, ts.last_seen_at
      from weblate.translation_statistics ts
      where ts.translation_id = t.id
      order by ts.captured_at desc
      limit 1
    ) s on true
    where t.deleted_at is null
      and c.deleted_at is null
      and p.deleted_at is null
      and t.is_source is not true`.execute(db);

  await sql`
    create view weblate.component_progress as
    select c.id as component_id,
           c.slug as component_slug,
           c.name as component_name,
           p.id as project_id,
           p.slug as project_slug,
           ${SUMMED_PROGRESS}
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           ${SUMMED_FAILING_PERCENT}
           ${SUMMED_LEFT},
           max(x.last_change) as last_change
    from weblate.components c
    join weblate.projects p on p.id = c.project_id
    left join weblate.translation_progress x on x.component_id = c.id
    where c.deleted_at is null
      and p.deleted_at is null
    group by c.id, p.id`.execute(db);

  await sql`
    create view weblate.project_progress as
    select p.id as project_id,
           p.slug as project_slug,
           p.name as project_name,
           (select count(*) from weblate.components c
            where c.project_id = p.id and c.deleted_at is null) as components,
           ${SUMMED_PROGRESS}
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           ${SUMMED_FAILING_PERCENT}
           ${SUMMED_LEFT},
           max(x.last_change) as last_change
    from weblate.projects p
    left join weblate.translation_progress x on x.project_id = p.id
    where p.deleted_at is null
    group by p.id`.execute(db);

  await sql`
    create view weblate.language_progress as
    select x.language_code,
           min(x.language_name) as language_name,
           count(distinct x.project_id) as projects,
           count(distinct x.component_id) as components,
           ${SUMMED_PROGRESS}
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           ${SUMMED_FAILING_PERCENT}
           ${SUMMED_LEFT},
           max(x.last_change) as last_change
    from weblate.translation_progress x
    group by x.language_code`.execute(db);
}

/**
 * The select of translation_progress_daily as this migration creates it: every day from a
 * translation's first snapshot on (0007 adds the estimated days before it).
 */
function measuredDaily() {
  return sql`
    with last_of_day as (
      select distinct on (s.translation_id, (s.captured_at at time zone 'UTC')::date)
             s.*,
             (s.captured_at at time zone 'UTC')::date as captured_day
      from weblate.translation_statistics s
      order by s.translation_id, (s.captured_at at time zone 'UTC')::date, s.captured_at desc
    ), spans as (
      select d.*,
             lead(d.captured_day) over (partition by d.translation_id order by d.captured_day)
               as next_day
      from last_of_day d
    )
    select g.day::date as day,
           t.id as translation_id,
           c.project_id,
           p.slug as project_slug,
           c.id as component_id,
           c.slug as component_slug,
           t.language_code,
           s.total,
           s.total_words,
           s.translated,
           s.translated_words,
           weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
           weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
           s.fuzzy,
           s.fuzzy_words,
           weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
           s.approved,
           s.approved_words,
           weblate.truncated_percent(s.approved, s.total) as approved_percent,
           s.failing,
           weblate.truncated_percent(s.failing, s.total) as failing_percent,
           s.total - s.translated as untranslated,
           s.total_words - s.translated_words as untranslated_words,
           s.captured_at
    from spans s
    join weblate.translations t on t.id = s.translation_id
    join weblate.components c on c.id = t.component_id
    join weblate.projects p on p.id = c.project_id
    -- timestamp (not date, which would pick the timestamptz variant and the session's zone).
    -- least() ignores nulls: the last snapshot and live translations have no bound of their own.
    cross join lateral generate_series(
      s.captured_day::timestamp,
      least(s.next_day - 1, ${TODAY}, (t.deleted_at at time zone 'UTC')::date - 1)::timestamp,
      interval '1 day'
    ) as g(day)
    where t.is_source is not true`;
}

/**
 * Progress at the end of each UTC day from the statistics history. Each snapshot covers
 * the days from its own until the day before the next one's; the last covers days up to
 * today, or up to the day before its translation was marked deleted.
 */
async function createDailyViews(db: Kysely<unknown>): Promise<void> {
  await sql`create view weblate.translation_progress_daily as ${measuredDaily()}`.execute(db);

  await sql`
    create view weblate.component_progress_daily as
    select x.day,
           x.component_id,
           x.component_slug,
           x.project_id,
           x.project_slug,
           ${SUMMED_PROGRESS}
           ${SUMMED_FAILING_PERCENT}
           ${SUMMED_LEFT}
    from weblate.translation_progress_daily x
    group by x.day, x.component_id, x.component_slug, x.project_id, x.project_slug`.execute(db);

  await sql`
    create view weblate.project_progress_daily as
    select x.day,
           x.project_id,
           x.project_slug,
           count(distinct x.component_id) as components,
           ${SUMMED_PROGRESS}
           ${SUMMED_FAILING_PERCENT}
           ${SUMMED_LEFT}
    from weblate.translation_progress_daily x
    group by x.day, x.project_id, x.project_slug`.execute(db);

  await sql`
    create view weblate.language_progress_daily as
    select x.day,
           x.language_code,
           count(distinct x.component_id) as components,
           ${SUMMED_PROGRESS}
           ${SUMMED_FAILING_PERCENT}
           ${SUMMED_LEFT}
    from weblate.translation_progress_daily x
    group by x.day, x.language_code`.execute(db);
}

/** Who did what and when, from the change history (deleted objects' changes included). */
async function createActivityViews(db: Kysely<unknown>): Promise<void> {
  await sql`
    create view weblate.activity_daily as
    select (ch.timestamp at time zone 'UTC')::date as day,
           ch.project_slug,
           ch.component_slug,
           ch.language_code,
           ch.author_name,
           ch.action,
           a.name as action_name,
           count(*) as changes,
           coalesce(sum(u.num_words), 0)::bigint as words
    from weblate.changes ch
    left join weblate.change_actions a on a.action = ch.action
    left join weblate.units u on u.id = ch.unit_id and ch.action in (${TRANSLATION_ACTIONS})
    group by 1, ch.project_slug, ch.component_slug, ch.language_code, ch.author_name,
             ch.action, a.name`.execute(db);

  await sql`
    create view weblate.contributors as
    select ch.author_name,
           ch.language_code,
           count(*) filter (where ch.timestamp >= now() - interval '7 days') as changes_7d,
           count(*) filter (where ch.timestamp >= now() - interval '30 days') as changes_30d,
           count(*) filter (where ch.timestamp >= now() - interval '365 days') as changes_365d,
           coalesce(sum(u.num_words) filter (where ch.timestamp >= now() - interval '7 days'), 0)::bigint
             as words_7d,
           coalesce(sum(u.num_words) filter (where ch.timestamp >= now() - interval '30 days'), 0)::bigint
             as words_30d,
           coalesce(sum(u.num_words) filter (where ch.timestamp >= now() - interval '365 days'), 0)::bigint
             as words_365d,
           min(ch.timestamp) as first_contribution,
           max(ch.timestamp) as last_contribution
    from weblate.changes ch
    left join weblate.units u on u.id = ch.unit_id and ch.action in (${TRANSLATION_ACTIONS})
    where ch.author_name is not null
      and ch.language_code is not null
    group by ch.author_name, ch.language_code`.execute(db);
}

/** Translations that need work: how long they have been idle, and when they may be done. */
async function createForecastViews(db: Kysely<unknown>): Promise<void> {
  // A view takes no parameter: filter on days_since_last_change. A translation Weblate
  // reports no change for has been idle since its first mirrored change, or else since
  // the mirror first saw it.
  await sql`
    create view weblate.stalled_translations as
    select x.translation_id,
           x.project_id,
           x.project_slug,
           x.component_id,
           x.component_slug,
           x.language_code,
           x.total,
           x.untranslated,
           x.untranslated_words,
           x.translated_percent,
           x.last_change,
           t.last_author,
           i.idle_since,
           floor(extract(epoch from now() - i.idle_since) / 86400)::integer as days_since_last_change
    from weblate.translation_progress x
    join weblate.translations t on t.id = x.translation_id
    cross join lateral (
      select coalesce(
        x.last_change,
        (select min(ch.timestamp) from weblate.changes ch where ch.translation_id = x.translation_id),
        t.first_seen_at
      ) as idle_since
    ) i
    where x.untranslated > 0`.execute(db);

  // Net words translated over the last 30 days, from the statistics history: translated
  // words now minus those 30 days ago (or at the first snapshot, if it is more recent).
  // Every word counts once however often it was edited; strings that turned back into
  // needing editing count against it.
  await sql`
    create view weblate.completion_forecast as
    with progress as (
      select x.*,
             coalesce((
               select s.translated_words from weblate.translation_statistics s
               where s.translation_id = x.translation_id
               order by s.captured_at desc limit 1
             ) - coalesce((
               select s.translated_words from weblate.translation_statistics s
               where s.translation_id = x.translation_id
                 and s.captured_at <= now() - interval '30 days'
               order by s.captured_at desc limit 1
             ), (
               select s.translated_words from weblate.translation_statistics s
               where s.translation_id = x.translation_id
               order by s.captured_at limit 1
             )), 0) as words_translated_30d
      from weblate.translation_progress x
    )
    select p.translation_id,
           p.project_id,
           p.project_slug,
           p.component_id,
           p.component_slug,
           p.language_code,
           p.total_words,
           p.translated_words,
           p.untranslated_words,
           p.words_translated_30d,
           round(p.words_translated_30d / 30.0, 2) as words_per_day,
           case when p.words_translated_30d > 0
             then ${TODAY} + ceil(p.untranslated_words * 30.0 / p.words_translated_30d)::integer
           end as projected_completion
    from progress p`.execute(db);

  await sql`
    create view weblate.language_completion_forecast as
    select f.language_code,
           count(*) as translations,
           coalesce(sum(f.total_words), 0)::bigint as total_words,
           coalesce(sum(f.translated_words), 0)::bigint as translated_words,
           coalesce(sum(f.untranslated_words), 0)::bigint as untranslated_words,
           sum(f.words_translated_30d)::bigint as words_translated_30d,
           round(sum(f.words_translated_30d) / 30.0, 2) as words_per_day,
           case when sum(f.words_translated_30d) > 0
             then ${TODAY} + ceil(coalesce(sum(f.untranslated_words), 0) * 30.0
                                 / sum(f.words_translated_30d))::integer
           end as projected_completion
    from weblate.completion_forecast f
    group by f.language_code`.execute(db);
}

/**
 * The read-only role. Roles are cluster-wide: several databases on one server may run
 * this at once, and another database's rollback may drop the role between our check and
 * our grant (GRANT then fails with undefined_object), so creation and grants are retried
 * together. A database user without CREATEROLE skips the role with a warning instead of
 * failing the migration (and with it the mirror); an administrator can create the role
 * first and the grants then succeed. Default privileges cover tables and views that the
 * role running the migrations creates later.
 */
async function grantReader(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$
    begin
      for attempt in 1..5 loop
        begin
          if not exists (select from pg_roles where rolname = 'weblate_reader') then
            create role weblate_reader nologin;
          end if;
          grant usage on schema weblate to weblate_reader;
          grant select on all tables in schema weblate to weblate_reader;
          alter default privileges in schema weblate grant select on tables to weblate_reader;
          return;
        exception
          when duplicate_object or unique_violation or undefined_object then
            null; -- created or dropped concurrently from another database: look again
          when insufficient_privilege then
            raise warning 'weblate_reader not set up: %', sqlerrm
              using hint = 'Create the role as an administrator (docs/schema.md, "weblate_reader"), then run the grants listed there.';
            return;
        end;
      end loop;
      raise exception 'could not set up role weblate_reader';
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const view of [...VIEWS].reverse()) {
    await sql`drop view if exists ${sql.table(`weblate.${view}`)}`.execute(db);
  }
  await sql`drop function if exists weblate.truncated_percent(numeric, numeric, boolean)`.execute(
    db,
  );
  // Revoke what up granted here. Drop the role only when no other database holds
  // privileges for it (dependent_objects_still_exist) and no role is a member of it, so a
  // rollback never fails, nor takes the role from another database or an analyst's login.
  await sql`
    do $$
    begin
      if not exists (select from pg_roles where rolname = 'weblate_reader') then
        return;
      end if;
      alter default privileges in schema weblate revoke select on tables from weblate_reader;
      revoke select on all tables in schema weblate from weblate_reader;
      revoke usage on schema weblate from weblate_reader;
      if exists (
        select from pg_auth_members m join pg_roles r on r.oid = m.roleid
        where r.rolname = 'weblate_reader'
      ) then
        return;
      end if;
      begin
        drop role weblate_reader;
      exception
        when dependent_objects_still_exist or insufficient_privilege or undefined_object then
          null; -- still used elsewhere on the server, or not ours to drop
        when others then
          -- e.g. "cache lookup failed for database" while another database of the server is
          -- being dropped: the role stays, which harms nothing; the rollback goes on.
          raise warning 'weblate_reader kept: %', sqlerrm;
      end;
    end
    $$`.execute(db);
}

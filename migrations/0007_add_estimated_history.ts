import { type Kysely, sql } from 'kysely';

// Progress history before the first statistics snapshot, estimated from the change log
// (`weblate-mirror backfill`, docs/history.md). Estimates live in a table of their own (a
// row for each day an estimate moved, holding until the next) and reach the daily views
// only for the days before a translation's first snapshot, with
// `origin` = 'estimated'; a measured day always wins. The daily summaries gain `origin`
// ('estimated' when any translation of the group is) and `estimated_translations`.
// Frozen once merged; add a new migration.
//
// Written out as the statements it ran when it landed, so that no migration reads another's
// SQL; schema/ holds each object's current definition (docs/schema.md, "Where a definition lives").

/** What `up` runs, in order. */
const UP: readonly string[] = [
  `
    create table weblate.translation_progress_estimated (
      translation_id integer not null,
      day date not null,
      total integer not null,
      total_words integer,
      translated integer not null,
      translated_words integer,
      fuzzy integer not null,
      fuzzy_words integer,
      approved integer not null,
      approved_words integer,
      anchored_at timestamptz not null,
      built_at timestamptz not null default now(),
      primary key (translation_id, day)
    )`,
  `comment on table weblate.translation_progress_estimated is
    'Progress at the end of a UTC day before a translation''s first statistics snapshot (anchored_at), holding until the next row, estimated from the change log by weblate-mirror backfill: never a measurement (docs/history.md).'`,
  `drop view "weblate"."component_progress_daily"`,
  `drop function weblate.progress_by_component_daily(text[], text)`,
  `drop view "weblate"."project_progress_daily"`,
  `drop function weblate.progress_by_project_daily(text[], text)`,
  `drop view "weblate"."language_progress_daily"`,
  `drop function weblate.progress_by_language_daily(text[], text)`,
  `create or replace view weblate.translation_progress_daily as 
    select m.*, 'measured'::text as origin from (
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
      least(s.next_day - 1, (now() at time zone 'UTC')::date, (t.deleted_at at time zone 'UTC')::date - 1)::timestamp,
      interval '1 day'
    ) as g(day)
    where t.is_source is not true) m
    union all
    select g.day::date as day,
           t.id as translation_id,
           c.project_id,
           p.slug as project_slug,
           c.id as component_id,
           c.slug as component_slug,
           t.language_code,
           e.total,
           e.total_words,
           e.translated,
           e.translated_words,
           weblate.truncated_percent(e.translated, e.total, true) as translated_percent,
           weblate.truncated_percent(e.translated_words, e.total_words, true) as translated_words_percent,
           e.fuzzy,
           e.fuzzy_words,
           weblate.truncated_percent(e.fuzzy, e.total) as fuzzy_percent,
           e.approved,
           e.approved_words,
           weblate.truncated_percent(e.approved, e.total) as approved_percent,
           null::integer as failing,
           null::numeric as failing_percent,
           e.total - e.translated as untranslated,
           e.total_words - e.translated_words as untranslated_words,
           null::timestamptz as captured_at,
           'estimated'::text as origin
    from (
      select e.*,
             lead(e.day) over (partition by e.translation_id order by e.day) as next_day,
             (select (min(s.captured_at) at time zone 'UTC')::date from weblate.translation_statistics s
              where s.translation_id = e.translation_id) as measured_from
      from weblate.translation_progress_estimated e
    ) e
    join weblate.translations t on t.id = e.translation_id
    join weblate.components c on c.id = t.component_id
    join weblate.projects p on p.id = c.project_id
    -- A row holds until the next one; a measured day always wins, so estimates stop the day
    -- before the first snapshot. (least() ignores nulls.)
    cross join lateral generate_series(
      e.day::timestamp,
      (least(e.next_day, e.measured_from) - 1)::timestamp,
      interval '1 day'
    ) as g(day)
    where t.is_source is not true`,
  `
    create function weblate.progress_by_component_daily(only_projects text[] default null, only_language text default null)
    returns table (day date, component_id integer, component_slug text, project_id integer, project_slug text, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, estimated_translations bigint, origin text)
    language sql stable parallel safe as $fn$
    select x.day as day,
           x.component_id as component_id,
           x.component_slug as component_slug,
           x.project_id as project_id,
           x.project_slug as project_slug,
           count(x.translation_id) as translations,
           coalesce(sum(x.total), 0)::bigint as total,
           coalesce(sum(x.total_words), 0)::bigint as total_words,
           coalesce(sum(x.translated), 0)::bigint as translated,
           coalesce(sum(x.translated_words), 0)::bigint as translated_words,
           weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true) as translated_percent,
           weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true) as translated_words_percent,
           coalesce(sum(x.fuzzy), 0)::bigint as fuzzy,
           coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words,
           weblate.truncated_percent(coalesce(sum(x.fuzzy), 0), coalesce(sum(x.total), 0)) as fuzzy_percent,
           coalesce(sum(x.approved), 0)::bigint as approved,
           coalesce(sum(x.approved_words), 0)::bigint as approved_words,
           weblate.truncated_percent(coalesce(sum(x.approved), 0), coalesce(sum(x.total), 0)) as approved_percent,
           case when count(x.failing) = count(x.translation_id) then coalesce(sum(x.failing), 0)::bigint end as failing,
           case when count(x.failing) = count(x.translation_id) then weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) end as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           count(x.translation_id) filter (where x.origin = 'estimated') as estimated_translations,
           case when bool_or(x.origin = 'estimated') then 'estimated' else 'measured' end as origin
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language)
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.component_id, x.component_slug, x.project_id, x.project_slug
    $fn$`,
  `create view "weblate"."component_progress_daily" as
    select * from weblate.progress_by_component_daily()`,
  `
    create function weblate.progress_by_project_daily(only_projects text[] default null, only_language text default null)
    returns table (day date, project_id integer, project_slug text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, estimated_translations bigint, origin text)
    language sql stable parallel safe as $fn$
    select x.day as day,
           x.project_id as project_id,
           x.project_slug as project_slug,
           count(distinct x.component_id) as components,
           count(x.translation_id) as translations,
           coalesce(sum(x.total), 0)::bigint as total,
           coalesce(sum(x.total_words), 0)::bigint as total_words,
           coalesce(sum(x.translated), 0)::bigint as translated,
           coalesce(sum(x.translated_words), 0)::bigint as translated_words,
           weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true) as translated_percent,
           weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true) as translated_words_percent,
           coalesce(sum(x.fuzzy), 0)::bigint as fuzzy,
           coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words,
           weblate.truncated_percent(coalesce(sum(x.fuzzy), 0), coalesce(sum(x.total), 0)) as fuzzy_percent,
           coalesce(sum(x.approved), 0)::bigint as approved,
           coalesce(sum(x.approved_words), 0)::bigint as approved_words,
           weblate.truncated_percent(coalesce(sum(x.approved), 0), coalesce(sum(x.total), 0)) as approved_percent,
           case when count(x.failing) = count(x.translation_id) then coalesce(sum(x.failing), 0)::bigint end as failing,
           case when count(x.failing) = count(x.translation_id) then weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) end as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           count(x.translation_id) filter (where x.origin = 'estimated') as estimated_translations,
           case when bool_or(x.origin = 'estimated') then 'estimated' else 'measured' end as origin
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language)
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.project_id, x.project_slug
    $fn$`,
  `create view "weblate"."project_progress_daily" as
    select * from weblate.progress_by_project_daily()`,
  `
    create function weblate.progress_by_language_daily(only_projects text[] default null, only_language text default null)
    returns table (day date, language_code text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, estimated_translations bigint, origin text)
    language sql stable parallel safe as $fn$
    select x.day as day,
           x.language_code as language_code,
           count(distinct x.component_id) as components,
           count(x.translation_id) as translations,
           coalesce(sum(x.total), 0)::bigint as total,
           coalesce(sum(x.total_words), 0)::bigint as total_words,
           coalesce(sum(x.translated), 0)::bigint as translated,
           coalesce(sum(x.translated_words), 0)::bigint as translated_words,
           weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true) as translated_percent,
           weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true) as translated_words_percent,
           coalesce(sum(x.fuzzy), 0)::bigint as fuzzy,
           coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words,
           weblate.truncated_percent(coalesce(sum(x.fuzzy), 0), coalesce(sum(x.total), 0)) as fuzzy_percent,
           coalesce(sum(x.approved), 0)::bigint as approved,
           coalesce(sum(x.approved_words), 0)::bigint as approved_words,
           weblate.truncated_percent(coalesce(sum(x.approved), 0), coalesce(sum(x.total), 0)) as approved_percent,
           case when count(x.failing) = count(x.translation_id) then coalesce(sum(x.failing), 0)::bigint end as failing,
           case when count(x.failing) = count(x.translation_id) then weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) end as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           count(x.translation_id) filter (where x.origin = 'estimated') as estimated_translations,
           case when bool_or(x.origin = 'estimated') then 'estimated' else 'measured' end as origin
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language)
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.language_code
    $fn$`,
  `create view "weblate"."language_progress_daily" as
    select * from weblate.progress_by_language_daily()`,
  `
    do $$
    begin
      if exists (select from pg_roles where rolname = 'weblate_reader') then
        grant execute on function weblate.progress_by_component(text[], text), weblate.progress_by_project(text[], text), weblate.progress_by_language(text[], text), weblate.progress_by_component_daily(text[], text), weblate.progress_by_project_daily(text[], text), weblate.progress_by_language_daily(text[], text), weblate.progress_total(text[], text) to weblate_reader;
      end if;
    exception
      when undefined_object then
        null; -- dropped meanwhile by another database's rollback: nothing to grant to
    end
    $$`,
];

/** What `down` runs, in order. */
const DOWN: readonly string[] = [
  `drop view "weblate"."component_progress_daily"`,
  `drop function weblate.progress_by_component_daily(text[], text)`,
  `drop view "weblate"."project_progress_daily"`,
  `drop function weblate.progress_by_project_daily(text[], text)`,
  `drop view "weblate"."language_progress_daily"`,
  `drop function weblate.progress_by_language_daily(text[], text)`,
  `drop view weblate.translation_progress_daily`,
  `create view weblate.translation_progress_daily as 
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
      least(s.next_day - 1, (now() at time zone 'UTC')::date, (t.deleted_at at time zone 'UTC')::date - 1)::timestamp,
      interval '1 day'
    ) as g(day)
    where t.is_source is not true`,
  `
    create function weblate.progress_by_component_daily(only_projects text[] default null, only_language text default null)
    returns table (day date, component_id integer, component_slug text, project_id integer, project_slug text, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint)
    language sql stable parallel safe as $fn$
    select x.day as day,
           x.component_id as component_id,
           x.component_slug as component_slug,
           x.project_id as project_id,
           x.project_slug as project_slug,
           count(x.translation_id) as translations,
           coalesce(sum(x.total), 0)::bigint as total,
           coalesce(sum(x.total_words), 0)::bigint as total_words,
           coalesce(sum(x.translated), 0)::bigint as translated,
           coalesce(sum(x.translated_words), 0)::bigint as translated_words,
           weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true) as translated_percent,
           weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true) as translated_words_percent,
           coalesce(sum(x.fuzzy), 0)::bigint as fuzzy,
           coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words,
           weblate.truncated_percent(coalesce(sum(x.fuzzy), 0), coalesce(sum(x.total), 0)) as fuzzy_percent,
           coalesce(sum(x.approved), 0)::bigint as approved,
           coalesce(sum(x.approved_words), 0)::bigint as approved_words,
           weblate.truncated_percent(coalesce(sum(x.approved), 0), coalesce(sum(x.total), 0)) as approved_percent,
           coalesce(sum(x.failing), 0)::bigint as failing,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language)
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.component_id, x.component_slug, x.project_id, x.project_slug
    $fn$`,
  `create view "weblate"."component_progress_daily" as
    select * from weblate.progress_by_component_daily()`,
  `
    create function weblate.progress_by_project_daily(only_projects text[] default null, only_language text default null)
    returns table (day date, project_id integer, project_slug text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint)
    language sql stable parallel safe as $fn$
    select x.day as day,
           x.project_id as project_id,
           x.project_slug as project_slug,
           count(distinct x.component_id) as components,
           count(x.translation_id) as translations,
           coalesce(sum(x.total), 0)::bigint as total,
           coalesce(sum(x.total_words), 0)::bigint as total_words,
           coalesce(sum(x.translated), 0)::bigint as translated,
           coalesce(sum(x.translated_words), 0)::bigint as translated_words,
           weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true) as translated_percent,
           weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true) as translated_words_percent,
           coalesce(sum(x.fuzzy), 0)::bigint as fuzzy,
           coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words,
           weblate.truncated_percent(coalesce(sum(x.fuzzy), 0), coalesce(sum(x.total), 0)) as fuzzy_percent,
           coalesce(sum(x.approved), 0)::bigint as approved,
           coalesce(sum(x.approved_words), 0)::bigint as approved_words,
           weblate.truncated_percent(coalesce(sum(x.approved), 0), coalesce(sum(x.total), 0)) as approved_percent,
           coalesce(sum(x.failing), 0)::bigint as failing,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language)
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.project_id, x.project_slug
    $fn$`,
  `create view "weblate"."project_progress_daily" as
    select * from weblate.progress_by_project_daily()`,
  `
    create function weblate.progress_by_language_daily(only_projects text[] default null, only_language text default null)
    returns table (day date, language_code text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint)
    language sql stable parallel safe as $fn$
    select x.day as day,
           x.language_code as language_code,
           count(distinct x.component_id) as components,
           count(x.translation_id) as translations,
           coalesce(sum(x.total), 0)::bigint as total,
           coalesce(sum(x.total_words), 0)::bigint as total_words,
           coalesce(sum(x.translated), 0)::bigint as translated,
           coalesce(sum(x.translated_words), 0)::bigint as translated_words,
           weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true) as translated_percent,
           weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true) as translated_words_percent,
           coalesce(sum(x.fuzzy), 0)::bigint as fuzzy,
           coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words,
           weblate.truncated_percent(coalesce(sum(x.fuzzy), 0), coalesce(sum(x.total), 0)) as fuzzy_percent,
           coalesce(sum(x.approved), 0)::bigint as approved,
           coalesce(sum(x.approved_words), 0)::bigint as approved_words,
           weblate.truncated_percent(coalesce(sum(x.approved), 0), coalesce(sum(x.total), 0)) as approved_percent,
           coalesce(sum(x.failing), 0)::bigint as failing,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language)
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.language_code
    $fn$`,
  `create view "weblate"."language_progress_daily" as
    select * from weblate.progress_by_language_daily()`,
  `
    do $$
    begin
      if exists (select from pg_roles where rolname = 'weblate_reader') then
        grant execute on function weblate.progress_by_component(text[], text), weblate.progress_by_project(text[], text), weblate.progress_by_language(text[], text), weblate.progress_by_component_daily(text[], text), weblate.progress_by_project_daily(text[], text), weblate.progress_by_language_daily(text[], text), weblate.progress_total(text[], text) to weblate_reader;
      end if;
    exception
      when undefined_object then
        null; -- dropped meanwhile by another database's rollback: nothing to grant to
    end
    $$`,
  `drop table weblate.translation_progress_estimated`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

// Daily progress without a row per translation and day being built. Each translation's
// history becomes spans of days holding the same figures (translation_progress_spans);
// translation_progress_daily joins them with a calendar, so a filter on `day` narrows the
// calendar first, and the daily summaries (categories' too) and failing_checks read the
// spans; progress_by_label reads the units once, and JIT is off for the database. Same rows and columns
// as before (test/db/progress-spans.test.ts); why and how much, docs/performance.md,
// "Reporting at the large shape". Frozen once merged; add a new migration.
//
// Written out as the statements it ran when it landed, so that no migration reads another's
// SQL; schema/ holds each object's current definition (docs/schema.md, "Where a definition lives").

/** What `up` runs, in order. */
const UP: readonly string[] = [
  `
    create function weblate.translation_progress_spans(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (translation_id integer, project_id integer, project_slug text,
  component_id integer, component_slug text, language_code text, first_day date, last_day date,
  total integer, total_words integer, translated integer, translated_words integer, fuzzy integer, fuzzy_words integer, approved integer, approved_words integer, failing integer, captured_at timestamptz,
  origin text)
    language sql stable parallel safe as $fn$
  with scope as (
    select t.id as translation_id, c.project_id, p.slug as project_slug, c.id as component_id,
           c.slug as component_slug, t.language_code,
           (t.deleted_at at time zone 'UTC')::date as deleted_day
    from weblate.translations t
    join weblate.components c on c.id = t.component_id
    join weblate.projects p on p.id = c.project_id
    where t.is_source is not true
      and (only_language is null or t.language_code = only_language)
      and (only_projects is null or p.slug = any(only_projects))
      and (only_components is null or c.slug = any(only_components))
  ), last_of_day as (
    select distinct on (s.translation_id, (s.captured_at at time zone 'UTC')::date)
           s.translation_id, (s.captured_at at time zone 'UTC')::date as captured_day,
           s.total, s.total_words, s.translated, s.translated_words, s.fuzzy, s.fuzzy_words, s.approved, s.approved_words, s.failing, s.captured_at
    from weblate.translation_statistics s
    where (only_projects is null and only_language is null and only_components is null)
       or s.translation_id in (select translation_id from scope)
    order by s.translation_id, (s.captured_at at time zone 'UTC')::date, s.captured_at desc
  ), measured as (
    select d.*, lead(d.captured_day) over (partition by d.translation_id order by d.captured_day)
             as next_day
    from last_of_day d
  ), estimated as (
    select e.*, lead(e.day) over (partition by e.translation_id order by e.day) as next_day,
           f.measured_from
    from weblate.translation_progress_estimated e
    left join (
      select s.translation_id, (min(s.captured_at) at time zone 'UTC')::date as measured_from
      from weblate.translation_statistics s group by s.translation_id
    ) f using (translation_id)
    where (only_projects is null and only_language is null and only_components is null)
       or e.translation_id in (select translation_id from scope)
  ), spans as (
    -- least() ignores nulls: the last snapshot of a live translation holds until today.
    select m.translation_id, m.captured_day as first_day,
           least(m.next_day - 1, (now() at time zone 'UTC')::date, sc.deleted_day - 1) as last_day,
           m.total, m.total_words, m.translated, m.translated_words, m.fuzzy, m.fuzzy_words, m.approved, m.approved_words, m.failing, m.captured_at,
           'measured'::text as origin
    from measured m join scope sc using (translation_id)
    union all
    -- An estimate holds until the next one, and stops the day before the first snapshot.
    select e.translation_id, e.day, least(e.next_day, e.measured_from) - 1,
           e.total, e.total_words, e.translated, e.translated_words, e.fuzzy, e.fuzzy_words, e.approved, e.approved_words, null::integer, null::timestamptz,
           'estimated'::text
    from estimated e
  )
  select s.translation_id, sc.project_id, sc.project_slug, sc.component_id, sc.component_slug,
         sc.language_code, s.first_day, s.last_day,
         s.total, s.total_words, s.translated, s.translated_words, s.fuzzy, s.fuzzy_words, s.approved, s.approved_words, s.failing, s.captured_at, s.origin
  from spans s join scope sc using (translation_id)
  where s.last_day >= s.first_day$fn$`,
  `create or replace view weblate.translation_progress_daily as 
  select d.day, s.translation_id, s.project_id, s.project_slug, s.component_id, s.component_slug,
         s.language_code, s.total, s.total_words, s.translated, s.translated_words,
         weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
         weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
         s.fuzzy, s.fuzzy_words, weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
         s.approved, s.approved_words,
         weblate.truncated_percent(s.approved, s.total) as approved_percent,
         s.failing, weblate.truncated_percent(s.failing, s.total) as failing_percent,
         s.total - s.translated as untranslated,
         s.total_words - s.translated_words as untranslated_words,
         s.captured_at, s.origin
  from (
    -- Every day from the first estimate or snapshot to today.
    select g.day::date as day
    from generate_series(
      least((select min(e.day) from weblate.translation_progress_estimated e),
            (select (min(s.captured_at) at time zone 'UTC')::date from weblate.translation_statistics s)
      )::timestamp,
      (now() at time zone 'UTC')::date::timestamp, interval '1 day') as g(day)
  ) d
  join weblate.translation_progress_spans() s on d.day between s.first_day and s.last_day`,
  `
    create or replace function weblate.progress_by_component_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (day date, component_id integer, component_slug text, project_id integer, project_slug text, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, estimated_translations bigint, origin text)
    language sql stable parallel safe as $fn$
    with events as (
      select s.component_id as component_id, s.component_slug as component_slug, s.project_id as project_id, s.project_slug as project_slug, s.component_id as span_component,
             ev.day, ev.sign * 1::bigint as translations, ev.sign * (s.origin = 'estimated')::integer::bigint as estimated, ev.sign * (s.failing is not null)::integer::bigint as failing_known, ev.sign * coalesce(s.total, 0)::bigint as total, ev.sign * coalesce(s.total_words, 0)::bigint as total_words, ev.sign * coalesce(s.translated, 0)::bigint as translated, ev.sign * coalesce(s.translated_words, 0)::bigint as translated_words, ev.sign * coalesce(s.fuzzy, 0)::bigint as fuzzy, ev.sign * coalesce(s.fuzzy_words, 0)::bigint as fuzzy_words, ev.sign * coalesce(s.approved, 0)::bigint as approved, ev.sign * coalesce(s.approved_words, 0)::bigint as approved_words, ev.sign * coalesce(s.failing, 0)::bigint as failing, ev.sign * coalesce(s.total - s.translated, 0)::bigint as untranslated, ev.sign * coalesce(s.total_words - s.translated_words, 0)::bigint as untranslated_words
      from weblate.translation_progress_spans(only_projects, only_language, only_components) s
      cross join lateral (values (s.first_day, 1), (s.last_day + 1, -1)) as ev(day, sign)
    ), by_day as (
      select component_id, component_slug, project_id, project_slug, day, sum(translations)::bigint as translations, sum(estimated)::bigint as estimated, sum(failing_known)::bigint as failing_known, sum(total)::bigint as total, sum(total_words)::bigint as total_words, sum(translated)::bigint as translated, sum(translated_words)::bigint as translated_words, sum(fuzzy)::bigint as fuzzy, sum(fuzzy_words)::bigint as fuzzy_words, sum(approved)::bigint as approved, sum(approved_words)::bigint as approved_words, sum(failing)::bigint as failing, sum(untranslated)::bigint as untranslated, sum(untranslated_words)::bigint as untranslated_words
      from (select component_id, component_slug, project_id, project_slug, day, translations, estimated, failing_known, total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words, failing, untranslated, untranslated_words from events) e
      group by component_id, component_slug, project_id, project_slug, day
    ), runs as (
      select component_id, component_slug, project_id, project_slug, day, lead(day) over w as next_day,
             sum(translations) over w::bigint as translations, sum(estimated) over w::bigint as estimated, sum(failing_known) over w::bigint as failing_known, sum(total) over w::bigint as total, sum(total_words) over w::bigint as total_words, sum(translated) over w::bigint as translated, sum(translated_words) over w::bigint as translated_words, sum(fuzzy) over w::bigint as fuzzy, sum(fuzzy_words) over w::bigint as fuzzy_words, sum(approved) over w::bigint as approved, sum(approved_words) over w::bigint as approved_words, sum(failing) over w::bigint as failing, sum(untranslated) over w::bigint as untranslated, sum(untranslated_words) over w::bigint as untranslated_words
      from by_day
      window w as (partition by component_id, component_slug, project_id, project_slug order by day)
    )
    select g.day::date, r.component_id, r.component_slug, r.project_id, r.project_slug, r.translations, r.total, r.total_words, r.translated, r.translated_words, weblate.truncated_percent(r.translated, r.total, true), weblate.truncated_percent(r.translated_words, r.total_words, true), r.fuzzy, r.fuzzy_words, weblate.truncated_percent(r.fuzzy, r.total), r.approved, r.approved_words, weblate.truncated_percent(r.approved, r.total), case when r.failing_known = r.translations then r.failing end, case when r.failing_known = r.translations then weblate.truncated_percent(r.failing, r.total) end, r.untranslated, r.untranslated_words, r.estimated, case when r.estimated > 0 then 'estimated' else 'measured' end
    from runs r
    cross join lateral generate_series(r.day::timestamp, (r.next_day - 1)::timestamp,
                                       interval '1 day') as g(day)
    where r.translations > 0$fn$`,
  `
    create or replace function weblate.progress_by_project_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (day date, project_id integer, project_slug text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, estimated_translations bigint, origin text)
    language sql stable parallel safe as $fn$
    with events as (
      select s.project_id as project_id, s.project_slug as project_slug, s.component_id as span_component,
             ev.day, ev.sign * 1::bigint as translations, ev.sign * (s.origin = 'estimated')::integer::bigint as estimated, ev.sign * (s.failing is not null)::integer::bigint as failing_known, ev.sign * coalesce(s.total, 0)::bigint as total, ev.sign * coalesce(s.total_words, 0)::bigint as total_words, ev.sign * coalesce(s.translated, 0)::bigint as translated, ev.sign * coalesce(s.translated_words, 0)::bigint as translated_words, ev.sign * coalesce(s.fuzzy, 0)::bigint as fuzzy, ev.sign * coalesce(s.fuzzy_words, 0)::bigint as fuzzy_words, ev.sign * coalesce(s.approved, 0)::bigint as approved, ev.sign * coalesce(s.approved_words, 0)::bigint as approved_words, ev.sign * coalesce(s.failing, 0)::bigint as failing, ev.sign * coalesce(s.total - s.translated, 0)::bigint as untranslated, ev.sign * coalesce(s.total_words - s.translated_words, 0)::bigint as untranslated_words
      from weblate.translation_progress_spans(only_projects, only_language, only_components) s
      cross join lateral (values (s.first_day, 1), (s.last_day + 1, -1)) as ev(day, sign)
    ), by_component as (
        select project_id, project_slug, span_component, day, sum(translations) as n
        from events group by project_id, project_slug, span_component, day
      ), component_runs as (
        select project_id, project_slug, span_component, day,
               sum(n) over (partition by project_id, project_slug, span_component order by day) as n
        from by_component
      ), component_events as (
        select project_id, project_slug, day,
               (n > 0)::integer
                 - (coalesce(lag(n) over (partition by project_id, project_slug, span_component order by day), 0) > 0)::integer
                 as components
        from component_runs
      ), by_day as (
      select project_id, project_slug, day, sum(components) as components, sum(translations)::bigint as translations, sum(estimated)::bigint as estimated, sum(failing_known)::bigint as failing_known, sum(total)::bigint as total, sum(total_words)::bigint as total_words, sum(translated)::bigint as translated, sum(translated_words)::bigint as translated_words, sum(fuzzy)::bigint as fuzzy, sum(fuzzy_words)::bigint as fuzzy_words, sum(approved)::bigint as approved, sum(approved_words)::bigint as approved_words, sum(failing)::bigint as failing, sum(untranslated)::bigint as untranslated, sum(untranslated_words)::bigint as untranslated_words
      from (select project_id, project_slug, day, translations, estimated, failing_known, total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words, failing, untranslated, untranslated_words, 0 as components from events
       union all
       select project_id, project_slug, day, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, components from component_events) e
      group by project_id, project_slug, day
    ), runs as (
      select project_id, project_slug, day, lead(day) over w as next_day,
             sum(components) over w::bigint as components, sum(translations) over w::bigint as translations, sum(estimated) over w::bigint as estimated, sum(failing_known) over w::bigint as failing_known, sum(total) over w::bigint as total, sum(total_words) over w::bigint as total_words, sum(translated) over w::bigint as translated, sum(translated_words) over w::bigint as translated_words, sum(fuzzy) over w::bigint as fuzzy, sum(fuzzy_words) over w::bigint as fuzzy_words, sum(approved) over w::bigint as approved, sum(approved_words) over w::bigint as approved_words, sum(failing) over w::bigint as failing, sum(untranslated) over w::bigint as untranslated, sum(untranslated_words) over w::bigint as untranslated_words
      from by_day
      window w as (partition by project_id, project_slug order by day)
    )
    select g.day::date, r.project_id, r.project_slug, r.components, r.translations, r.total, r.total_words, r.translated, r.translated_words, weblate.truncated_percent(r.translated, r.total, true), weblate.truncated_percent(r.translated_words, r.total_words, true), r.fuzzy, r.fuzzy_words, weblate.truncated_percent(r.fuzzy, r.total), r.approved, r.approved_words, weblate.truncated_percent(r.approved, r.total), case when r.failing_known = r.translations then r.failing end, case when r.failing_known = r.translations then weblate.truncated_percent(r.failing, r.total) end, r.untranslated, r.untranslated_words, r.estimated, case when r.estimated > 0 then 'estimated' else 'measured' end
    from runs r
    cross join lateral generate_series(r.day::timestamp, (r.next_day - 1)::timestamp,
                                       interval '1 day') as g(day)
    where r.translations > 0$fn$`,
  `
    create or replace function weblate.progress_by_language_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (day date, language_code text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, estimated_translations bigint, origin text)
    language sql stable parallel safe as $fn$
    with events as (
      select s.language_code as language_code, s.component_id as span_component,
             ev.day, ev.sign * 1::bigint as translations, ev.sign * (s.origin = 'estimated')::integer::bigint as estimated, ev.sign * (s.failing is not null)::integer::bigint as failing_known, ev.sign * coalesce(s.total, 0)::bigint as total, ev.sign * coalesce(s.total_words, 0)::bigint as total_words, ev.sign * coalesce(s.translated, 0)::bigint as translated, ev.sign * coalesce(s.translated_words, 0)::bigint as translated_words, ev.sign * coalesce(s.fuzzy, 0)::bigint as fuzzy, ev.sign * coalesce(s.fuzzy_words, 0)::bigint as fuzzy_words, ev.sign * coalesce(s.approved, 0)::bigint as approved, ev.sign * coalesce(s.approved_words, 0)::bigint as approved_words, ev.sign * coalesce(s.failing, 0)::bigint as failing, ev.sign * coalesce(s.total - s.translated, 0)::bigint as untranslated, ev.sign * coalesce(s.total_words - s.translated_words, 0)::bigint as untranslated_words
      from weblate.translation_progress_spans(only_projects, only_language, only_components) s
      cross join lateral (values (s.first_day, 1), (s.last_day + 1, -1)) as ev(day, sign)
    ), by_component as (
        select language_code, span_component, day, sum(translations) as n
        from events group by language_code, span_component, day
      ), component_runs as (
        select language_code, span_component, day,
               sum(n) over (partition by language_code, span_component order by day) as n
        from by_component
      ), component_events as (
        select language_code, day,
               (n > 0)::integer
                 - (coalesce(lag(n) over (partition by language_code, span_component order by day), 0) > 0)::integer
                 as components
        from component_runs
      ), by_day as (
      select language_code, day, sum(components) as components, sum(translations)::bigint as translations, sum(estimated)::bigint as estimated, sum(failing_known)::bigint as failing_known, sum(total)::bigint as total, sum(total_words)::bigint as total_words, sum(translated)::bigint as translated, sum(translated_words)::bigint as translated_words, sum(fuzzy)::bigint as fuzzy, sum(fuzzy_words)::bigint as fuzzy_words, sum(approved)::bigint as approved, sum(approved_words)::bigint as approved_words, sum(failing)::bigint as failing, sum(untranslated)::bigint as untranslated, sum(untranslated_words)::bigint as untranslated_words
      from (select language_code, day, translations, estimated, failing_known, total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words, failing, untranslated, untranslated_words, 0 as components from events
       union all
       select language_code, day, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, components from component_events) e
      group by language_code, day
    ), runs as (
      select language_code, day, lead(day) over w as next_day,
             sum(components) over w::bigint as components, sum(translations) over w::bigint as translations, sum(estimated) over w::bigint as estimated, sum(failing_known) over w::bigint as failing_known, sum(total) over w::bigint as total, sum(total_words) over w::bigint as total_words, sum(translated) over w::bigint as translated, sum(translated_words) over w::bigint as translated_words, sum(fuzzy) over w::bigint as fuzzy, sum(fuzzy_words) over w::bigint as fuzzy_words, sum(approved) over w::bigint as approved, sum(approved_words) over w::bigint as approved_words, sum(failing) over w::bigint as failing, sum(untranslated) over w::bigint as untranslated, sum(untranslated_words) over w::bigint as untranslated_words
      from by_day
      window w as (partition by language_code order by day)
    )
    select g.day::date, r.language_code, r.components, r.translations, r.total, r.total_words, r.translated, r.translated_words, weblate.truncated_percent(r.translated, r.total, true), weblate.truncated_percent(r.translated_words, r.total_words, true), r.fuzzy, r.fuzzy_words, weblate.truncated_percent(r.fuzzy, r.total), r.approved, r.approved_words, weblate.truncated_percent(r.approved, r.total), case when r.failing_known = r.translations then r.failing end, case when r.failing_known = r.translations then weblate.truncated_percent(r.failing, r.total) end, r.untranslated, r.untranslated_words, r.estimated, case when r.estimated > 0 then 'estimated' else 'measured' end
    from runs r
    cross join lateral generate_series(r.day::timestamp, (r.next_day - 1)::timestamp,
                                       interval '1 day') as g(day)
    where r.translations > 0$fn$`,
  `
    create or replace function weblate.progress_by_category_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (day date, category_id integer, category_slug text, project_id integer, project_slug text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, estimated_translations bigint, origin text)
    language sql stable parallel safe as $fn$
    with events as (
      select k.id as category_id, k.slug as category_slug, k.project_id as project_id, k.project_slug as project_slug, s.component_id as span_component,
             ev.day, ev.sign * 1::bigint as translations, ev.sign * (s.origin = 'estimated')::integer::bigint as estimated, ev.sign * (s.failing is not null)::integer::bigint as failing_known, ev.sign * coalesce(s.total, 0)::bigint as total, ev.sign * coalesce(s.total_words, 0)::bigint as total_words, ev.sign * coalesce(s.translated, 0)::bigint as translated, ev.sign * coalesce(s.translated_words, 0)::bigint as translated_words, ev.sign * coalesce(s.fuzzy, 0)::bigint as fuzzy, ev.sign * coalesce(s.fuzzy_words, 0)::bigint as fuzzy_words, ev.sign * coalesce(s.approved, 0)::bigint as approved, ev.sign * coalesce(s.approved_words, 0)::bigint as approved_words, ev.sign * coalesce(s.failing, 0)::bigint as failing, ev.sign * coalesce(s.total - s.translated, 0)::bigint as untranslated, ev.sign * coalesce(s.total_words - s.translated_words, 0)::bigint as untranslated_words
      from weblate.translation_progress_spans(only_projects, only_language, only_components) s
      join weblate.components c on c.id = s.component_id
      join weblate.category_tree tr on tr.category_id = c.category_id
      join weblate.categories k on k.id = tr.ancestor_id
      cross join lateral (values (s.first_day, 1), (s.last_day + 1, -1)) as ev(day, sign)
    ), by_component as (
        select category_id, category_slug, project_id, project_slug, span_component, day, sum(translations) as n
        from events group by category_id, category_slug, project_id, project_slug, span_component, day
      ), component_runs as (
        select category_id, category_slug, project_id, project_slug, span_component, day,
               sum(n) over (partition by category_id, category_slug, project_id, project_slug, span_component order by day) as n
        from by_component
      ), component_events as (
        select category_id, category_slug, project_id, project_slug, day,
               (n > 0)::integer
                 - (coalesce(lag(n) over (partition by category_id, category_slug, project_id, project_slug, span_component order by day), 0) > 0)::integer
                 as components
        from component_runs
      ), by_day as (
      select category_id, category_slug, project_id, project_slug, day, sum(components) as components, sum(translations)::bigint as translations, sum(estimated)::bigint as estimated, sum(failing_known)::bigint as failing_known, sum(total)::bigint as total, sum(total_words)::bigint as total_words, sum(translated)::bigint as translated, sum(translated_words)::bigint as translated_words, sum(fuzzy)::bigint as fuzzy, sum(fuzzy_words)::bigint as fuzzy_words, sum(approved)::bigint as approved, sum(approved_words)::bigint as approved_words, sum(failing)::bigint as failing, sum(untranslated)::bigint as untranslated, sum(untranslated_words)::bigint as untranslated_words
      from (select category_id, category_slug, project_id, project_slug, day, translations, estimated, failing_known, total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words, failing, untranslated, untranslated_words, 0 as components from events
       union all
       select category_id, category_slug, project_id, project_slug, day, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, components from component_events) e
      group by category_id, category_slug, project_id, project_slug, day
    ), runs as (
      select category_id, category_slug, project_id, project_slug, day, lead(day) over w as next_day,
             sum(components) over w::bigint as components, sum(translations) over w::bigint as translations, sum(estimated) over w::bigint as estimated, sum(failing_known) over w::bigint as failing_known, sum(total) over w::bigint as total, sum(total_words) over w::bigint as total_words, sum(translated) over w::bigint as translated, sum(translated_words) over w::bigint as translated_words, sum(fuzzy) over w::bigint as fuzzy, sum(fuzzy_words) over w::bigint as fuzzy_words, sum(approved) over w::bigint as approved, sum(approved_words) over w::bigint as approved_words, sum(failing) over w::bigint as failing, sum(untranslated) over w::bigint as untranslated, sum(untranslated_words) over w::bigint as untranslated_words
      from by_day
      window w as (partition by category_id, category_slug, project_id, project_slug order by day)
    )
    select g.day::date, r.category_id, r.category_slug, r.project_id, r.project_slug, r.components, r.translations, r.total, r.total_words, r.translated, r.translated_words, weblate.truncated_percent(r.translated, r.total, true), weblate.truncated_percent(r.translated_words, r.total_words, true), r.fuzzy, r.fuzzy_words, weblate.truncated_percent(r.fuzzy, r.total), r.approved, r.approved_words, weblate.truncated_percent(r.approved, r.total), case when r.failing_known = r.translations then r.failing end, case when r.failing_known = r.translations then weblate.truncated_percent(r.failing, r.total) end, r.untranslated, r.untranslated_words, r.estimated, case when r.estimated > 0 then 'estimated' else 'measured' end
    from runs r
    cross join lateral generate_series(r.day::timestamp, (r.next_day - 1)::timestamp,
                                       interval '1 day') as g(day)
    where r.translations > 0$fn$`,
  `
    create or replace function weblate.failing_checks(period_unit text default 'week', per text default 'translation', only_projects text[] default null, only_components text[] default null, only_language text default null, since timestamptz default null, until timestamptz default null)
    returns table (period_start date, day date, translation_id integer, project_slug text,
      component_slug text, language_code text, translations bigint, failing bigint,
      total bigint, failing_percent numeric)
    language sql stable parallel safe as $fn$
    with clipped as (
      select s.translation_id, s.project_slug, s.component_slug, s.language_code, s.failing,
             s.total, greatest(s.first_day, (since at time zone 'UTC')::date) as f,
             least(s.last_day, (until at time zone 'UTC')::date - 1) as l
      from weblate.translation_progress_spans(only_projects, only_language, only_components) s
      where s.origin = 'measured' and per in ('translation', 'language')
    ), step as (
      select case lower(period_unit)
               when 'day' then interval '1 day' when 'week' then interval '1 week'
               when 'month' then interval '1 month' when 'quarter' then interval '3 months'
               when 'year' then interval '1 year'
             end as step
    ), ends as (
      select c.*, p.start::date as period_start, least(c.l, (p.start + st.step)::date - 1) as day
      from clipped c cross join step st
      cross join lateral generate_series(date_trunc(period_unit, c.f::timestamp),
                                         date_trunc(period_unit, c.l::timestamp), st.step) as p(start)
      where c.l >= c.f and st.step is not null
      union all
      select c.*, null::date, c.l from clipped c where c.l >= c.f and period_unit is null
      union all
      select c.*, date_trunc(period_unit, g.day)::date, g.day::date
      from clipped c cross join step st
      cross join lateral generate_series(c.f::timestamp, c.l::timestamp, interval '1 day') as g(day)
      where c.l >= c.f and st.step is null and period_unit is not null
    ), last_day as (
      select distinct on (e.translation_id, e.period_start) e.*
      from ends e
      order by e.translation_id, e.period_start, e.day desc
    )
      select l.period_start, max(l.day) as day,
             case when per = 'translation' then l.translation_id end as translation_id,
             case when per = 'translation' then l.project_slug end as project_slug,
             case when per = 'translation' then l.component_slug end as component_slug,
             l.language_code,
             count(*) as translations,
             coalesce(sum(l.failing), 0)::bigint as failing,
             coalesce(sum(l.total), 0)::bigint as total,
             weblate.truncated_percent(coalesce(sum(l.failing), 0), coalesce(sum(l.total), 0))
               as failing_percent
      from last_day l
      group by 1, 3, 4, 5, 6$fn$`,
  `
    create or replace function weblate.progress_by_label(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (label_id integer, label_name text, project_id integer, project_slug text, language_code text, translations bigint, total bigint, total_words bigint, translated bigint,
  translated_words bigint, fuzzy bigint, fuzzy_words bigint, approved bigint,
  approved_words bigint, failing bigint, translated_percent numeric,
  translated_words_percent numeric, fuzzy_percent numeric, approved_percent numeric,
  failing_percent numeric, untranslated bigint, untranslated_words bigint)
    language sql stable parallel safe as $fn$
      select s.label_id, lb.name as label_name, lb.project_id, lb.project_slug, s.language_code,
             s.translations, s.total, s.total_words, s.translated, s.translated_words, s.fuzzy, s.fuzzy_words, s.approved, s.approved_words, s.failing, 
  weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
  weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
  weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
  weblate.truncated_percent(s.approved, s.total) as approved_percent,
  weblate.truncated_percent(s.failing, s.total) as failing_percent,
  s.total - s.translated as untranslated,
  s.total_words - s.translated_words as untranslated_words
      from (
        select x.label_id, x.language_code, count(*) as translations, coalesce(sum(x.total), 0)::bigint as total, coalesce(sum(x.total_words), 0)::bigint as total_words, coalesce(sum(x.translated), 0)::bigint as translated, coalesce(sum(x.translated_words), 0)::bigint as translated_words, coalesce(sum(x.fuzzy), 0)::bigint as fuzzy, coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words, coalesce(sum(x.approved), 0)::bigint as approved, coalesce(sum(x.approved_words), 0)::bigint as approved_words, coalesce(sum(x.failing), 0)::bigint as failing
        from (
  select u.label_id, t.id as translation_id, p.id as project_id, p.slug as project_slug,
         c.id as component_id, c.slug as component_slug, t.language_code, count(*)::integer as total,
  coalesce(sum(u.num_words), 0)::integer as total_words,
  count(*) filter (where u.state >= 20)::integer as translated,
  coalesce(sum(u.num_words) filter (where u.state >= 20), 0)::integer as translated_words,
  count(*) filter (where u.state between 10 and 19)::integer as fuzzy,
  coalesce(sum(u.num_words) filter (where u.state between 10 and 19), 0)::integer as fuzzy_words,
  count(*) filter (where u.state = 30)::integer as approved,
  coalesce(sum(u.num_words) filter (where u.state = 30), 0)::integer as approved_words,
  count(*) filter (where u.has_failing_check)::integer as failing
  from (
      select ul.label_id, u.id as unit_id, u.translation_id, u.state, u.num_words,
             u.has_failing_check
      from weblate.unit_labels ul
      join weblate.labels lb on lb.id = ul.label_id and lb.deleted_at is null
      join weblate.units u on u.id = ul.unit_id
      where ul.deleted_at is null and u.deleted_at is null
      union
      select ul.label_id, u.id, u.translation_id, u.state, u.num_words, u.has_failing_check
      from weblate.unit_labels ul
      join weblate.labels lb on lb.id = ul.label_id and lb.deleted_at is null
      join weblate.units u on u.source_unit_id = ul.unit_id
      where ul.deleted_at is null and u.deleted_at is null
    ) u
  join weblate.translations t on t.id = u.translation_id
  join weblate.components c on c.id = t.component_id
  join weblate.projects p on p.id = c.project_id
  where t.deleted_at is null and c.deleted_at is null and p.deleted_at is null
    and t.is_source is not true
  group by u.label_id, t.id, p.id, c.id) x
        where (only_projects is null or x.project_slug = any(only_projects))
  and (only_language is null or x.language_code = only_language)
  and (only_components is null or x.component_slug = any(only_components))
        group by x.label_id, x.language_code
      ) s
      join weblate.labels lb on lb.id = s.label_id$fn$`,
  `
    do $$
    begin
      if exists (select from pg_roles where rolname = 'weblate_reader') then
        grant execute on function weblate.translation_progress_spans(text[], text, text[]) to weblate_reader;
      end if;
    exception
      when undefined_object then
        null; -- dropped meanwhile by another database's rollback: nothing to grant to
    end
    $$`,
  `
    do $$
    begin
      execute format('alter database %I set jit = off', current_database());
    exception
      when insufficient_privilege then
        raise notice 'the database keeps its jit setting: %', sqlerrm;
    end
    $$`,
];

/** What `down` runs, in order. */
const DOWN: readonly string[] = [
  `
    create or replace function weblate.progress_by_component_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
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
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.component_id, x.component_slug, x.project_id, x.project_slug
    $fn$`,
  `
    create or replace function weblate.progress_by_project_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
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
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.project_id, x.project_slug
    $fn$`,
  `
    create or replace function weblate.progress_by_language_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
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
    from weblate.translation_progress_daily x where true and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, x.language_code
    $fn$`,
  `
    create or replace function weblate.progress_by_category_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (day date, category_id integer, category_slug text, project_id integer, project_slug text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, estimated_translations bigint, origin text)
    language sql stable parallel safe as $fn$
    select x.day as day,
           k.id as category_id,
           k.slug as category_slug,
           k.project_id as project_id,
           k.project_slug as project_slug,
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
    from weblate.translation_progress_daily x
      join weblate.components c on c.id = x.component_id
      join weblate.category_tree tr on tr.category_id = c.category_id
      join weblate.categories k on k.id = tr.ancestor_id
      where true and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.day, k.id
    $fn$`,
  `
    create or replace function weblate.failing_checks(period_unit text default 'week', per text default 'translation', only_projects text[] default null, only_components text[] default null, only_language text default null, since timestamptz default null, until timestamptz default null)
    returns table (period_start date, day date, translation_id integer, project_slug text,
      component_slug text, language_code text, translations bigint, failing bigint,
      total bigint, failing_percent numeric)
    language sql stable parallel safe as $fn$
      with last_day as (
        select distinct on (x.translation_id, date_trunc(period_unit, x.day::timestamp))
               date_trunc(period_unit, x.day::timestamp)::date as period_start,
               x.day, x.translation_id, x.project_slug, x.component_slug, x.language_code,
               x.failing, x.total
        from weblate.translation_progress_daily x
        where x.origin = 'measured'
          and per in ('translation', 'language')
          and (only_projects is null or x.project_slug = any(only_projects))
    and (only_components is null or x.component_slug = any(only_components))
    and (only_language is null or x.language_code = only_language)
          and (since is null or x.day >= (since at time zone 'UTC')::date)
          and (until is null or x.day < (until at time zone 'UTC')::date)
        order by x.translation_id, date_trunc(period_unit, x.day::timestamp), x.day desc
      )
      select l.period_start, max(l.day) as day,
             case when per = 'translation' then l.translation_id end as translation_id,
             case when per = 'translation' then l.project_slug end as project_slug,
             case when per = 'translation' then l.component_slug end as component_slug,
             l.language_code,
             count(*) as translations,
             coalesce(sum(l.failing), 0)::bigint as failing,
             coalesce(sum(l.total), 0)::bigint as total,
             weblate.truncated_percent(coalesce(sum(l.failing), 0), coalesce(sum(l.total), 0))
               as failing_percent
      from last_day l
      group by 1, 3, 4, 5, 6$fn$`,
  `
    create or replace function weblate.progress_by_label(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (label_id integer, label_name text, project_id integer, project_slug text, language_code text, translations bigint, total bigint, total_words bigint, translated bigint,
  translated_words bigint, fuzzy bigint, fuzzy_words bigint, approved bigint,
  approved_words bigint, failing bigint, translated_percent numeric,
  translated_words_percent numeric, fuzzy_percent numeric, approved_percent numeric,
  failing_percent numeric, untranslated bigint, untranslated_words bigint)
    language sql stable parallel safe as $fn$
      select s.label_id, lb.name as label_name, lb.project_id, lb.project_slug, s.language_code,
             s.translations, s.total, s.total_words, s.translated, s.translated_words, s.fuzzy, s.fuzzy_words, s.approved, s.approved_words, s.failing, 
  weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
  weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
  weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
  weblate.truncated_percent(s.approved, s.total) as approved_percent,
  weblate.truncated_percent(s.failing, s.total) as failing_percent,
  s.total - s.translated as untranslated,
  s.total_words - s.translated_words as untranslated_words
      from (
        select x.label_id, x.language_code, count(*) as translations, coalesce(sum(x.total), 0)::bigint as total, coalesce(sum(x.total_words), 0)::bigint as total_words, coalesce(sum(x.translated), 0)::bigint as translated, coalesce(sum(x.translated_words), 0)::bigint as translated_words, coalesce(sum(x.fuzzy), 0)::bigint as fuzzy, coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words, coalesce(sum(x.approved), 0)::bigint as approved, coalesce(sum(x.approved_words), 0)::bigint as approved_words, coalesce(sum(x.failing), 0)::bigint as failing
        from (
  select u.label_id, t.id as translation_id, p.id as project_id, p.slug as project_slug,
         c.id as component_id, c.slug as component_slug, t.language_code, count(*)::integer as total,
  coalesce(sum(u.num_words), 0)::integer as total_words,
  count(*) filter (where u.state >= 20)::integer as translated,
  coalesce(sum(u.num_words) filter (where u.state >= 20), 0)::integer as translated_words,
  count(*) filter (where u.state between 10 and 19)::integer as fuzzy,
  coalesce(sum(u.num_words) filter (where u.state between 10 and 19), 0)::integer as fuzzy_words,
  count(*) filter (where u.state = 30)::integer as approved,
  coalesce(sum(u.num_words) filter (where u.state = 30), 0)::integer as approved_words,
  count(*) filter (where u.has_failing_check)::integer as failing
  from (
    select lu.label_id, lu.translation_id, u.state, u.num_words, u.has_failing_check
    from weblate.labelled_units lu
    join weblate.units u on u.id = lu.unit_id
  ) u
  join weblate.translations t on t.id = u.translation_id
  join weblate.components c on c.id = t.component_id
  join weblate.projects p on p.id = c.project_id
  where t.deleted_at is null and c.deleted_at is null and p.deleted_at is null
    and t.is_source is not true
  group by u.label_id, t.id, p.id, c.id) x
        where (only_projects is null or x.project_slug = any(only_projects))
  and (only_language is null or x.language_code = only_language)
  and (only_components is null or x.component_slug = any(only_components))
        group by x.label_id, x.language_code
      ) s
      join weblate.labels lb on lb.id = s.label_id$fn$`,
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
  `drop function weblate.translation_progress_spans(text[], text, text[])`,
  `
    do $$
    begin
      execute format('alter database %I reset jit', current_database());
    exception
      when insufficient_privilege then
        raise notice 'the database keeps its jit setting: %', sqlerrm;
    end
    $$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

-- The daily views rewritten into spans of days, measured at the large shape (docs/performance.md,
-- "Reporting at the large shape"): not applied yet. Migration material for a later round, to be
-- taken with tests that it gives the same rows as migration 0007's definitions on both databases.

-- 1. Spans: each translation's progress as runs of days (new function)
-- Each translation's progress as spans of days (first_day..last_day, inclusive) with the
-- figures that hold over them: the rows of translation_progress_daily, one row per run of
-- days instead of one per day.
create or replace function weblate.translation_progress_spans(
  only_projects text[] default null, only_language text default null)
returns table (translation_id integer, project_id integer, project_slug text,
  component_id integer, component_slug text, language_code text,
  first_day date, last_day date, total integer, total_words integer, translated integer,
  translated_words integer, fuzzy integer, fuzzy_words integer, approved integer,
  approved_words integer, failing integer, captured_at timestamptz, origin text)
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
  ), last_of_day as (
    select distinct on (s.translation_id, (s.captured_at at time zone 'UTC')::date)
           s.translation_id, (s.captured_at at time zone 'UTC')::date as captured_day,
           s.total, s.total_words, s.translated, s.translated_words, s.fuzzy, s.fuzzy_words,
           s.approved, s.approved_words, s.failing, s.captured_at
    from weblate.translation_statistics s
    where (only_projects is null and only_language is null)
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
    where (only_projects is null and only_language is null)
       or e.translation_id in (select translation_id from scope)
  ), spans as (
    select m.translation_id, m.captured_day as first_day,
           least(m.next_day - 1, (now() at time zone 'UTC')::date, sc.deleted_day - 1) as last_day,
           m.total, m.total_words, m.translated, m.translated_words, m.fuzzy, m.fuzzy_words,
           m.approved, m.approved_words, m.failing, m.captured_at, 'measured'::text as origin
    from measured m join scope sc using (translation_id)
    union all
    select e.translation_id, e.day, least(e.next_day, e.measured_from) - 1,
           e.total, e.total_words, e.translated, e.translated_words, e.fuzzy, e.fuzzy_words,
           e.approved, e.approved_words, null::integer, null::timestamptz, 'estimated'::text
    from estimated e
  )
  select s.translation_id, sc.project_id, sc.project_slug, sc.component_id, sc.component_slug,
         sc.language_code, s.first_day, s.last_day, s.total, s.total_words, s.translated,
         s.translated_words, s.fuzzy, s.fuzzy_words, s.approved, s.approved_words, s.failing,
         s.captured_at, s.origin
  from spans s join scope sc using (translation_id)
  where s.last_day >= s.first_day
$fn$;

-- 2. translation_progress_daily over the spans and a calendar (same columns)
-- The same rows and columns as before, one per translation and day, but made by joining the
-- spans with a calendar instead of expanding every span: a filter on `day` (movers, the
-- report's 30 days, failing_checks' window) narrows the calendar before the join, so only the
-- spans that hold on those days are read.
create or replace view weblate.translation_progress_daily as
with spans as (
  select * from weblate.translation_progress_spans()
)
select d.day, s.translation_id, s.project_id, s.project_slug, s.component_id, s.component_slug,
       s.language_code, s.total, s.total_words, s.translated, s.translated_words,
       weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
       weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
       s.fuzzy, s.fuzzy_words,
       weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
       s.approved, s.approved_words,
       weblate.truncated_percent(s.approved, s.total) as approved_percent,
       s.failing,
       case when s.origin = 'measured' then weblate.truncated_percent(s.failing, s.total) end
         as failing_percent,
       s.total - s.translated as untranslated,
       s.total_words - s.translated_words as untranslated_words,
       s.captured_at, s.origin
from (
  select g.day::date as day
  -- From the first day of any estimate or snapshot (an estimate starts before its snapshot).
  from generate_series(least((select min(e.day) from weblate.translation_progress_estimated e),
                             (select (min(s.captured_at) at time zone 'UTC')::date
                              from weblate.translation_statistics s))::timestamp,
                       (now() at time zone 'UTC')::date::timestamp, interval '1 day') as g(day)
) d
join spans s on d.day between s.first_day and s.last_day;

-- 3. The daily summaries by events over the spans (same signatures and columns)
create or replace function weblate.progress_by_language_daily(only_projects text[] default null, only_language text default null)
returns table (day date, language_code text, components bigint, translations bigint, total bigint, total_words bigint,
  translated bigint, translated_words bigint, translated_percent numeric,
  translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric,
  approved bigint, approved_words bigint, approved_percent numeric, failing bigint,
  failing_percent numeric, untranslated bigint, untranslated_words bigint,
  estimated_translations bigint, origin text)
language sql stable parallel safe as $fn$
  -- Sums by day without a row per translation and day: each span of a translation adds its
  -- figures on its first day and takes them away the day after its last; a running sum over
  -- the days of a group gives the group's figures, which hold until its next event.
  with events as (
    select s.language_code as language_code, s.component_id, ev.day,
           ev.sign as translations,
           ev.sign * (s.origin = 'estimated')::integer as estimated,
           ev.sign * (s.failing is not null)::integer as failing_known,
           ev.sign * coalesce(s.total, 0)::bigint as total,
             ev.sign * coalesce(s.total_words, 0)::bigint as total_words,
             ev.sign * coalesce(s.translated, 0)::bigint as translated,
             ev.sign * coalesce(s.translated_words, 0)::bigint as translated_words,
             ev.sign * coalesce(s.fuzzy, 0)::bigint as fuzzy,
             ev.sign * coalesce(s.fuzzy_words, 0)::bigint as fuzzy_words,
             ev.sign * coalesce(s.approved, 0)::bigint as approved,
             ev.sign * coalesce(s.approved_words, 0)::bigint as approved_words,
             ev.sign * coalesce(s.failing, 0)::bigint as failing,
             ev.sign * coalesce(s.total - s.translated, 0)::bigint as untranslated,
             ev.sign * coalesce(s.total_words - s.translated_words, 0)::bigint as untranslated_words
    from weblate.translation_progress_spans(only_projects, only_language) s
    cross join lateral (values (s.first_day, 1), (s.last_day + 1, -1)) as ev(day, sign)
  ), by_component as (
    select language_code, component_id, day, sum(translations) as n
    from events group by language_code, component_id, day
  ), component_runs as (
    select language_code, component_id, day, sum(n) over (partition by language_code, component_id order by day) as n
    from by_component
  ), component_events as (
    select language_code, day,
           (n > 0)::integer - (coalesce(lag(n) over (partition by language_code, component_id order by day), 0) > 0)::integer
             as components
    from component_runs
  ), by_day as (
    select language_code, day, sum(translations)::bigint as translations,
           sum(estimated)::bigint as estimated, sum(failing_known)::bigint as failing_known,
           sum(total)::bigint as total,
           sum(total_words)::bigint as total_words,
           sum(translated)::bigint as translated,
           sum(translated_words)::bigint as translated_words,
           sum(fuzzy)::bigint as fuzzy,
           sum(fuzzy_words)::bigint as fuzzy_words,
           sum(approved)::bigint as approved,
           sum(approved_words)::bigint as approved_words,
           sum(failing)::bigint as failing,
           sum(untranslated)::bigint as untranslated,
           sum(untranslated_words)::bigint as untranslated_words, sum(components)::bigint as components
    from (
      select language_code, day, translations, estimated, failing_known, total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words, failing, untranslated, untranslated_words, 0 as components from events
      union all select language_code, day, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, components from component_events
    ) e
    group by language_code, day
  ), runs as (
    select language_code, day, lead(day) over w as next_day,
           sum(translations) over w as translations, sum(estimated) over w as estimated,
           sum(failing_known) over w as failing_known, sum(components) over w as components,
           sum(total) over w as total,
           sum(total_words) over w as total_words,
           sum(translated) over w as translated,
           sum(translated_words) over w as translated_words,
           sum(fuzzy) over w as fuzzy,
           sum(fuzzy_words) over w as fuzzy_words,
           sum(approved) over w as approved,
           sum(approved_words) over w as approved_words,
           sum(failing) over w as failing,
           sum(untranslated) over w as untranslated,
           sum(untranslated_words) over w as untranslated_words
    from by_day
    window w as (partition by language_code order by day)
  )
  select g.day::date, r.language_code, r.components::bigint, r.translations::bigint,
         r.total::bigint, r.total_words::bigint, r.translated::bigint, r.translated_words::bigint,
         weblate.truncated_percent(r.translated, r.total, true),
         weblate.truncated_percent(r.translated_words, r.total_words, true),
         r.fuzzy::bigint, r.fuzzy_words::bigint, weblate.truncated_percent(r.fuzzy, r.total),
         r.approved::bigint, r.approved_words::bigint, weblate.truncated_percent(r.approved, r.total),
         case when r.failing_known = r.translations then r.failing::bigint end,
         case when r.failing_known = r.translations then weblate.truncated_percent(r.failing, r.total) end,
         r.untranslated::bigint, r.untranslated_words::bigint,
         r.estimated::bigint,
         case when r.estimated > 0 then 'estimated' else 'measured' end
  from runs r
  cross join lateral generate_series(r.day::timestamp, (r.next_day - 1)::timestamp, interval '1 day') as g(day)
  where r.translations > 0
$fn$;
create or replace function weblate.progress_by_project_daily(only_projects text[] default null, only_language text default null)
returns table (day date, project_id integer, project_slug text, components bigint, translations bigint, total bigint, total_words bigint,
  translated bigint, translated_words bigint, translated_percent numeric,
  translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric,
  approved bigint, approved_words bigint, approved_percent numeric, failing bigint,
  failing_percent numeric, untranslated bigint, untranslated_words bigint,
  estimated_translations bigint, origin text)
language sql stable parallel safe as $fn$
  -- Sums by day without a row per translation and day: each span of a translation adds its
  -- figures on its first day and takes them away the day after its last; a running sum over
  -- the days of a group gives the group's figures, which hold until its next event.
  with events as (
    select s.project_id as project_id, s.project_slug as project_slug, s.component_id, ev.day,
           ev.sign as translations,
           ev.sign * (s.origin = 'estimated')::integer as estimated,
           ev.sign * (s.failing is not null)::integer as failing_known,
           ev.sign * coalesce(s.total, 0)::bigint as total,
             ev.sign * coalesce(s.total_words, 0)::bigint as total_words,
             ev.sign * coalesce(s.translated, 0)::bigint as translated,
             ev.sign * coalesce(s.translated_words, 0)::bigint as translated_words,
             ev.sign * coalesce(s.fuzzy, 0)::bigint as fuzzy,
             ev.sign * coalesce(s.fuzzy_words, 0)::bigint as fuzzy_words,
             ev.sign * coalesce(s.approved, 0)::bigint as approved,
             ev.sign * coalesce(s.approved_words, 0)::bigint as approved_words,
             ev.sign * coalesce(s.failing, 0)::bigint as failing,
             ev.sign * coalesce(s.total - s.translated, 0)::bigint as untranslated,
             ev.sign * coalesce(s.total_words - s.translated_words, 0)::bigint as untranslated_words
    from weblate.translation_progress_spans(only_projects, only_language) s
    cross join lateral (values (s.first_day, 1), (s.last_day + 1, -1)) as ev(day, sign)
  ), by_component as (
    select project_id, project_slug, component_id, day, sum(translations) as n
    from events group by project_id, project_slug, component_id, day
  ), component_runs as (
    select project_id, project_slug, component_id, day, sum(n) over (partition by project_id, project_slug, component_id order by day) as n
    from by_component
  ), component_events as (
    select project_id, project_slug, day,
           (n > 0)::integer - (coalesce(lag(n) over (partition by project_id, project_slug, component_id order by day), 0) > 0)::integer
             as components
    from component_runs
  ), by_day as (
    select project_id, project_slug, day, sum(translations)::bigint as translations,
           sum(estimated)::bigint as estimated, sum(failing_known)::bigint as failing_known,
           sum(total)::bigint as total,
           sum(total_words)::bigint as total_words,
           sum(translated)::bigint as translated,
           sum(translated_words)::bigint as translated_words,
           sum(fuzzy)::bigint as fuzzy,
           sum(fuzzy_words)::bigint as fuzzy_words,
           sum(approved)::bigint as approved,
           sum(approved_words)::bigint as approved_words,
           sum(failing)::bigint as failing,
           sum(untranslated)::bigint as untranslated,
           sum(untranslated_words)::bigint as untranslated_words, sum(components)::bigint as components
    from (
      select project_id, project_slug, day, translations, estimated, failing_known, total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words, failing, untranslated, untranslated_words, 0 as components from events
      union all select project_id, project_slug, day, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, components from component_events
    ) e
    group by project_id, project_slug, day
  ), runs as (
    select project_id, project_slug, day, lead(day) over w as next_day,
           sum(translations) over w as translations, sum(estimated) over w as estimated,
           sum(failing_known) over w as failing_known, sum(components) over w as components,
           sum(total) over w as total,
           sum(total_words) over w as total_words,
           sum(translated) over w as translated,
           sum(translated_words) over w as translated_words,
           sum(fuzzy) over w as fuzzy,
           sum(fuzzy_words) over w as fuzzy_words,
           sum(approved) over w as approved,
           sum(approved_words) over w as approved_words,
           sum(failing) over w as failing,
           sum(untranslated) over w as untranslated,
           sum(untranslated_words) over w as untranslated_words
    from by_day
    window w as (partition by project_id, project_slug order by day)
  )
  select g.day::date, r.project_id, r.project_slug, r.components::bigint, r.translations::bigint,
         r.total::bigint, r.total_words::bigint, r.translated::bigint, r.translated_words::bigint,
         weblate.truncated_percent(r.translated, r.total, true),
         weblate.truncated_percent(r.translated_words, r.total_words, true),
         r.fuzzy::bigint, r.fuzzy_words::bigint, weblate.truncated_percent(r.fuzzy, r.total),
         r.approved::bigint, r.approved_words::bigint, weblate.truncated_percent(r.approved, r.total),
         case when r.failing_known = r.translations then r.failing::bigint end,
         case when r.failing_known = r.translations then weblate.truncated_percent(r.failing, r.total) end,
         r.untranslated::bigint, r.untranslated_words::bigint,
         r.estimated::bigint,
         case when r.estimated > 0 then 'estimated' else 'measured' end
  from runs r
  cross join lateral generate_series(r.day::timestamp, (r.next_day - 1)::timestamp, interval '1 day') as g(day)
  where r.translations > 0
$fn$;
create or replace function weblate.progress_by_component_daily(only_projects text[] default null, only_language text default null)
returns table (day date, component_id integer, component_slug text, project_id integer, project_slug text, translations bigint, total bigint, total_words bigint,
  translated bigint, translated_words bigint, translated_percent numeric,
  translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric,
  approved bigint, approved_words bigint, approved_percent numeric, failing bigint,
  failing_percent numeric, untranslated bigint, untranslated_words bigint,
  estimated_translations bigint, origin text)
language sql stable parallel safe as $fn$
  -- Sums by day without a row per translation and day: each span of a translation adds its
  -- figures on its first day and takes them away the day after its last; a running sum over
  -- the days of a group gives the group's figures, which hold until its next event.
  with events as (
    select s.component_id as component_id, s.component_slug as component_slug, s.project_id as project_id, s.project_slug as project_slug, ev.day,
           ev.sign as translations,
           ev.sign * (s.origin = 'estimated')::integer as estimated,
           ev.sign * (s.failing is not null)::integer as failing_known,
           ev.sign * coalesce(s.total, 0)::bigint as total,
             ev.sign * coalesce(s.total_words, 0)::bigint as total_words,
             ev.sign * coalesce(s.translated, 0)::bigint as translated,
             ev.sign * coalesce(s.translated_words, 0)::bigint as translated_words,
             ev.sign * coalesce(s.fuzzy, 0)::bigint as fuzzy,
             ev.sign * coalesce(s.fuzzy_words, 0)::bigint as fuzzy_words,
             ev.sign * coalesce(s.approved, 0)::bigint as approved,
             ev.sign * coalesce(s.approved_words, 0)::bigint as approved_words,
             ev.sign * coalesce(s.failing, 0)::bigint as failing,
             ev.sign * coalesce(s.total - s.translated, 0)::bigint as untranslated,
             ev.sign * coalesce(s.total_words - s.translated_words, 0)::bigint as untranslated_words
    from weblate.translation_progress_spans(only_projects, only_language) s
    cross join lateral (values (s.first_day, 1), (s.last_day + 1, -1)) as ev(day, sign)
  ), by_day as (
    select component_id, component_slug, project_id, project_slug, day, sum(translations)::bigint as translations,
           sum(estimated)::bigint as estimated, sum(failing_known)::bigint as failing_known,
           sum(total)::bigint as total,
           sum(total_words)::bigint as total_words,
           sum(translated)::bigint as translated,
           sum(translated_words)::bigint as translated_words,
           sum(fuzzy)::bigint as fuzzy,
           sum(fuzzy_words)::bigint as fuzzy_words,
           sum(approved)::bigint as approved,
           sum(approved_words)::bigint as approved_words,
           sum(failing)::bigint as failing,
           sum(untranslated)::bigint as untranslated,
           sum(untranslated_words)::bigint as untranslated_words
    from (
      select component_id, component_slug, project_id, project_slug, day, translations, estimated, failing_known, total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words, failing, untranslated, untranslated_words from events
      
    ) e
    group by component_id, component_slug, project_id, project_slug, day
  ), runs as (
    select component_id, component_slug, project_id, project_slug, day, lead(day) over w as next_day,
           sum(translations) over w as translations, sum(estimated) over w as estimated,
           sum(failing_known) over w as failing_known,
           sum(total) over w as total,
           sum(total_words) over w as total_words,
           sum(translated) over w as translated,
           sum(translated_words) over w as translated_words,
           sum(fuzzy) over w as fuzzy,
           sum(fuzzy_words) over w as fuzzy_words,
           sum(approved) over w as approved,
           sum(approved_words) over w as approved_words,
           sum(failing) over w as failing,
           sum(untranslated) over w as untranslated,
           sum(untranslated_words) over w as untranslated_words
    from by_day
    window w as (partition by component_id, component_slug, project_id, project_slug order by day)
  )
  select g.day::date, r.component_id, r.component_slug, r.project_id, r.project_slug, r.translations::bigint,
         r.total::bigint, r.total_words::bigint, r.translated::bigint, r.translated_words::bigint,
         weblate.truncated_percent(r.translated, r.total, true),
         weblate.truncated_percent(r.translated_words, r.total_words, true),
         r.fuzzy::bigint, r.fuzzy_words::bigint, weblate.truncated_percent(r.fuzzy, r.total),
         r.approved::bigint, r.approved_words::bigint, weblate.truncated_percent(r.approved, r.total),
         case when r.failing_known = r.translations then r.failing::bigint end,
         case when r.failing_known = r.translations then weblate.truncated_percent(r.failing, r.total) end,
         r.untranslated::bigint, r.untranslated_words::bigint,
         r.estimated::bigint,
         case when r.estimated > 0 then 'estimated' else 'measured' end
  from runs r
  cross join lateral generate_series(r.day::timestamp, (r.next_day - 1)::timestamp, interval '1 day') as g(day)
  where r.translations > 0
$fn$;
-- 4. strings_awaiting_review: its waiting_since subquery once per string
CREATE OR REPLACE FUNCTION weblate.strings_awaiting_review(only_projects text[] DEFAULT NULL::text[], only_components text[] DEFAULT NULL::text[], only_language text DEFAULT NULL::text)
 RETURNS TABLE(unit_id bigint, translation_id integer, project_slug text, component_slug text, language_code text, num_words integer, waiting_since timestamp with time zone, days_waiting integer)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
      select u.id as unit_id, t.id as translation_id, p.slug as project_slug,
             c.slug as component_slug, t.language_code, u.num_words, w.waiting_since,
             floor(extract(epoch from now() - w.waiting_since) / 86400)::integer as days_waiting
      from weblate.units u
      join weblate.translations t on t.id = u.translation_id
      join weblate.components c on c.id = t.component_id
      join weblate.projects p on p.id = c.project_id
      cross join lateral (
        select coalesce(
          (select max(ch.timestamp) from weblate.changes ch
           where ch.unit_id = u.id and ch.action in (2, 5, 6, 7, 8, 9, 27, 59, 72, 77, 94)),
          u.last_updated, u.timestamp, u.first_seen_at
        ) as waiting_since
        offset 0 -- not pulled up: waiting_since is read twice, its subquery runs once
      ) w
      where u.state = 20
        and p.translation_review is true
        and t.is_source is not true
        and u.deleted_at is null
        and (only_projects is null or p.slug = any(only_projects))
        and (only_components is null or c.slug = any(only_components))
        and (only_language is null or t.language_code = only_language)$function$

;

-- 5. Indexes
-- activity_daily groups changes by their UTC day: a filter on `day` becomes this expression,
-- which the timestamp index cannot serve.
create index changes_day_idx on weblate.changes (((timestamp at time zone 'UTC')::date));
-- Every read that weighs changes by words joins units for num_words alone: an index-only scan
-- of this (about 30 MB) instead of the 1.5 GB of unit rows.
create index units_num_words_idx on weblate.units (id) include (num_words);
-- A string's latest target-saving change (strings_awaiting_review, time_to_approval): read
-- from the index alone, without fetching the change rows.
create index changes_unit_id_timestamp_idx on weblate.changes (unit_id, timestamp) include (action);

import { type Kysely, sql } from 'kysely';

// Progress per category (nested categories roll up into their ancestors) and per label ×
// language, now and per day, and a component filter on every progress function so that a
// report scoped to a category sums only its components. Label history is recorded from
// this release on: weblate.label_statistics keeps a row per label and translation each
// time its counts move (the translations whose units a run wrote are noted by the units
// triggers; record_label_statistics, called as a run ends, sums only those).
// docs/schema.md documents each. Frozen once merged; add a new migration.
//
// Written out as the statements it ran when it landed, so that no migration reads another's
// SQL; schema/ holds each object's current definition (docs/schema.md, "Where a definition lives").

/** What `up` runs, in order. */
const UP: readonly string[] = [
  `create index changes_day_idx on weblate.changes (((timestamp at time zone 'UTC')::date))`,
  `create index units_num_words_idx on weblate.units (id) include (num_words)`,
  `create index changes_unit_id_timestamp_idx on weblate.changes (unit_id, timestamp) include (action)`,
  `
    create or replace function weblate.strings_awaiting_review(only_projects text[] default null, only_components text[] default null, only_language text default null)
    returns table (unit_id bigint, translation_id integer, project_slug text, component_slug text,
      language_code text, num_words integer, waiting_since timestamptz, days_waiting integer)
    language sql stable parallel safe as $fn$
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
        offset 0
      ) w
      where u.state = 20
        and p.translation_review is true
        and t.is_source is not true
        and u.deleted_at is null
        and (only_projects is null or p.slug = any(only_projects))
        and (only_components is null or c.slug = any(only_components))
        and (only_language is null or t.language_code = only_language)$fn$`,
  `drop view "weblate"."component_progress"`,
  `drop function weblate.progress_by_component(text[], text)`,
  `drop view "weblate"."project_progress"`,
  `drop function weblate.progress_by_project(text[], text)`,
  `drop view "weblate"."language_progress"`,
  `drop function weblate.progress_by_language(text[], text)`,
  `drop view "weblate"."component_progress_daily"`,
  `drop function weblate.progress_by_component_daily(text[], text)`,
  `drop view "weblate"."project_progress_daily"`,
  `drop function weblate.progress_by_project_daily(text[], text)`,
  `drop view "weblate"."language_progress_daily"`,
  `drop function weblate.progress_by_language_daily(text[], text)`,
  `drop function weblate.progress_total(text[], text)`,
  `
    create function weblate.progress_by_component(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (component_id integer, component_slug text, component_name text, project_id integer, project_slug text, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select c.id as component_id,
           c.slug as component_slug,
           c.name as component_name,
           p.id as project_id,
           p.slug as project_slug,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.components c
      join weblate.projects p on p.id = c.project_id
      left join weblate.translation_progress x on x.component_id = c.id and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      where c.deleted_at is null and p.deleted_at is null
      and (only_projects is null or p.slug = any(only_projects))
    group by c.id, p.id
    having (only_language is null and only_components is null) or count(x.translation_id) > 0$fn$`,
  `create view "weblate"."component_progress" as
    select * from weblate.progress_by_component()`,
  `
    create function weblate.progress_by_project(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (project_id integer, project_slug text, project_name text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select p.id as project_id,
           p.slug as project_slug,
           p.name as project_name,
           (select count(*) from weblate.components c
          where c.project_id = p.id and c.deleted_at is null and (only_components is null or c.slug = any(only_components))) as components,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.projects p
      left join weblate.translation_progress x on x.project_id = p.id and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      where p.deleted_at is null
      and (only_projects is null or p.slug = any(only_projects))
    group by p.id
    having (only_language is null and only_components is null) or count(x.translation_id) > 0$fn$`,
  `create view "weblate"."project_progress" as
    select * from weblate.progress_by_project()`,
  `
    create function weblate.progress_by_language(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (language_code text, language_name text, projects bigint, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select x.language_code as language_code,
           min(x.language_name) as language_name,
           count(distinct x.project_id) as projects,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.translation_progress x where true and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.language_code
    $fn$`,
  `create view "weblate"."language_progress" as
    select * from weblate.progress_by_language()`,
  `
    create function weblate.progress_by_component_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
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
  `create view "weblate"."component_progress_daily" as
    select * from weblate.progress_by_component_daily()`,
  `
    create function weblate.progress_by_project_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
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
  `create view "weblate"."project_progress_daily" as
    select * from weblate.progress_by_project_daily()`,
  `
    create function weblate.progress_by_language_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
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
  `create view "weblate"."language_progress_daily" as
    select * from weblate.progress_by_language_daily()`,
  `
    create function weblate.progress_total(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select count(x.translation_id) as translations,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.translation_progress x where true and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      and (only_projects is null or x.project_slug = any(only_projects))
    
    $fn$`,
  `create index components_category_id_idx on weblate.components (category_id)`,
  `create index units_source_unit_id_idx on weblate.units (source_unit_id)`,
  `create view weblate.category_tree as 
  with recursive tree as (
    select k.id as ancestor_id, k.id as category_id, 0 as depth
    from weblate.categories k where k.deleted_at is null
    union all
    select k.parent_id, t.category_id, t.depth + 1
    from tree t
    join weblate.categories k on k.id = t.ancestor_id
    join weblate.categories a on a.id = k.parent_id and a.deleted_at is null
    where t.depth < 100
  )
  select * from tree`,
  `
    create function weblate.progress_by_category(only_projects text[] default null, only_language text default null, only_components text[] default null)
    returns table (category_id integer, category_slug text, category_name text, parent_id integer, path text, project_id integer, project_slug text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select k.id as category_id,
           k.slug as category_slug,
           k.name as category_name,
           k.parent_id as parent_id,
           (select string_agg(a.slug, '/' order by t.depth desc)
  from weblate.category_tree t join weblate.categories a on a.id = t.ancestor_id
  where t.category_id = k.id) as path,
           k.project_id as project_id,
           k.project_slug as project_slug,
           count(distinct c.id) as components,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.categories k
      join weblate.projects p on p.id = k.project_id
      left join weblate.category_tree tr on tr.ancestor_id = k.id
      left join weblate.components c on c.category_id = tr.category_id and c.deleted_at is null
        and (only_components is null or c.slug = any(only_components))
      left join weblate.translation_progress x on x.component_id = c.id and (only_language is null or x.language_code = only_language) and (only_components is null or x.component_slug = any(only_components))
      where k.deleted_at is null and p.deleted_at is null
      and (only_projects is null or k.project_slug = any(only_projects))
    group by k.id
    having (only_language is null and only_components is null) or count(x.translation_id) > 0$fn$`,
  `create view "weblate"."category_progress" as
    select * from weblate.progress_by_category()`,
  `
    create function weblate.progress_by_category_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
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
  `create view "weblate"."category_progress_daily" as
    select * from weblate.progress_by_category_daily()`,
  `create view weblate.labelled_units as 
  select ul.label_id, u.id as unit_id, u.translation_id
  from weblate.unit_labels ul
  join weblate.labels lb on lb.id = ul.label_id and lb.deleted_at is null
  join weblate.units u on u.id = ul.unit_id
  where ul.deleted_at is null and u.deleted_at is null
  union
  select ul.label_id, u.id, u.translation_id
  from weblate.unit_labels ul
  join weblate.labels lb on lb.id = ul.label_id and lb.deleted_at is null
  join weblate.units u on u.source_unit_id = ul.unit_id
  where ul.deleted_at is null and u.deleted_at is null`,
  `
    create table weblate.label_statistics (
      label_id integer not null,
      translation_id integer not null,
      captured_at timestamptz not null default now(),
      run_id integer references weblate.sync_runs (id),
      total integer not null, total_words integer not null, translated integer not null, translated_words integer not null, fuzzy integer not null, fuzzy_words integer not null, approved integer not null, approved_words integer not null, failing integer not null,
      primary key (label_id, translation_id, captured_at)
    )`,
  `create index label_statistics_translation_idx on weblate.label_statistics (translation_id)`,
  `comment on table weblate.label_statistics is
    'A label''s counts in a translation each time they moved (all zero once no unit of the translation carries it), recorded by weblate.record_label_statistics from this release on: label history starts when the mirror first recorded it.'`,
  `create table weblate.label_statistics_due (translation_id integer not null)`,
  `
    create or replace function weblate.keep_unit_labels() returns trigger language plpgsql as $$
    begin
      update weblate.unit_labels ul set deleted_at = now()
      from new_units n
      where ul.unit_id = n.id and ul.deleted_at is null
        and not exists (select from (
  select n.id as unit_id, case jsonb_typeof(e) when 'number' then (e #>> '{}')::integer
    else (e ->> 'id')::integer end as label_id
  from new_units n
  cross join lateral jsonb_array_elements(
    case jsonb_typeof(n.labels) when 'array' then n.labels else '[]'::jsonb end) as e
  where jsonb_typeof(e) = 'number' or (jsonb_typeof(e) = 'object' and jsonb_typeof(e -> 'id') = 'number')) l
          where l.unit_id = ul.unit_id and l.label_id = ul.label_id);
      insert into weblate.unit_labels (unit_id, label_id)
      select distinct unit_id, label_id from (
  select n.id as unit_id, case jsonb_typeof(e) when 'number' then (e #>> '{}')::integer
    else (e ->> 'id')::integer end as label_id
  from new_units n
  cross join lateral jsonb_array_elements(
    case jsonb_typeof(n.labels) when 'array' then n.labels else '[]'::jsonb end) as e
  where jsonb_typeof(e) = 'number' or (jsonb_typeof(e) = 'object' and jsonb_typeof(e -> 'id') = 'number')) l
      on conflict (unit_id, label_id) do update set deleted_at = null
        where weblate.unit_labels.deleted_at is not null;
      insert into weblate.label_statistics_due (translation_id)
      select distinct translation_id from new_units;
      return null;
    end
    $$`,
  `
    create function weblate.record_label_statistics(run integer default null)
    returns integer language plpgsql as $$
    declare
      recorded integer;
    begin
      with due as (
        delete from weblate.label_statistics_due returning translation_id
      ), scope as (
        select t.id from due d
        join weblate.translations t on t.id = d.translation_id and t.is_source is not true
        union
        select t2.id from due d
        join weblate.translations t on t.id = d.translation_id and t.is_source
        join weblate.translations t2 on t2.component_id = t.component_id
          and t2.is_source is not true
      ), counted as (
        select lu.label_id, lu.translation_id, count(*)::integer as total,
  coalesce(sum(u.num_words), 0)::integer as total_words,
  count(*) filter (where u.state >= 20)::integer as translated,
  coalesce(sum(u.num_words) filter (where u.state >= 20), 0)::integer as translated_words,
  count(*) filter (where u.state between 10 and 19)::integer as fuzzy,
  coalesce(sum(u.num_words) filter (where u.state between 10 and 19), 0)::integer as fuzzy_words,
  count(*) filter (where u.state = 30)::integer as approved,
  coalesce(sum(u.num_words) filter (where u.state = 30), 0)::integer as approved_words,
  count(*) filter (where u.has_failing_check)::integer as failing
        from weblate.labelled_units lu
        join weblate.units u on u.id = lu.unit_id
        where lu.translation_id in (select id from scope)
        group by lu.label_id, lu.translation_id
      ), latest as (
        select distinct on (s.label_id, s.translation_id) s.*
        from weblate.label_statistics s
        where s.translation_id in (select id from scope)
        order by s.label_id, s.translation_id, s.captured_at desc
      )
      insert into weblate.label_statistics (label_id, translation_id, run_id, total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words, failing)
      select coalesce(n.label_id, l.label_id), coalesce(n.translation_id, l.translation_id), run,
             coalesce(n.total, 0), coalesce(n.total_words, 0), coalesce(n.translated, 0), coalesce(n.translated_words, 0), coalesce(n.fuzzy, 0), coalesce(n.fuzzy_words, 0), coalesce(n.approved, 0), coalesce(n.approved_words, 0), coalesce(n.failing, 0)
      from counted n
      full join latest l on l.label_id = n.label_id and l.translation_id = n.translation_id
      where (coalesce(n.total, 0), coalesce(n.total_words, 0), coalesce(n.translated, 0), coalesce(n.translated_words, 0), coalesce(n.fuzzy, 0), coalesce(n.fuzzy_words, 0), coalesce(n.approved, 0), coalesce(n.approved_words, 0), coalesce(n.failing, 0))
        is distinct from (l.total, l.total_words, l.translated, l.translated_words, l.fuzzy, l.fuzzy_words, l.approved, l.approved_words, l.failing);
      get diagnostics recorded = row_count;
      return recorded;
    end
    $$`,
  `
    insert into weblate.label_statistics_due (translation_id)
    select distinct u.translation_id from weblate.unit_labels ul
    join weblate.units u on u.id = ul.unit_id`,
  `create view weblate.label_progress_daily as 
  with last_of_day as (
    select distinct on (s.label_id, s.translation_id, (s.captured_at at time zone 'UTC')::date)
           s.*, (s.captured_at at time zone 'UTC')::date as captured_day
    from weblate.label_statistics s
    order by s.label_id, s.translation_id, (s.captured_at at time zone 'UTC')::date,
             s.captured_at desc
  ), spans as (
    select d.*, lead(d.captured_day) over (
             partition by d.label_id, d.translation_id order by d.captured_day) as next_day
    from last_of_day d
  )
  select g.day::date as day, s.label_id, lb.name as label_name, s.translation_id,
         p.id as project_id, p.slug as project_slug, c.id as component_id,
         c.slug as component_slug, t.language_code,
         s.total, s.total_words, s.translated, s.translated_words, s.fuzzy, s.fuzzy_words, s.approved, s.approved_words, s.failing, 
  weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
  weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
  weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
  weblate.truncated_percent(s.approved, s.total) as approved_percent,
  weblate.truncated_percent(s.failing, s.total) as failing_percent,
  s.total - s.translated as untranslated,
  s.total_words - s.translated_words as untranslated_words
  from spans s
  join weblate.labels lb on lb.id = s.label_id
  join weblate.translations t on t.id = s.translation_id
  join weblate.components c on c.id = t.component_id
  join weblate.projects p on p.id = c.project_id
  cross join lateral generate_series(
    s.captured_day::timestamp,
    least(s.next_day - 1, (now() at time zone 'UTC')::date,
          (t.deleted_at at time zone 'UTC')::date - 1,
          (lb.deleted_at at time zone 'UTC')::date - 1)::timestamp,
    interval '1 day'
  ) as g(day)
  where t.is_source is not true`,
  `
      create function weblate.progress_by_label(only_projects text[] default null, only_language text default null, only_components text[] default null)
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
  `
      create function weblate.progress_by_label_daily(only_projects text[] default null, only_language text default null, only_components text[] default null)
      returns table (day date, label_id integer, label_name text, project_id integer, project_slug text, language_code text, translations bigint, total bigint, total_words bigint, translated bigint,
  translated_words bigint, fuzzy bigint, fuzzy_words bigint, approved bigint,
  approved_words bigint, failing bigint, translated_percent numeric,
  translated_words_percent numeric, fuzzy_percent numeric, approved_percent numeric,
  failing_percent numeric, untranslated bigint, untranslated_words bigint)
      language sql stable parallel safe as $fn$
      select s.day, s.label_id, lb.name as label_name, lb.project_id, lb.project_slug,
             s.language_code, s.translations, s.total, s.total_words, s.translated, s.translated_words, s.fuzzy, s.fuzzy_words, s.approved, s.approved_words, s.failing,
             
  weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
  weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
  weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
  weblate.truncated_percent(s.approved, s.total) as approved_percent,
  weblate.truncated_percent(s.failing, s.total) as failing_percent,
  s.total - s.translated as untranslated,
  s.total_words - s.translated_words as untranslated_words
      from (
        select x.day, x.label_id, x.language_code, count(*) as translations, coalesce(sum(x.total), 0)::bigint as total, coalesce(sum(x.total_words), 0)::bigint as total_words, coalesce(sum(x.translated), 0)::bigint as translated, coalesce(sum(x.translated_words), 0)::bigint as translated_words, coalesce(sum(x.fuzzy), 0)::bigint as fuzzy, coalesce(sum(x.fuzzy_words), 0)::bigint as fuzzy_words, coalesce(sum(x.approved), 0)::bigint as approved, coalesce(sum(x.approved_words), 0)::bigint as approved_words, coalesce(sum(x.failing), 0)::bigint as failing
        from weblate.label_progress_daily x
        where (only_projects is null or x.project_slug = any(only_projects))
  and (only_language is null or x.language_code = only_language)
  and (only_components is null or x.component_slug = any(only_components))
        group by x.day, x.label_id, x.language_code
      ) s
      join weblate.labels lb on lb.id = s.label_id$fn$`,
  `create view weblate.label_progress as select * from weblate.progress_by_label()`,
  `
    do $$
    begin
      if exists (select from pg_roles where rolname = 'weblate_reader') then
        grant execute on function weblate.progress_by_component(text[], text, text[]), weblate.progress_by_project(text[], text, text[]), weblate.progress_by_language(text[], text, text[]), weblate.progress_by_component_daily(text[], text, text[]), weblate.progress_by_project_daily(text[], text, text[]), weblate.progress_by_language_daily(text[], text, text[]), weblate.progress_total(text[], text, text[]), weblate.progress_by_category(text[], text, text[]), weblate.progress_by_category_daily(text[], text, text[]), weblate.progress_by_label(text[], text, text[]), weblate.progress_by_label_daily(text[], text, text[]) to weblate_reader;
      end if;
    exception
      when undefined_object then
        null; -- dropped meanwhile by another database's rollback: nothing to grant to
    end
    $$`,
];

/** What `down` runs, in order. */
const DOWN: readonly string[] = [
  `
    create or replace function weblate.strings_awaiting_review(only_projects text[] default null, only_components text[] default null, only_language text default null)
    returns table (unit_id bigint, translation_id integer, project_slug text, component_slug text,
      language_code text, num_words integer, waiting_since timestamptz, days_waiting integer)
    language sql stable parallel safe as $fn$
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
      ) w
      where u.state = 20
        and p.translation_review is true
        and t.is_source is not true
        and u.deleted_at is null
        and (only_projects is null or p.slug = any(only_projects))
        and (only_components is null or c.slug = any(only_components))
        and (only_language is null or t.language_code = only_language)$fn$`,
  `drop index weblate.changes_day_idx`,
  `drop index weblate.units_num_words_idx`,
  `drop index weblate.changes_unit_id_timestamp_idx`,
  `drop view weblate.label_progress`,
  `drop function weblate.progress_by_label_daily(text[], text, text[])`,
  `drop function weblate.progress_by_label(text[], text, text[])`,
  `drop view weblate.label_progress_daily`,
  `drop function weblate.record_label_statistics(integer)`,
  `
    create or replace function weblate.keep_unit_labels() returns trigger language plpgsql as $$
    begin
      update weblate.unit_labels ul set deleted_at = now()
      from new_units n
      where ul.unit_id = n.id and ul.deleted_at is null
        and not exists (select from (
  select n.id as unit_id, case jsonb_typeof(e) when 'number' then (e #>> '{}')::integer
    else (e ->> 'id')::integer end as label_id
  from new_units n
  cross join lateral jsonb_array_elements(
    case jsonb_typeof(n.labels) when 'array' then n.labels else '[]'::jsonb end) as e
  where jsonb_typeof(e) = 'number' or (jsonb_typeof(e) = 'object' and jsonb_typeof(e -> 'id') = 'number')) l
          where l.unit_id = ul.unit_id and l.label_id = ul.label_id);
      insert into weblate.unit_labels (unit_id, label_id)
      select distinct unit_id, label_id from (
  select n.id as unit_id, case jsonb_typeof(e) when 'number' then (e #>> '{}')::integer
    else (e ->> 'id')::integer end as label_id
  from new_units n
  cross join lateral jsonb_array_elements(
    case jsonb_typeof(n.labels) when 'array' then n.labels else '[]'::jsonb end) as e
  where jsonb_typeof(e) = 'number' or (jsonb_typeof(e) = 'object' and jsonb_typeof(e -> 'id') = 'number')) l
      on conflict (unit_id, label_id) do update set deleted_at = null
        where weblate.unit_labels.deleted_at is not null;
      
      return null;
    end
    $$`,
  `drop table weblate.label_statistics_due`,
  `drop table weblate.label_statistics`,
  `drop view weblate.labelled_units`,
  `drop view "weblate"."category_progress_daily"`,
  `drop function weblate.progress_by_category_daily(text[], text, text[])`,
  `drop view "weblate"."category_progress"`,
  `drop function weblate.progress_by_category(text[], text, text[])`,
  `drop view weblate.category_tree`,
  `drop index weblate.units_source_unit_id_idx`,
  `drop index weblate.components_category_id_idx`,
  `drop view "weblate"."component_progress"`,
  `drop function weblate.progress_by_component(text[], text, text[])`,
  `drop view "weblate"."project_progress"`,
  `drop function weblate.progress_by_project(text[], text, text[])`,
  `drop view "weblate"."language_progress"`,
  `drop function weblate.progress_by_language(text[], text, text[])`,
  `drop view "weblate"."component_progress_daily"`,
  `drop function weblate.progress_by_component_daily(text[], text, text[])`,
  `drop view "weblate"."project_progress_daily"`,
  `drop function weblate.progress_by_project_daily(text[], text, text[])`,
  `drop view "weblate"."language_progress_daily"`,
  `drop function weblate.progress_by_language_daily(text[], text, text[])`,
  `drop function weblate.progress_total(text[], text, text[])`,
  `
    create function weblate.progress_by_component(only_projects text[] default null, only_language text default null)
    returns table (component_id integer, component_slug text, component_name text, project_id integer, project_slug text, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select c.id as component_id,
           c.slug as component_slug,
           c.name as component_name,
           p.id as project_id,
           p.slug as project_slug,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.components c
      join weblate.projects p on p.id = c.project_id
      left join weblate.translation_progress x on x.component_id = c.id and (only_language is null or x.language_code = only_language)
      where c.deleted_at is null and p.deleted_at is null
      and (only_projects is null or p.slug = any(only_projects))
    group by c.id, p.id
    having only_language is null or count(x.translation_id) > 0$fn$`,
  `create view "weblate"."component_progress" as
    select * from weblate.progress_by_component()`,
  `
    create function weblate.progress_by_project(only_projects text[] default null, only_language text default null)
    returns table (project_id integer, project_slug text, project_name text, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select p.id as project_id,
           p.slug as project_slug,
           p.name as project_name,
           (select count(*) from weblate.components c
          where c.project_id = p.id and c.deleted_at is null) as components,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.projects p
      left join weblate.translation_progress x on x.project_id = p.id and (only_language is null or x.language_code = only_language)
      where p.deleted_at is null
      and (only_projects is null or p.slug = any(only_projects))
    group by p.id
    having only_language is null or count(x.translation_id) > 0$fn$`,
  `create view "weblate"."project_progress" as
    select * from weblate.progress_by_project()`,
  `
    create function weblate.progress_by_language(only_projects text[] default null, only_language text default null)
    returns table (language_code text, language_name text, projects bigint, components bigint, translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select x.language_code as language_code,
           min(x.language_name) as language_name,
           count(distinct x.project_id) as projects,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.translation_progress x where true and (only_language is null or x.language_code = only_language)
      and (only_projects is null or x.project_slug = any(only_projects))
    group by x.language_code
    $fn$`,
  `create view "weblate"."language_progress" as
    select * from weblate.progress_by_language()`,
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
    create function weblate.progress_total(only_projects text[] default null, only_language text default null)
    returns table (translations bigint, total bigint, total_words bigint, translated bigint, translated_words bigint, translated_percent numeric, translated_words_percent numeric, fuzzy bigint, fuzzy_words bigint, fuzzy_percent numeric, approved bigint, approved_words bigint, approved_percent numeric, failing bigint, failing_words bigint, failing_percent numeric, untranslated bigint, untranslated_words bigint, last_change timestamptz)
    language sql stable parallel safe as $fn$
    select count(x.translation_id) as translations,
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
           coalesce(sum(x.failing_words), 0)::bigint as failing_words,
           weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) as failing_percent,
           coalesce(sum(x.untranslated), 0)::bigint as untranslated,
           coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
           max(x.last_change) as last_change
    from weblate.translation_progress x where true and (only_language is null or x.language_code = only_language)
      and (only_projects is null or x.project_slug = any(only_projects))
    
    $fn$`,
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

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

// Progress sums, once: functions that sum the rows of translation_progress(_daily) per
// project, component or language (now and per day), or over everything, for the projects
// and the language asked for. The six summing views of 0003 become `select * from` these
// functions with no filter, so a view and a filtered report cannot disagree. The functions
// are plain SQL (not strict, not security definer), so PostgreSQL inlines them into the
// query and a filter on the view still reaches the tables. docs/schema.md documents them.
// Frozen once merged; add a new migration.
//
// Written out as the statements it ran when it landed, so that no migration reads another's
// SQL; schema/ holds each object's current definition (docs/schema.md, "Where a definition lives").

/** What `up` runs, in order. */
const UP: readonly string[] = [
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
  `create or replace view "weblate"."component_progress" as
      select * from weblate.progress_by_component()`,
  `create or replace view "weblate"."project_progress" as
      select * from weblate.progress_by_project()`,
  `create or replace view "weblate"."language_progress" as
      select * from weblate.progress_by_language()`,
  `create or replace view "weblate"."component_progress_daily" as
      select * from weblate.progress_by_component_daily()`,
  `create or replace view "weblate"."project_progress_daily" as
      select * from weblate.progress_by_project_daily()`,
  `create or replace view "weblate"."language_progress_daily" as
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
  `create or replace view "weblate"."component_progress" as
      
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
      left join weblate.translation_progress x on x.component_id = c.id 
      where c.deleted_at is null and p.deleted_at is null
      
    group by c.id, p.id
    `,
  `create or replace view "weblate"."project_progress" as
      
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
      left join weblate.translation_progress x on x.project_id = p.id 
      where p.deleted_at is null
      
    group by p.id
    `,
  `create or replace view "weblate"."language_progress" as
      
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
    from weblate.translation_progress x where true 
      
    group by x.language_code
    `,
  `create or replace view "weblate"."component_progress_daily" as
      
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
    from weblate.translation_progress_daily x where true 
      
    group by x.day, x.component_id, x.component_slug, x.project_id, x.project_slug
    `,
  `create or replace view "weblate"."project_progress_daily" as
      
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
    from weblate.translation_progress_daily x where true 
      
    group by x.day, x.project_id, x.project_slug
    `,
  `create or replace view "weblate"."language_progress_daily" as
      
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
    from weblate.translation_progress_daily x where true 
      
    group by x.day, x.language_code
    `,
  `drop function if exists weblate.progress_total(text[], text)`,
  `drop function if exists weblate.progress_by_language_daily(text[], text)`,
  `drop function if exists weblate.progress_by_project_daily(text[], text)`,
  `drop function if exists weblate.progress_by_component_daily(text[], text)`,
  `drop function if exists weblate.progress_by_language(text[], text)`,
  `drop function if exists weblate.progress_by_project(text[], text)`,
  `drop function if exists weblate.progress_by_component(text[], text)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

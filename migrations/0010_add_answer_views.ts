import { type Kysely, sql } from 'kysely';

// Functions that answer managers' questions: new source strings, contributors and their
// rankings, the review queue and time to approval, how translations were made, release
// readiness against thresholds, and failing checks over time. Each takes the filters of
// the progress functions (projects, language) plus components and, over history, a period
// and a time window; docs/schema.md ("Answer functions") says how each is computed and
// from which change actions. Plain SQL, stable, called with the caller's privileges.
// Frozen once merged; add a new migration.
//
// Written out as the statements it ran when it landed, so that no migration reads another's
// SQL; schema/ holds each object's current definition (docs/schema.md, "Where a definition lives").

/** What `up` runs, in order. */
const UP: readonly string[] = [
  `
      create function weblate.source_string_changes(period_unit text default 'week', only_projects text[] default null, only_components text[] default null, since timestamptz default null, until timestamptz default null)
      returns table (period_start date, project_slug text, component_slug text,
      strings_added bigint, words_added bigint, strings_removed bigint, words_removed bigint)
      language sql stable parallel safe as $fn$
      select e.period_start, e.project_slug, e.component_slug,
             count(*) filter (where e.kind = 'added') as strings_added,
             coalesce(sum(e.words) filter (where e.kind = 'added'), 0)::bigint as words_added,
             count(*) filter (where e.kind = 'removed') as strings_removed,
             coalesce(sum(e.words) filter (where e.kind = 'removed'), 0)::bigint as words_removed
      from (
        select distinct on (ch.project_slug, ch.component_slug, k.kind, k.string)
               date_trunc(period_unit, ch.timestamp at time zone 'UTC')::date as period_start,
               ch.project_slug, ch.component_slug, k.kind, coalesce(u.num_words, 0) as words
        from weblate.changes ch
        left join weblate.units u on u.id = ch.unit_id
        cross join lateral (
          select case when ch.action = 63 then 'removed' else 'added' end as kind,
                 coalesce(u.id_hash::text, 'change ' || ch.id) as string
        ) k
        where ch.action in (13, 31, 71, 73, 89, 90, 63) and (only_projects is null or ch.project_slug = any(only_projects))
    and (only_components is null or ch.component_slug = any(only_components))
    
    and (since is null or ch.timestamp >= since)
    and (until is null or ch.timestamp < until)
        order by ch.project_slug, ch.component_slug, k.kind, k.string, ch.timestamp, ch.id
      ) e
      group by e.period_start, e.project_slug, e.component_slug$fn$`,
  `
      create function weblate.contributions(period_unit text default 'week', only_projects text[] default null, only_components text[] default null, only_language text default null, since timestamptz default null, until timestamptz default null)
      returns table (period_start date, scope text, project_slug text, language_code text, username text,
      strings_translated bigint, words_translated bigint, strings_approved bigint,
      words_approved bigint, strings_suggested bigint, words_suggested bigint, comments bigint,
      content_changes bigint, rank bigint)
      language sql stable parallel safe as $fn$
      with events as (
        select distinct date_trunc(period_unit, ch.timestamp at time zone 'UTC')::date as period_start, ch.project_slug,
               ch.language_code, e.person, e.kind,
               case when e.kind in ('comment', 'content') then -ch.id
                 else coalesce(ch.unit_id, -ch.id) end as string,
               coalesce(u.num_words, 0) as words
        from weblate.changes ch
        left join weblate.units u on u.id = ch.unit_id
        cross join lateral (
          -- A change counts once as what it did for the string, and once more as a content
          -- change credited to its author (Weblate's credits: translation changes only).
          select k.kind,
                 case when k.kind = 'content' then ch.author_name
                      when ch.action in (3, 36) then coalesce(ch.user_name, ch.author_name)
                      else coalesce(ch.author_name, ch.user_name) end as person
          from (values
            (case
               when ch.action in (2, 5, 7, 9) then 'translated'
               when ch.action = 36 then 'approved'
               when ch.action = 4 then 'suggested'
               when ch.action = 3 then 'comment'
             end),
            (case when ch.action in (2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94) and ch.translation_id is not null
               then 'content' end)
          ) k(kind)
          where k.kind is not null
        ) e
        where ch.action in (2, 5, 7, 9, 3, 4, 36, 2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94) and (only_projects is null or ch.project_slug = any(only_projects))
    and (only_components is null or ch.component_slug = any(only_components))
    and (only_language is null or ch.language_code = only_language)
    and (since is null or ch.timestamp >= since)
    and (until is null or ch.timestamp < until)
      ), totals as (
        select e.period_start,
               case grouping(e.project_slug, e.language_code)
                 when 0 then 'project and language' when 1 then 'project' else 'language'
               end as scope,
               e.project_slug, e.language_code, e.person as username,
               count(*) filter (where e.kind = 'translated') as strings_translated,
               coalesce(sum(e.words) filter (where e.kind = 'translated'), 0)::bigint
                 as words_translated,
               count(*) filter (where e.kind = 'approved') as strings_approved,
               coalesce(sum(e.words) filter (where e.kind = 'approved'), 0)::bigint
                 as words_approved,
               count(*) filter (where e.kind = 'suggested') as strings_suggested,
               coalesce(sum(e.words) filter (where e.kind = 'suggested'), 0)::bigint
                 as words_suggested,
               count(*) filter (where e.kind = 'comment') as comments,
               count(*) filter (where e.kind = 'content') as content_changes
        from events e
        where e.person is not null
        group by grouping sets (
          (e.period_start, e.person, e.project_slug, e.language_code),
          (e.period_start, e.person, e.project_slug),
          (e.period_start, e.person, e.language_code)
        )
      )
      select t.*,
             rank() over (
               partition by t.period_start, t.scope, t.project_slug, t.language_code
               order by t.words_translated desc, t.strings_translated desc
             ) as rank
      from totals t$fn$`,
  `
      create function weblate.strings_awaiting_review(only_projects text[] default null, only_components text[] default null, only_language text default null)
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
  `
      create function weblate.time_to_approval(period_unit text default 'week', only_projects text[] default null, only_components text[] default null, only_language text default null, since timestamptz default null, until timestamptz default null)
      returns table (period_start date, project_slug text, language_code text, approvals bigint,
      measured bigint, median_hours numeric, average_hours numeric, max_hours numeric)
      language sql stable parallel safe as $fn$
      select a.period_start, a.project_slug, a.language_code,
             count(*) as approvals,
             count(a.hours) as measured,
             round((percentile_cont(0.5) within group (order by a.hours))::numeric, 2)
               as median_hours,
             round(avg(a.hours), 2) as average_hours,
             round(max(a.hours), 2) as max_hours
      from (
        select date_trunc(period_unit, ch.timestamp at time zone 'UTC')::date as period_start, ch.project_slug, ch.language_code,
               extract(epoch from ch.timestamp - (
                 select max(s.timestamp) from weblate.changes s
                 where s.unit_id = ch.unit_id and s.action in (2, 5, 6, 7, 8, 9, 27, 59, 72, 77, 94)
                   and s.timestamp <= ch.timestamp
               )) / 3600 as hours
        from weblate.changes ch
        where ch.action = 36 and (only_projects is null or ch.project_slug = any(only_projects))
    and (only_components is null or ch.component_slug = any(only_components))
    and (only_language is null or ch.language_code = only_language)
    and (since is null or ch.timestamp >= since)
    and (until is null or ch.timestamp < until)
      ) a
      group by a.period_start, a.project_slug, a.language_code$fn$`,
  `
      create function weblate.translation_methods(period_unit text default 'week', only_projects text[] default null, only_components text[] default null, only_language text default null, since timestamptz default null, until timestamptz default null)
      returns table (period_start date, project_slug text, component_slug text, language_code text,
      method text, strings bigint, words bigint)
      language sql stable parallel safe as $fn$
      select date_trunc(period_unit, ch.timestamp at time zone 'UTC')::date as period_start, ch.project_slug, ch.component_slug,
             ch.language_code, case
  when ch.action in (2, 5, 7, 8, 94) then 'person'
  when ch.action = 6 then 'automatic'
  when ch.action in (9, 72) then 'upload'
  when ch.action = 59 then 'repository'
  when ch.action = 77 then 'propagated'
  when ch.action = 27 then 'replaced'
end as method,
             count(*) as strings, coalesce(sum(u.num_words), 0)::bigint as words
      from weblate.changes ch
      left join weblate.units u on u.id = ch.unit_id
      where ch.action in (2, 5, 6, 7, 8, 9, 27, 59, 72, 77, 94) and (only_projects is null or ch.project_slug = any(only_projects))
    and (only_components is null or ch.component_slug = any(only_components))
    and (only_language is null or ch.language_code = only_language)
    and (since is null or ch.timestamp >= since)
    and (until is null or ch.timestamp < until)
      group by 1, 2, 3, 4, 5$fn$`,
  `
      create function weblate.automatic_share(only_projects text[] default null, only_components text[] default null, only_language text default null)
      returns table (translation_id integer, project_slug text, component_slug text,
      language_code text, translated bigint, translated_words bigint, known bigint,
      automatic bigint, automatic_words bigint)
      language sql stable parallel safe as $fn$
      select t.id as translation_id, p.slug as project_slug, c.slug as component_slug,
             t.language_code,
             count(*) as translated,
             coalesce(sum(u.num_words), 0)::bigint as translated_words,
             count(u.automatically_translated) as known,
             count(*) filter (where u.automatically_translated) as automatic,
             coalesce(sum(u.num_words) filter (where u.automatically_translated), 0)::bigint
               as automatic_words
      from weblate.units u
      join weblate.translations t on t.id = u.translation_id
      join weblate.components c on c.id = t.component_id
      join weblate.projects p on p.id = c.project_id
      where u.state in (20, 30)
        and t.is_source is not true
        and u.deleted_at is null
        and (only_projects is null or p.slug = any(only_projects))
        and (only_components is null or c.slug = any(only_components))
        and (only_language is null or t.language_code = only_language)
      group by t.id, p.slug, c.slug$fn$`,
  `
      create function weblate.release_readiness(per text default 'component', thresholds numeric[] default array[80, 90, 95], only_projects text[] default null, only_components text[] default null, only_language text default null)
      returns table (project_slug text, component_slug text, language_code text, threshold numeric,
      total_words bigint, translated_words bigint, translated_words_percent numeric,
      is_reached boolean, words_needed bigint, words_per_day numeric, projected_date date)
      language sql stable parallel safe as $fn$
      with scope as (
        select f.project_slug,
               case when per = 'component' then f.component_slug end as component_slug,
               f.language_code,
               coalesce(sum(f.total_words), 0)::bigint as total_words,
               coalesce(sum(f.translated_words), 0)::bigint as translated_words,
               sum(f.words_translated_30d)::bigint as words_translated_30d
        from weblate.completion_forecast f
        where per in ('component', 'project') and (only_projects is null or f.project_slug = any(only_projects))
    and (only_components is null or f.component_slug = any(only_components))
    and (only_language is null or f.language_code = only_language)
        group by 1, 2, 3
      )
      select s.project_slug, s.component_slug, s.language_code, th.threshold,
             s.total_words, s.translated_words,
             weblate.truncated_percent(s.translated_words, s.total_words, true)
               as translated_words_percent,
             n.words_needed = 0 as is_reached,
             n.words_needed,
             round(s.words_translated_30d / 30.0, 2) as words_per_day,
             case when n.words_needed > 0 and s.words_translated_30d > 0
               then (now() at time zone 'UTC')::date + ceil(n.words_needed * 30.0 / s.words_translated_30d)::integer
             end as projected_date
      from scope s
      cross join unnest(thresholds) as th(threshold)
      cross join lateral (
        select greatest(ceil(th.threshold * s.total_words / 100.0) - s.translated_words, 0)::bigint
          as words_needed
      ) n$fn$`,
  `
      create function weblate.failing_checks(period_unit text default 'week', per text default 'translation', only_projects text[] default null, only_components text[] default null, only_language text default null, since timestamptz default null, until timestamptz default null)
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
    do $$
    begin
      if exists (select from pg_roles where rolname = 'weblate_reader') then
        grant execute on function weblate.source_string_changes(text, text[], text[], timestamptz, timestamptz), weblate.contributions(text, text[], text[], text, timestamptz, timestamptz), weblate.strings_awaiting_review(text[], text[], text), weblate.time_to_approval(text, text[], text[], text, timestamptz, timestamptz), weblate.translation_methods(text, text[], text[], text, timestamptz, timestamptz), weblate.automatic_share(text[], text[], text), weblate.release_readiness(text, numeric[], text[], text[], text), weblate.failing_checks(text, text, text[], text[], text, timestamptz, timestamptz) to weblate_reader;
      end if;
    exception
      when undefined_object then
        null; -- dropped meanwhile by another database's rollback: nothing to grant to
    end
    $$`,
];

/** What `down` runs, in order. */
const DOWN: readonly string[] = [
  `drop function if exists weblate.failing_checks(text, text, text[], text[], text, timestamptz, timestamptz)`,
  `drop function if exists weblate.release_readiness(text, numeric[], text[], text[], text)`,
  `drop function if exists weblate.automatic_share(text[], text[], text)`,
  `drop function if exists weblate.translation_methods(text, text[], text[], text, timestamptz, timestamptz)`,
  `drop function if exists weblate.time_to_approval(text, text[], text[], text, timestamptz, timestamptz)`,
  `drop function if exists weblate.strings_awaiting_review(text[], text[], text)`,
  `drop function if exists weblate.contributions(text, text[], text[], text, timestamptz, timestamptz)`,
  `drop function if exists weblate.source_string_changes(text, text[], text[], timestamptz, timestamptz)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

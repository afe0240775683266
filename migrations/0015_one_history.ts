import { type Kysely, sql } from 'kysely';

// One history for every question about time. A translation's pace is its net translated
// words over the last 30 days read from translation_progress_spans (measured snapshots, and
// the estimate from the change log before them), the history the movers and charts read:
// weblate.translation_pace. completion_forecast, language_completion_forecast and
// release_readiness read it and say whether the pace is measured or estimated; where the
// history does not reach back 30 days the pace is unknown (null) and pace_known_from says
// from when it will be known, instead of 0. Stalled translations are idle since their last
// change or the last day their translated strings moved in that history, whichever is later
// (weblate.idle_translations, which stalled_translations reads with no filter).
// docs/schema.md and docs/metrics.md document each. Frozen once merged; add a new migration.

const TRANSLATION_PACE = `
create function weblate.translation_pace(days integer default 30, only_projects text[] default null, only_language text default null, only_components text[] default null)
returns table (translation_id integer, project_slug text, component_slug text, language_code text,
  from_day date, translated_words_then integer, translated_words_now integer,
  words_translated bigint, words_per_day numeric, pace_origin text, pace_known_from date)
language sql stable parallel safe as $fn$
  -- Net translated words between the end of the day \`days\` before today and today, as the
  -- movers compare them; measured when both ends are, else estimated.
  with bounds as (
    select (now() at time zone 'UTC')::date as today,
           (now() at time zone 'UTC')::date - days as from_day
  ), spans as materialized (
    select s.translation_id, s.project_slug, s.component_slug, s.language_code, s.first_day,
           s.last_day, s.translated_words, s.origin
    from weblate.translation_progress_spans(only_projects, only_language, only_components) s
    where days >= 1
  ), history as (
    select s.translation_id, min(s.first_day) as first_day from spans s group by s.translation_id
  )
  select n.translation_id, n.project_slug, n.component_slug, n.language_code, b.from_day,
         t.translated_words, n.translated_words,
         (n.translated_words - t.translated_words)::bigint,
         round((n.translated_words - t.translated_words)::numeric / days, 2),
         case when n.translated_words - t.translated_words is not null then
           case when 'estimated' in (t.origin, n.origin) then 'estimated' else 'measured' end
         end,
         -- Unknown: the history starts after from_day; it reaches back far enough \`days\` later.
         case when t.translation_id is null then h.first_day + days end
  from bounds b
  join spans n on b.today between n.first_day and n.last_day
  join history h on h.translation_id = n.translation_id
  left join spans t on t.translation_id = n.translation_id
    and b.from_day between t.first_day and t.last_day
$fn$`;

/** A translation with no history at all is known 30 days after its first snapshot: today at the earliest. */
const COMPLETION_FORECAST = `
create view weblate.completion_forecast as
select x.translation_id,
       x.project_id,
       x.project_slug,
       x.component_id,
       x.component_slug,
       x.language_code,
       x.total_words,
       x.translated_words,
       x.untranslated_words,
       p.words_translated as words_translated_30d,
       p.words_per_day,
       case when p.words_translated > 0
         then (now() at time zone 'UTC')::date + ceil(x.untranslated_words * 30.0 / p.words_translated)::integer
       end as projected_completion,
       p.pace_origin,
       case when p.pace_origin is null
         then coalesce(p.pace_known_from, (now() at time zone 'UTC')::date + 30)
       end as pace_known_from
from weblate.translation_progress x
left join weblate.translation_pace(30) p on p.translation_id = x.translation_id`;

/** A language's pace sums the translations whose pace is known (pace_translations of them). */
const LANGUAGE_COMPLETION_FORECAST = `
create view weblate.language_completion_forecast as
select f.language_code,
       count(*) as translations,
       coalesce(sum(f.total_words), 0)::bigint as total_words,
       coalesce(sum(f.translated_words), 0)::bigint as translated_words,
       coalesce(sum(f.untranslated_words), 0)::bigint as untranslated_words,
       sum(f.words_translated_30d)::bigint as words_translated_30d,
       round(sum(f.words_translated_30d) / 30.0, 2) as words_per_day,
       case when sum(f.words_translated_30d) > 0
         then (now() at time zone 'UTC')::date + ceil(coalesce(sum(f.untranslated_words), 0) * 30.0
                                                      / sum(f.words_translated_30d))::integer
       end as projected_completion,
       count(f.words_translated_30d) as pace_translations,
       case when count(f.words_translated_30d) > 0 then
         case when bool_or(f.pace_origin = 'estimated') then 'estimated' else 'measured' end
       end as pace_origin,
       case when count(f.words_translated_30d) = 0 then min(f.pace_known_from) end as pace_known_from
from weblate.completion_forecast f
group by f.language_code`;

const IDLE_TRANSLATIONS = `
create function weblate.idle_translations(only_projects text[] default null, only_language text default null, only_components text[] default null)
returns table (translation_id integer, project_id integer, project_slug text, component_id integer,
  component_slug text, language_code text, total integer, untranslated integer,
  untranslated_words integer, translated_percent numeric, last_change timestamptz, last_author text,
  idle_since timestamptz, days_since_last_change integer, last_progress_day date)
language sql stable parallel safe as $fn$
  with moves as (
    -- The first day of each span whose translated strings or words differ from the span before.
    select m.translation_id, max(m.first_day) filter (where m.has_moved) as last_progress_day
    from (
      select s.translation_id, s.first_day,
             lag(s.first_day) over w is not null
               and (s.translated, s.translated_words)
                   is distinct from (lag(s.translated) over w, lag(s.translated_words) over w)
               as has_moved
      from weblate.translation_progress_spans(only_projects, only_language, only_components) s
      window w as (partition by s.translation_id order by s.first_day)
    ) m
    group by m.translation_id
  )
  select x.translation_id, x.project_id, x.project_slug, x.component_id, x.component_slug,
         x.language_code, x.total, x.untranslated, x.untranslated_words, x.translated_percent,
         x.last_change, t.last_author, i.idle_since,
         floor(extract(epoch from now() - i.idle_since) / 86400)::integer,
         m.last_progress_day
  from weblate.translation_progress x
  join weblate.translations t on t.id = x.translation_id
  left join moves m on m.translation_id = x.translation_id
  cross join lateral (
    -- Never changed: idle since its first mirrored change, or since the mirror first saw it.
    select greatest(
      coalesce(x.last_change,
               (select min(ch.timestamp) from weblate.changes ch
                where ch.translation_id = x.translation_id),
               t.first_seen_at),
      m.last_progress_day::timestamp at time zone 'UTC'
    ) as idle_since
  ) i
  where x.untranslated > 0
    and (only_projects is null or x.project_slug = any(only_projects))
    and (only_language is null or x.language_code = only_language)
    and (only_components is null or x.component_slug = any(only_components))
$fn$`;

const RELEASE_READINESS = `
create function weblate.release_readiness(per text default 'component', thresholds numeric[] default array[80, 90, 95], only_projects text[] default null, only_components text[] default null, only_language text default null)
returns table (project_slug text, component_slug text, language_code text, threshold numeric,
  total_words bigint, translated_words bigint, translated_words_percent numeric,
  is_reached boolean, words_needed bigint, words_per_day numeric, projected_date date,
  translations bigint, pace_translations bigint, words_translated_30d bigint, pace_origin text,
  pace_known_from date, status text)
language sql stable parallel safe as $fn$
  with scope as (
    select x.project_slug,
           case when per = 'component' then x.component_slug end as component_slug,
           x.language_code,
           count(*) as translations,
           coalesce(sum(x.total_words), 0)::bigint as total_words,
           coalesce(sum(x.translated_words), 0)::bigint as translated_words,
           sum(p.words_translated)::bigint as words_translated_30d,
           count(p.words_translated) as pace_translations,
           case when count(p.words_translated) > 0 then
             case when bool_or(p.pace_origin = 'estimated') then 'estimated' else 'measured' end
           end as pace_origin,
           case when count(p.words_translated) = 0
             then coalesce(min(p.pace_known_from), (now() at time zone 'UTC')::date + 30)
           end as pace_known_from
    from weblate.translation_progress x
    left join weblate.translation_pace(30, only_projects, only_language, only_components) p
      on p.translation_id = x.translation_id
    where per in ('component', 'project')
      and (only_projects is null or x.project_slug = any(only_projects))
      and (only_components is null or x.component_slug = any(only_components))
      and (only_language is null or x.language_code = only_language)
    group by 1, 2, 3
  )
  select s.project_slug, s.component_slug, s.language_code, th.threshold,
         s.total_words, s.translated_words,
         weblate.truncated_percent(s.translated_words, s.total_words, true),
         n.words_needed = 0,
         n.words_needed,
         round(s.words_translated_30d / 30.0, 2),
         case when n.words_needed > 0 and s.words_translated_30d > 0
           then (now() at time zone 'UTC')::date + ceil(n.words_needed * 30.0 / s.words_translated_30d)::integer
         end,
         s.translations, s.pace_translations, s.words_translated_30d, s.pace_origin,
         s.pace_known_from,
         -- What the report and the dashboard write for the threshold: one wording, here.
         case
           when n.words_needed = 0 then 'reached'
           when s.words_translated_30d > 0
             then ((now() at time zone 'UTC')::date
                   + ceil(n.words_needed * 30.0 / s.words_translated_30d)::integer)::text
           when s.words_translated_30d is null then 'pace unknown until ' || s.pace_known_from
           when s.words_translated_30d < 0
             then 'losing ground: ' || s.words_translated_30d || ' words in 30 days'
           else 'no net progress in 30 days'
         end
  from scope s
  cross join unnest(thresholds) as th(threshold)
  cross join lateral (
    select greatest(ceil(th.threshold * s.total_words / 100.0) - s.translated_words, 0)::bigint
      as words_needed
  ) n
$fn$`;

/** As earlier migrations do: PUBLIC may execute already; the role gets it by name too. */
const GRANT = `
do $$
begin
  if exists (select from pg_roles where rolname = 'weblate_reader') then
    grant execute on function weblate.translation_pace(integer, text[], text, text[]),
      weblate.idle_translations(text[], text, text[]),
      weblate.release_readiness(text, numeric[], text[], text[], text) to weblate_reader;
  end if;
exception
  when undefined_object then
    null; -- dropped meanwhile by another database's rollback: nothing to grant to
end
$$`;

const DROP_OLD = [
  'drop function weblate.release_readiness(text, numeric[], text[], text[], text)',
  'drop view weblate.language_completion_forecast',
  'drop view weblate.completion_forecast',
  'drop view weblate.stalled_translations',
];

const UP: readonly string[] = [
  ...DROP_OLD,
  TRANSLATION_PACE,
  COMPLETION_FORECAST,
  LANGUAGE_COMPLETION_FORECAST,
  IDLE_TRANSLATIONS,
  'create view weblate.stalled_translations as select * from weblate.idle_translations()',
  RELEASE_READINESS,
  GRANT,
];

/** The definitions of 0003 and 0010 as they were. */
const DOWN: readonly string[] = [
  ...DROP_OLD,
  'drop function weblate.idle_translations(text[], text, text[])',
  'drop function weblate.translation_pace(integer, text[], text, text[])',
  `    create view weblate.stalled_translations as
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
    where x.untranslated > 0`,
  `    create view weblate.completion_forecast as
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
             then (now() at time zone 'UTC')::date + ceil(p.untranslated_words * 30.0 / p.words_translated_30d)::integer
           end as projected_completion
    from progress p`,
  `    create view weblate.language_completion_forecast as
    select f.language_code,
           count(*) as translations,
           coalesce(sum(f.total_words), 0)::bigint as total_words,
           coalesce(sum(f.translated_words), 0)::bigint as translated_words,
           coalesce(sum(f.untranslated_words), 0)::bigint as untranslated_words,
           sum(f.words_translated_30d)::bigint as words_translated_30d,
           round(sum(f.words_translated_30d) / 30.0, 2) as words_per_day,
           case when sum(f.words_translated_30d) > 0
             then (now() at time zone 'UTC')::date + ceil(coalesce(sum(f.untranslated_words), 0) * 30.0
                                 / sum(f.words_translated_30d))::integer
           end as projected_completion
    from weblate.completion_forecast f
    group by f.language_code`,
  `      create function weblate.release_readiness(per text default 'component', thresholds numeric[] default array[80, 90, 95], only_projects text[] default null, only_components text[] default null, only_language text default null)
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
do $$
begin
  if exists (select from pg_roles where rolname = 'weblate_reader') then
    grant execute on function weblate.release_readiness(text, numeric[], text[], text[], text) to weblate_reader;
  end if;
exception
  when undefined_object then
    null;
end
$$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

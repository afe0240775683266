import { type Kysely, sql } from 'kysely';

// People's figures, one way: weblate.contributions counts every change (a string saved
// twice counts twice, as Weblate's contributor statistics count) and credits it to the
// change's author, as Weblate's credits do; a change without an author is credited to
// nobody. Before, it counted distinct strings and fell back to the change's user, so its
// words disagreed with the activity figures of the same window. It gains content_words:
// the source words of the content changes (Weblate's contributor statistics' words).
// weblate.sync_freshness is the one definition of how fresh the data is (the newest
// successful sync, statistics snapshots left out), which /healthz, /metrics and the
// dashboard read. docs/metrics.md defines each figure. Frozen once merged; add a new migration.

const CONTRIBUTIONS = `
create function weblate.contributions(period_unit text default 'week', only_projects text[] default null, only_components text[] default null, only_language text default null, since timestamptz default null, until timestamptz default null)
returns table (period_start date, scope text, project_slug text, language_code text, username text,
  strings_translated bigint, words_translated bigint, strings_approved bigint,
  words_approved bigint, strings_suggested bigint, words_suggested bigint, comments bigint,
  content_changes bigint, rank bigint, content_words bigint)
language sql stable parallel safe as $fn$
  with events as (
    -- A change counts once as what it did for the string (2, 5, 7, 9 translated, 36 approved,
    -- 4 suggested, 3 comment), and once more as a content change (Weblate's ACTIONS_CONTENT,
    -- in a translation), as Weblate's credits count it.
    select date_trunc(period_unit, ch.timestamp at time zone 'UTC')::date as period_start,
           ch.project_slug, ch.language_code, ch.author_name as person, k.kind,
           coalesce(u.num_words, 0) as words
    from weblate.changes ch
    left join weblate.units u on u.id = ch.unit_id
    cross join lateral (values
      (case
         when ch.action in (2, 5, 7, 9) then 'translated'
         when ch.action = 36 then 'approved'
         when ch.action = 4 then 'suggested'
         when ch.action = 3 then 'comment'
       end),
      (case when ch.action in (2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94)
              and ch.translation_id is not null
         then 'content' end)
    ) k(kind)
    where k.kind is not null
      and ch.author_name is not null
      and ch.action in (2, 3, 4, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94)
      and (only_projects is null or ch.project_slug = any(only_projects))
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
           coalesce(sum(e.words) filter (where e.kind = 'approved'), 0)::bigint as words_approved,
           count(*) filter (where e.kind = 'suggested') as strings_suggested,
           coalesce(sum(e.words) filter (where e.kind = 'suggested'), 0)::bigint
             as words_suggested,
           count(*) filter (where e.kind = 'comment') as comments,
           count(*) filter (where e.kind = 'content') as content_changes,
           coalesce(sum(e.words) filter (where e.kind = 'content'), 0)::bigint as content_words
    from events e
    group by grouping sets (
      (e.period_start, e.person, e.project_slug, e.language_code),
      (e.period_start, e.person, e.project_slug),
      (e.period_start, e.person, e.language_code)
    )
  )
  select t.period_start, t.scope, t.project_slug, t.language_code, t.username,
         t.strings_translated, t.words_translated, t.strings_approved, t.words_approved,
         t.strings_suggested, t.words_suggested, t.comments, t.content_changes,
         rank() over (
           partition by t.period_start, t.scope, t.project_slug, t.language_code
           order by t.words_translated desc, t.strings_translated desc
         ),
         t.content_words
  from totals t
$fn$`;

const GRANT = `
do $$
begin
  if exists (select from pg_roles where rolname = 'weblate_reader') then
    grant execute on function weblate.contributions(text, text[], text[], text, timestamptz, timestamptz) to weblate_reader;
  end if;
exception
  when undefined_object then
    null; -- dropped meanwhile by another database's rollback: nothing to grant to
end
$$`;

const DROP =
  'drop function weblate.contributions(text, text[], text[], text, timestamptz, timestamptz)';

const SYNC_FRESHNESS = `
create view weblate.sync_freshness as
select max(r.finished_at) as last_success,
       extract(epoch from now() - max(r.finished_at)) as age_seconds
from weblate.sync_runs r
where r.status = 'succeeded' and r.kind in ('full', 'incremental', 'webhook')`;

const UP: readonly string[] = [DROP, CONTRIBUTIONS, GRANT, SYNC_FRESHNESS];

/** 0010's definition, as it was. */
const DOWN: readonly string[] = [
  'drop view weblate.sync_freshness',
  DROP,
  `      create function weblate.contributions(period_unit text default 'week', only_projects text[] default null, only_components text[] default null, only_language text default null, since timestamptz default null, until timestamptz default null)
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
  GRANT,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

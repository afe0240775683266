import { type Kysely, sql } from 'kysely';

import { grantExecuteToReader } from './0005_add_progress_functions.ts';

// Functions that answer managers' questions: new source strings, contributors and their
// rankings, the review queue and time to approval, how translations were made, release
// readiness against thresholds, and failing checks over time. Each takes the filters of
// the progress functions (projects, language) plus components and, over history, a period
// and a time window; docs/schema.md ("Answer functions") says how each is computed and
// from which change actions. Plain SQL, stable, called with the caller's privileges.
// Frozen once merged; add a new migration.

/** Actions that add a string: 13, 89, 90 (source string added), 31, 71, 73 (string added). */
const STRING_ADDED = '13, 31, 71, 73, 89, 90';
/** 63 String removed. */
const STRING_REMOVED = '63';

/** Actions that save a translation on its author's behalf, as 0003 counts words translated. */
const TRANSLATED = '2, 5, 7, 9';

/**
 * Weblate's content actions (ACTIONS_CONTENT, 5.14 and 2026), which its credits report counts
 * per author: the target-saving ones, 30 source changed, 31 new string, 32 explanation,
 * 36 approved, 37 marked for edit, 66 flags, 76 bulk edit, 79 enforced check.
 */
const CONTENT = '2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94';

/**
 * Actions that put a new target into a string, whoever or whatever wrote it: the
 * translated ones, 6 automatic, 8 reverted, 27 replaced, 59 repository, 72 upload,
 * 77 propagated, 94 user edit reverted.
 */
const TARGET_SAVED = '2, 5, 6, 7, 8, 9, 27, 59, 72, 77, 94';

/** The method of each target-saving action counted by translation_methods. */
const METHOD_OF_ACTION = `case
  when ch.action in (2, 5, 7, 8, 94) then 'person'
  when ch.action = 6 then 'automatic'
  when ch.action in (9, 72) then 'upload'
  when ch.action = 59 then 'repository'
  when ch.action = 77 then 'propagated'
  when ch.action = 27 then 'replaced'
end`;

/** A UTC day; results must not depend on the session's time zone. */
const TODAY = `(now() at time zone 'UTC')::date`;

/** The first day of the period of `ts` (a timestamptz), in UTC. */
const periodOf = (ts: string) => `date_trunc(period_unit, ${ts} at time zone 'UTC')::date`;

/** Arguments, each `name type default …`: null means no filter. */
const SCOPE = ['only_projects text[] default null', 'only_components text[] default null'];
const LANGUAGE = 'only_language text default null';
const WINDOW = ['since timestamptz default null', 'until timestamptz default null'];
const PERIOD = `period_unit text default 'week'`;

/** The scope filter on rows `x` with project_slug, component_slug and language_code. */
function inScope(x: string, hasLanguage = true): string {
  return `(only_projects is null or ${x}.project_slug = any(only_projects))
    and (only_components is null or ${x}.component_slug = any(only_components))
    ${hasLanguage ? `and (only_language is null or ${x}.language_code = only_language)` : ''}`;
}

/** Changes `ch` in the scope and the time window. */
function changesInWindow(hasLanguage = true): string {
  return `${inScope('ch', hasLanguage)}
    and (since is null or ch.timestamp >= since)
    and (until is null or ch.timestamp < until)`;
}

export interface AnswerFunction {
  name: string;
  /** Its arguments; their types alone name the function in grants and drops. */
  args: readonly string[];
  returns: string;
  body: string;
}

/**
 * failing_checks' sums over `last_day` (each translation's last measured day of each period):
 * per translation, or per language.
 */
export const FAILING_SUMS = `
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
      group by 1, 3, 4, 5, 6`;

export const FUNCTIONS: readonly AnswerFunction[] = [
  {
    // A string counts once per component and kind: strings are told apart by id_hash (the
    // same in every language), so a change logged in every translation counts once.
    name: 'source_string_changes',
    args: [PERIOD, ...SCOPE, ...WINDOW],
    returns: `period_start date, project_slug text, component_slug text,
      strings_added bigint, words_added bigint, strings_removed bigint, words_removed bigint`,
    body: `
      select e.period_start, e.project_slug, e.component_slug,
             count(*) filter (where e.kind = 'added') as strings_added,
             coalesce(sum(e.words) filter (where e.kind = 'added'), 0)::bigint as words_added,
             count(*) filter (where e.kind = 'removed') as strings_removed,
             coalesce(sum(e.words) filter (where e.kind = 'removed'), 0)::bigint as words_removed
      from (
        select distinct on (ch.project_slug, ch.component_slug, k.kind, k.string)
               ${periodOf('ch.timestamp')} as period_start,
               ch.project_slug, ch.component_slug, k.kind, coalesce(u.num_words, 0) as words
        from weblate.changes ch
        left join weblate.units u on u.id = ch.unit_id
        cross join lateral (
          select case when ch.action = ${STRING_REMOVED} then 'removed' else 'added' end as kind,
                 coalesce(u.id_hash::text, 'change ' || ch.id) as string
        ) k
        where ch.action in (${STRING_ADDED}, ${STRING_REMOVED}) and ${changesInWindow(false)}
        order by ch.project_slug, ch.component_slug, k.kind, k.string, ch.timestamp, ch.id
      ) e
      group by e.period_start, e.project_slug, e.component_slug`,
  },
  {
    // Strings are distinct per person, period and kind; comments count one by one.
    name: 'contributions',
    args: [PERIOD, ...SCOPE, LANGUAGE, ...WINDOW],
    returns: `period_start date, scope text, project_slug text, language_code text, username text,
      strings_translated bigint, words_translated bigint, strings_approved bigint,
      words_approved bigint, strings_suggested bigint, words_suggested bigint, comments bigint,
      content_changes bigint, rank bigint`,
    body: `
      with events as (
        select distinct ${periodOf('ch.timestamp')} as period_start, ch.project_slug,
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
               when ch.action in (${TRANSLATED}) then 'translated'
               when ch.action = 36 then 'approved'
               when ch.action = 4 then 'suggested'
               when ch.action = 3 then 'comment'
             end),
            (case when ch.action in (${CONTENT}) and ch.translation_id is not null
               then 'content' end)
          ) k(kind)
          where k.kind is not null
        ) e
        where ch.action in (${TRANSLATED}, 3, 4, 36, ${CONTENT}) and ${changesInWindow()}
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
      from totals t`,
  },
  {
    name: 'strings_awaiting_review',
    args: [...SCOPE, LANGUAGE],
    returns: `unit_id bigint, translation_id integer, project_slug text, component_slug text,
      language_code text, num_words integer, waiting_since timestamptz, days_waiting integer`,
    body: `
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
           where ch.unit_id = u.id and ch.action in (${TARGET_SAVED})),
          u.last_updated, u.timestamp, u.first_seen_at
        ) as waiting_since
      ) w
      where u.state = 20
        and p.translation_review is true
        and t.is_source is not true
        and u.deleted_at is null
        and (only_projects is null or p.slug = any(only_projects))
        and (only_components is null or c.slug = any(only_components))
        and (only_language is null or t.language_code = only_language)`,
  },
  {
    name: 'time_to_approval',
    args: [PERIOD, ...SCOPE, LANGUAGE, ...WINDOW],
    returns: `period_start date, project_slug text, language_code text, approvals bigint,
      measured bigint, median_hours numeric, average_hours numeric, max_hours numeric`,
    body: `
      select a.period_start, a.project_slug, a.language_code,
             count(*) as approvals,
             count(a.hours) as measured,
             round((percentile_cont(0.5) within group (order by a.hours))::numeric, 2)
               as median_hours,
             round(avg(a.hours), 2) as average_hours,
             round(max(a.hours), 2) as max_hours
      from (
        select ${periodOf('ch.timestamp')} as period_start, ch.project_slug, ch.language_code,
               extract(epoch from ch.timestamp - (
                 select max(s.timestamp) from weblate.changes s
                 where s.unit_id = ch.unit_id and s.action in (${TARGET_SAVED})
                   and s.timestamp <= ch.timestamp
               )) / 3600 as hours
        from weblate.changes ch
        where ch.action = 36 and ${changesInWindow()}
      ) a
      group by a.period_start, a.project_slug, a.language_code`,
  },
  {
    name: 'translation_methods',
    args: [PERIOD, ...SCOPE, LANGUAGE, ...WINDOW],
    returns: `period_start date, project_slug text, component_slug text, language_code text,
      method text, strings bigint, words bigint`,
    body: `
      select ${periodOf('ch.timestamp')} as period_start, ch.project_slug, ch.component_slug,
             ch.language_code, ${METHOD_OF_ACTION} as method,
             count(*) as strings, coalesce(sum(u.num_words), 0)::bigint as words
      from weblate.changes ch
      left join weblate.units u on u.id = ch.unit_id
      where ch.action in (${TARGET_SAVED}) and ${changesInWindow()}
      group by 1, 2, 3, 4, 5`,
  },
  {
    // Where the server sends automatically_translated (Weblate 2026 and later).
    name: 'automatic_share',
    args: [...SCOPE, LANGUAGE],
    returns: `translation_id integer, project_slug text, component_slug text,
      language_code text, translated bigint, translated_words bigint, known bigint,
      automatic bigint, automatic_words bigint`,
    body: `
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
      group by t.id, p.slug, c.slug`,
  },
  {
    // Reuses completion_forecast: its net words translated over 30 days is the pace.
    name: 'release_readiness',
    args: [
      `per text default 'component'`,
      `thresholds numeric[] default array[80, 90, 95]`,
      ...SCOPE,
      LANGUAGE,
    ],
    returns: `project_slug text, component_slug text, language_code text, threshold numeric,
      total_words bigint, translated_words bigint, translated_words_percent numeric,
      is_reached boolean, words_needed bigint, words_per_day numeric, projected_date date`,
    body: `
      with scope as (
        select f.project_slug,
               case when per = 'component' then f.component_slug end as component_slug,
               f.language_code,
               coalesce(sum(f.total_words), 0)::bigint as total_words,
               coalesce(sum(f.translated_words), 0)::bigint as translated_words,
               sum(f.words_translated_30d)::bigint as words_translated_30d
        from weblate.completion_forecast f
        where per in ('component', 'project') and ${inScope('f')}
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
               then ${TODAY} + ceil(n.words_needed * 30.0 / s.words_translated_30d)::integer
             end as projected_date
      from scope s
      cross join unnest(thresholds) as th(threshold)
      cross join lateral (
        select greatest(ceil(th.threshold * s.total_words / 100.0) - s.translated_words, 0)::bigint
          as words_needed
      ) n`,
  },
  {
    // Measured days only: estimated days have no failing count.
    name: 'failing_checks',
    args: [PERIOD, `per text default 'translation'`, ...SCOPE, LANGUAGE, ...WINDOW],
    returns: `period_start date, day date, translation_id integer, project_slug text,
      component_slug text, language_code text, translations bigint, failing bigint,
      total bigint, failing_percent numeric`,
    body: `
      with last_day as (
        select distinct on (x.translation_id, date_trunc(period_unit, x.day::timestamp))
               date_trunc(period_unit, x.day::timestamp)::date as period_start,
               x.day, x.translation_id, x.project_slug, x.component_slug, x.language_code,
               x.failing, x.total
        from weblate.translation_progress_daily x
        where x.origin = 'measured'
          and per in ('translation', 'language')
          and ${inScope('x')}
          and (since is null or x.day >= (since at time zone 'UTC')::date)
          and (until is null or x.day < (until at time zone 'UTC')::date)
        order by x.translation_id, date_trunc(period_unit, x.day::timestamp), x.day desc
      )${FAILING_SUMS}`,
  },
];

/** `weblate.<name>(<argument types>)`: the function's identity for grants and drops. */
function identity(fn: AnswerFunction): string {
  const types = fn.args.map((arg) => arg.split(' ')[1]);
  return `weblate.${fn.name}(${types.join(', ')})`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const fn of FUNCTIONS) {
    await sql`
      create function ${sql.raw(`weblate.${fn.name}(${fn.args.join(', ')})`)}
      returns table (${sql.raw(fn.returns)})
      language sql stable parallel safe as $fn$${sql.raw(fn.body)}$fn$`.execute(db);
  }
  // As 0005 does: PUBLIC may execute already; the role gets it by name too.
  await grantExecuteToReader(db, FUNCTIONS.map(identity));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const fn of [...FUNCTIONS].reverse()) {
    await sql`drop function if exists ${sql.raw(identity(fn))}`.execute(db);
  }
}

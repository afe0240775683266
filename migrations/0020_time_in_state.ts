import { type Kysely, sql } from 'kysely';

// Time in each state (issue 45): how long strings stay untranslated, need editing, wait for
// review, and take from their first translation to approval. weblate.state_spans rebuilds each
// string's states from its changes (details.state and old_state since Weblate 5.6, the action
// codes before) with the estimated history's chain rule; weblate.time_in_state sums its spans per
// period, and weblate.strings_over_target lists the strings in a state for longer than a target.
// A wait for review restarts when the waiting text is saved again, as strings_awaiting_review and
// time_to_approval measure it, so that "waiting" means one thing (docs/schema.md#state_spans).
// Frozen once merged; add a new migration.

const STATE_SPANS = `
create function weblate.state_spans(only_projects text[] default null, only_components text[] default null, only_category integer default null, only_language text default null, since timestamptz default null, until timestamptz default null)
returns table (unit_id bigint, project_slug text, component_slug text, language_code text,
  state text, entered_at timestamptz, left_at timestamptz, hours numeric, left_to text,
  evidence text, entered_by text)
language sql stable parallel safe as $fn$
  with strings as (
    select u.id, t.id as translation_id, u.state as mirrored_state, u.timestamp as created_at,
           u.first_seen_at, u.deleted_at is null and t.deleted_at is null as is_live,
           coalesce(p.translation_review, false) as has_review
    from weblate.translations t
    join weblate.components c on c.id = t.component_id
    join weblate.projects p on p.id = c.project_id
    join weblate.units u on u.translation_id = t.id
    where t.is_source is not true
      and (only_projects is null or t.project_slug = any(only_projects))
      and (only_components is null or t.component_slug = any(only_components))
      and (only_language is null or t.language_code = only_language)
      -- An array, not a subquery: the planner then expects a category's few components.
      and (only_category is null or c.category_id = any(array(
        select tr.category_id from weblate.category_tree tr where tr.ancestor_id = only_category)))
  ),
  links as (
    -- The changes that say which state their string moved into, in the order Weblate logged
    -- them; a string no change mentions, once with nulls.
    select s.*, d.change_id, d.at, d.action, d.logged_state, d.logged_before, d.own_state,
           d.action in (13, 31, 71, 73) or coalesce(d.logged_before = -1, false) as is_creation,
           row_number() over w as n,
           lead(d.logged_before) over w as next_before,
           lead(d.change_id) over w is null as is_last
    from strings s
    left join (
      select ch.unit_id, ch.id as change_id, ch.timestamp as at, ch.action, k.logged_state,
             k.logged_before,
             -- details.state since Weblate 5.6; before, what the action implies.
             coalesce(k.logged_state, case
               when ch.action = 36 then 30
               when ch.action in (37, 76) then 10
               when ch.action in (2, 5, 6, 7, 8, 9, 13, 27, 31, 59, 71, 72, 73, 77, 94)
                 then case when translate(ch.target, chr(30), '') = '' then 0 else 20 end
             end) as own_state
      from weblate.changes ch
      cross join lateral (select
        case when jsonb_typeof(ch.details -> 'state') = 'number'
          then (ch.details ->> 'state')::integer end as logged_state,
        case when jsonb_typeof(ch.details -> 'old_state') = 'number'
          then (ch.details ->> 'old_state')::integer end as logged_before
      ) k
    ) d on d.unit_id = s.id and d.own_state is not null
    window w as (partition by s.id order by d.at, d.change_id)
  ),
  elements as (
    -- Since the string was created (or first seen): the state its first change found, or,
    -- without any change, its state now.
    select l.id, l.translation_id, l.has_review, l.is_live, 0::bigint as n,
           case when l.change_id is null then l.mirrored_state
                when l.logged_before >= 0 then l.logged_before
                when l.logged_state is null and l.action = 5 then 0 end as state,
           case when l.created_at <= coalesce(l.at, l.created_at) then l.created_at
                when l.first_seen_at <= coalesce(l.at, l.first_seen_at) then l.first_seen_at
           end as at,
           case when l.created_at <= coalesce(l.at, l.created_at) then 'unit created'
                else 'first seen' end as entered_by,
           case when l.change_id is null then 'unit state'
                when l.logged_before >= 0 then 'details.state' else 'action codes' end as evidence,
           false as is_save
    from links l
    where l.n = 1 and not coalesce(l.is_creation, false) and (l.change_id is not null or l.is_live)
    union all
    select l.id, l.translation_id, l.has_review, l.is_live, l.n, a.state_after, l.at,
           case when l.logged_state is not null and a.state_after <> l.logged_state
                  then 'unlogged move'
                when l.is_creation then 'string added'
                else 'change' end,
           case when l.logged_state is not null then 'details.state' else 'action codes' end,
           l.action in (2, 5, 6, 7, 8, 9, 27, 59, 72, 77, 94)
    from links l
    -- As the estimated history (docs/history.md): a change left its string in the state the
    -- next change found it in; the last one, in the mirrored state.
    cross join lateral (
      select case when l.is_last and l.is_live then l.mirrored_state
                  when not l.is_last and l.next_before >= 0 then l.next_before
                  else l.own_state end as state_after
    ) a
    where l.change_id is not null
  ),
  named as (
    select e.*, case
             when e.state = 0 then 'untranslated'
             when e.state between 10 and 19 then 'needs editing'
             when e.state = 20 and e.has_review then 'waiting for review'
             when e.state = 20 then 'translated'
             when e.state = 30 then 'approved'
             when e.state = 100 then 'read-only'
             else 'state ' || e.state end as label,
           lag(case when e.state between 10 and 19 then 10 else e.state end)
             over (partition by e.id order by e.at, e.n) as previous_state
    from elements e
    where e.state is not null and e.at is not null
  ),
  spans as (
    -- A span starts where the state changes; where a waiting string's text is saved again (its
    -- wait for review restarts, as strings_awaiting_review and time_to_approval count it); and
    -- where a move was not logged, to show that its start is an estimate.
    select n.*, lead(n.at) over w as left_at, lead(n.label) over w as left_to
    from named n
    where n.previous_state is distinct from
            (case when n.state between 10 and 19 then 10 else n.state end)
       or (n.label = 'waiting for review' and n.is_save)
       or n.entered_by = 'unlogged move'
    window w as (partition by n.id order by n.at, n.n)
  ),
  composite as (
    select s.id, s.translation_id, 'first translation to approval' as label,
           min(s.at) filter (where s.state in (20, 30)) as entered_at,
           min(s.at) filter (where s.state = 30) as left_at,
           (array_agg(s.evidence order by s.at, s.n) filter (where s.state in (20, 30)))[1]
             as evidence,
           (array_agg(s.entered_by order by s.at, s.n) filter (where s.state in (20, 30)))[1]
             as entered_by,
           s.is_live
    from spans s
    where s.has_review
    group by s.id, s.translation_id, s.is_live
  ),
  every_span as (
    select s.id, s.translation_id, s.label, s.at as entered_at, s.left_at, s.left_to,
           s.evidence, s.entered_by, s.is_live
    from spans s
    union all
    select c.id, c.translation_id, c.label, c.entered_at, c.left_at,
           case when c.left_at is not null then 'approved' end, c.evidence, c.entered_by,
           c.is_live
    from composite c
    where c.entered_at is not null
  )
  select a.id, t.project_slug, t.component_slug, t.language_code, a.label, a.entered_at,
         a.left_at, round(extract(epoch from a.left_at - a.entered_at) / 3600, 2), a.left_to,
         a.evidence, a.entered_by
  from every_span a
  join weblate.translations t on t.id = a.translation_id
  where (a.left_at is not null or a.is_live)
    and (since is null or coalesce(a.left_at, a.entered_at) >= since)
    and (until is null or coalesce(a.left_at, a.entered_at) < until)
$fn$`;

const TIME_IN_STATE = `
create function weblate.time_in_state(period_unit text default 'week', only_projects text[] default null, only_components text[] default null, only_category integer default null, only_language text default null, since timestamptz default null, until timestamptz default null)
returns table (period_start date, scope text, project_slug text, component_slug text,
  language_code text, state text, spans bigint, ended bigint, still_open bigint,
  median_hours_in_state numeric, p90_hours_in_state numeric, by_details bigint,
  by_action_codes bigint, by_unit_state bigint, estimated_starts bigint)
language sql stable parallel safe as $fn$
  select g.period_start, g.scope, g.project_slug, g.component_slug, g.language_code, g.state,
         g.spans, g.ended, g.spans - g.ended, round(g.hours[1]::numeric, 2),
         round(g.hours[2]::numeric, 2), g.by_details, g.by_action_codes, g.by_unit_state,
         g.estimated_starts
  from (
    select s.period_start,
           case grouping(s.project_slug, s.component_slug, s.language_code)
             when 0 then 'component and language' when 1 then 'component'
             when 2 then 'project and language' when 3 then 'project' when 6 then 'language'
             else 'all'
           end as scope,
           s.project_slug, s.component_slug, s.language_code, s.state,
           count(*) as spans, count(s.hours) as ended,
           -- One sort per group for both: the ended spans' hours (nulls, still open, left out).
           percentile_cont(array[0.5, 0.9]) within group (order by s.hours) as hours,
           sum(s.is_details) as by_details, sum(s.is_coded) as by_action_codes,
           sum(s.is_unit_state) as by_unit_state, sum(s.is_estimated) as estimated_starts
    from (
      -- Flags rather than texts: narrower rows to sort for every grouping set.
      select date_trunc(period_unit, coalesce(x.left_at, x.entered_at) at time zone 'UTC')::date
               as period_start,
             x.project_slug, x.component_slug, x.language_code, x.state,
             extract(epoch from x.left_at - x.entered_at) / 3600 as hours,
             (x.evidence = 'details.state')::integer as is_details,
             (x.evidence = 'action codes')::integer as is_coded,
             (x.evidence = 'unit state')::integer as is_unit_state,
             (x.entered_by in ('first seen', 'unlogged move'))::integer as is_estimated
      from weblate.state_spans(only_projects, only_components, only_category, only_language,
                               since, until) x
    ) s
    group by s.period_start, s.state, grouping sets (
      (s.project_slug, s.component_slug, s.language_code),
      (s.project_slug, s.component_slug),
      (s.project_slug, s.language_code),
      (s.project_slug),
      (s.language_code),
      ())
  ) g
$fn$`;

const STRINGS_OVER_TARGET = `
create function weblate.strings_over_target(in_state text default 'waiting for review', target interval default '7 days', only_projects text[] default null, only_components text[] default null, only_category integer default null, only_language text default null)
returns table (unit_id bigint, project_slug text, component_slug text, language_code text,
  source text[], state text, since timestamptz, days_in_state integer, hours_in_state numeric,
  evidence text, entered_by text, web_url text)
language sql stable parallel safe as $fn$
  select s.unit_id, s.project_slug, s.component_slug, s.language_code, u.source, s.state,
         s.entered_at,
         floor(extract(epoch from now() - s.entered_at) / 86400)::integer,
         round(extract(epoch from now() - s.entered_at) / 3600, 2),
         s.evidence, s.entered_by, u.web_url
  from weblate.state_spans(only_projects, only_components, only_category, only_language) s
  -- By index, string by string: only the strings over the target need their texts.
  cross join lateral (
    select u.source, u.web_url from weblate.units u where u.id = s.unit_id offset 0
  ) u
  where s.left_at is null and s.state = in_state
    and s.entered_at < now() - strings_over_target.target
  order by s.entered_at, s.unit_id
$fn$`;

// They hold no people: granted like the other answers.
const GRANT = `
do $$
begin
  if exists (select from pg_roles where rolname = 'weblate_reader') then
    grant execute on function weblate.state_spans(text[], text[], integer, text, timestamptz, timestamptz), weblate.time_in_state(text, text[], text[], integer, text, timestamptz, timestamptz), weblate.strings_over_target(text, interval, text[], text[], integer, text) to weblate_reader;
  end if;
exception
  when undefined_object then
    null; -- dropped meanwhile by another database's rollback: nothing to grant to
end
$$`;

const UP: readonly string[] = [STATE_SPANS, TIME_IN_STATE, STRINGS_OVER_TARGET, GRANT];

const DOWN: readonly string[] = [
  'drop function if exists weblate.strings_over_target(text, interval, text[], text[], integer, text)',
  'drop function if exists weblate.time_in_state(text, text[], text[], integer, text, timestamptz, timestamptz)',
  'drop function if exists weblate.state_spans(text[], text[], integer, text, timestamptz, timestamptz)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

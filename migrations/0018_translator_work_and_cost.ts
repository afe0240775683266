import { type Kysely, sql } from 'kysely';

// Effort and cost as Weblate 2026.10.1's reports compute them (weblate/trans/
// translator_analysis.py, generate_cost_estimate in weblate/trans/views/reports.py): translator
// work per user-day with its medians and percentiles, and the cost of the strings left by
// match bucket. Per-person figures are for the role weblate_effort_reader only, which this
// migration creates as 0003 creates weblate_reader; totals are everyone's. docs/schema.md
// ("Effort and cost") says what each answer leaves out. Frozen once merged; add a new migration.

const LINEAR_PERCENTILE = `
create function weblate.linear_percentile(sorted_values bigint[], percent numeric)
returns numeric language sql immutable parallel safe as $fn$
  -- Weblate's percentile (translator_analysis.py), linear as percentile_cont, but exact.
  select trim_scale(sorted_values[r.low + 1] * (1 - r.weight)
                    + sorted_values[least(r.low + 2, r.n)] * r.weight)
  from (
    select p.n, floor(p.at)::integer as low, p.at - floor(p.at) as weight
    from (select cardinality(sorted_values) as n,
                 (cardinality(sorted_values) - 1) * percent / 100 as at) p
  ) r
  where r.n > 0
$fn$`;

const MEMORY_SIMILARITY = `
create function weblate.memory_similarity(a text, b text)
returns integer language plpgsql immutable strict parallel safe as $fn$
declare
  x text[] := string_to_array(a, null);
  y text[] := string_to_array(b, null);
  lx integer;
  ly integer;
  w integer;
  chars text[] := '{}';
  masks bigint[] := '{}';
  s bigint[];
  v bigint;
  full_mask bigint;
  p integer;
  k integer;
  u bigint;
  carry bigint;
  total bigint;
  ones integer := 0;
begin
  -- Weblate's Comparer: rapidfuzz's QRatio, in code points. The LCS is Hyyro's bit-parallel
  -- one, in words of 62 bits so that no sum overflows a bigint.
  if a = '' or b = '' then return 0; end if;
  if a = b then return 100; end if;
  if cardinality(x) > cardinality(y) then
    x := y;
    y := string_to_array(a, null);
  end if;
  lx := cardinality(x);
  ly := cardinality(y);
  w := (lx + 61) / 62;
  for i in 1..lx loop
    p := array_position(chars, x[i]);
    if p is null then
      chars := chars || x[i];
      p := cardinality(chars);
      masks := masks || array_fill(0::bigint, array[w]);
    end if;
    k := (p - 1) * w + (i - 1) / 62 + 1;
    masks[k] := masks[k] | (1::bigint << ((i - 1) % 62));
  end loop;
  if w = 1 then
    full_mask := (1::bigint << lx) - 1;
    v := full_mask;
    for j in 1..ly loop
      p := array_position(chars, y[j]);
      if p is not null then
        u := v & masks[p];
        v := ((v + u) | (v - u)) & full_mask;
      end if;
    end loop;
    ones := bit_count(v::bit(64))::integer;
  else
    s := array_fill(4611686018427387903::bigint, array[w]);
    if lx % 62 <> 0 then s[w] := (1::bigint << (lx % 62)) - 1; end if;
    for j in 1..ly loop
      p := array_position(chars, y[j]);
      continue when p is null;
      carry := 0;
      for i in 1..w loop
        u := s[i] & masks[(p - 1) * w + i];
        total := s[i] + u + carry;
        carry := total >> 62;
        s[i] := (total & 4611686018427387903) | (s[i] - u);
      end loop;
    end loop;
    if lx % 62 <> 0 then s[w] := s[w] & ((1::bigint << (lx % 62)) - 1); end if;
    for i in 1..w loop
      ones := ones + bit_count(s[i]::bit(64))::integer;
    end loop;
  end if;
  return trunc((1.0::float8 - ((ly - lx + 2 * ones)::float8 / (lx + ly)::float8)) * 100.0::float8)::integer;
end
$fn$`;

const TRANSLATOR_WORK_DAYS = `
create function weblate.translator_work_days(since timestamptz, until timestamptz,
  only_projects text[] default null, only_components text[] default null,
  only_category integer default null, only_language text default null,
  min_changes integer default 5, max_changes integer default 1000, max_words integer default 10000)
returns table (day date, username text, strings bigint, words bigint, is_included boolean,
  is_author_verified boolean)
language sql stable parallel safe as $fn$
  select d.day, d.username, d.strings, d.words,
         d.strings between min_changes and max_changes and d.words <= max_words,
         d.is_author_verified
  from (
    select (ch.timestamp at time zone 'UTC')::date as day, ch.author_name as username,
           count(*) as strings, coalesce(sum(u.num_words), 0)::bigint as words,
           bool_and(jsonb_typeof(p.raw -> 'is_active') = 'boolean'
                    and jsonb_typeof(p.raw -> 'is_bot') = 'boolean') is true as is_author_verified
    from weblate.changes ch
    join weblate.units u on u.id = ch.unit_id and u.deleted_at is null
    left join weblate.users p on p.username = ch.author_name
    -- Weblate counts active human authors; one whose record does not say is counted.
    where ch.action in (2, 5, 7)
      and ch.author_name is not null
      and (p.raw -> 'is_active') is distinct from 'false'::jsonb
      and (p.raw -> 'is_bot') is distinct from 'true'::jsonb
      and (since is null or ch.timestamp >= since)
      and (until is null or ch.timestamp < until)
      and (only_projects is null or ch.project_slug = any(only_projects))
      and (only_components is null or ch.component_slug = any(only_components))
      and (only_language is null or ch.language_code = only_language)
      and (only_category is null or ch.component_id in (
        select c.id from weblate.components c
        join weblate.category_tree k on k.category_id = c.category_id
        where k.ancestor_id = only_category))
    group by 1, 2
  ) d
$fn$`;

const TRANSLATOR_WORK = `
create function weblate.translator_work(since timestamptz, until timestamptz,
  only_projects text[] default null, only_components text[] default null,
  only_category integer default null, only_language text default null,
  min_changes integer default 5, max_changes integer default 1000, max_words integer default 10000)
returns table (user_days_included bigint, user_days_excluded bigint,
  strings_median numeric, strings_mean numeric, strings_p75 numeric, strings_p90 numeric,
  words_median numeric, words_mean numeric, words_p75 numeric, words_p90 numeric,
  translators bigint, authors_unverified bigint, changes_without_string bigint)
language sql stable parallel safe as $fn$
  with events as (
    -- translator_work_days' changes, with those whose string is gone, to count them.
    select (ch.timestamp at time zone 'UTC')::date as day, ch.author_name as username,
           u.num_words, u.id is not null as has_string,
           jsonb_typeof(p.raw -> 'is_active') = 'boolean'
             and jsonb_typeof(p.raw -> 'is_bot') = 'boolean' as is_author_verified
    from weblate.changes ch
    left join weblate.units u on u.id = ch.unit_id and u.deleted_at is null
    left join weblate.users p on p.username = ch.author_name
    where ch.action in (2, 5, 7)
      and ch.unit_id is not null
      and ch.author_name is not null
      and (p.raw -> 'is_active') is distinct from 'false'::jsonb
      and (p.raw -> 'is_bot') is distinct from 'true'::jsonb
      and (since is null or ch.timestamp >= since)
      and (until is null or ch.timestamp < until)
      and (only_projects is null or ch.project_slug = any(only_projects))
      and (only_components is null or ch.component_slug = any(only_components))
      and (only_language is null or ch.language_code = only_language)
      and (only_category is null or ch.component_id in (
        select c.id from weblate.components c
        join weblate.category_tree k on k.category_id = c.category_id
        where k.ancestor_id = only_category))
  ), days as (
    select e.day, e.username, count(*) as strings,
           coalesce(sum(e.num_words), 0)::bigint as words,
           bool_and(e.is_author_verified) is true as is_author_verified
    from events e where e.has_string
    group by e.day, e.username
  ), judged as (
    select d.*, d.strings between min_changes and max_changes and d.words <= max_words
             as is_included
    from days d
  )
  select count(*) filter (where j.is_included),
         count(*) filter (where not j.is_included),
         weblate.linear_percentile(array_agg(j.strings order by j.strings)
           filter (where j.is_included), 50),
         trim_scale(avg(j.strings) filter (where j.is_included)),
         weblate.linear_percentile(array_agg(j.strings order by j.strings)
           filter (where j.is_included), 75),
         weblate.linear_percentile(array_agg(j.strings order by j.strings)
           filter (where j.is_included), 90),
         weblate.linear_percentile(array_agg(j.words order by j.words)
           filter (where j.is_included), 50),
         trim_scale(avg(j.words) filter (where j.is_included)),
         weblate.linear_percentile(array_agg(j.words order by j.words)
           filter (where j.is_included), 75),
         weblate.linear_percentile(array_agg(j.words order by j.words)
           filter (where j.is_included), 90),
         count(distinct j.username) filter (where j.is_included),
         count(distinct j.username) filter (where not j.is_author_verified),
         (select count(*) from events e where not e.has_string)
  from judged j
$fn$`;

const TRANSLATOR_WORK_BY_PERSON = `
create function weblate.translator_work_by_person(since timestamptz, until timestamptz,
  only_projects text[] default null, only_components text[] default null,
  only_category integer default null, only_language text default null,
  min_changes integer default 5, max_changes integer default 1000, max_words integer default 10000)
returns table (username text, user_days_included bigint, user_days_excluded bigint,
  strings_median numeric, strings_mean numeric, strings_p75 numeric, strings_p90 numeric,
  words_median numeric, words_mean numeric, words_p75 numeric, words_p90 numeric,
  is_author_verified boolean)
language sql stable parallel safe as $fn$
  select d.username,
         count(*) filter (where d.is_included),
         count(*) filter (where not d.is_included),
         weblate.linear_percentile(array_agg(d.strings order by d.strings)
           filter (where d.is_included), 50),
         trim_scale(avg(d.strings) filter (where d.is_included)),
         weblate.linear_percentile(array_agg(d.strings order by d.strings)
           filter (where d.is_included), 75),
         weblate.linear_percentile(array_agg(d.strings order by d.strings)
           filter (where d.is_included), 90),
         weblate.linear_percentile(array_agg(d.words order by d.words)
           filter (where d.is_included), 50),
         trim_scale(avg(d.words) filter (where d.is_included)),
         weblate.linear_percentile(array_agg(d.words order by d.words)
           filter (where d.is_included), 75),
         weblate.linear_percentile(array_agg(d.words order by d.words)
           filter (where d.is_included), 90),
         bool_and(d.is_author_verified)
  from weblate.translator_work_days(since, until, only_projects, only_components, only_category,
    only_language, min_changes, max_changes, max_words) d
  group by d.username
$fn$`;

const COST_ESTIMATE = `
create function weblate.cost_estimate(only_projects text[] default null,
  only_components text[] default null, only_category integer default null,
  only_language text default null, tm_threshold integer default 80,
  base_rate numeric default 1, rate_repetition numeric default 0, rate_tm_100 numeric default 0,
  rate_tm_fuzzy numeric default 50, rate_needs_editing numeric default 50,
  rate_new numeric default 100)
returns table (bucket text, "position" integer, strings bigint, words bigint, chars bigint,
  rate numeric, cost numeric, approximate boolean, approximation text)
language sql stable parallel safe as $fn$
  with scope as materialized (
    select t.id as translation_id, t.language_code, c.source_language_code, c.project_id,
           coalesce((p.raw ->> 'use_shared_tm')::boolean, true) as uses_shared_tm
    from weblate.translations t
    join weblate.components c on c.id = t.component_id and c.deleted_at is null
    join weblate.projects p on p.id = c.project_id
    where t.deleted_at is null and t.is_source is not true
      and (only_projects is null or t.project_slug = any(only_projects))
      and (only_components is null or t.component_slug = any(only_components))
      and (only_language is null or t.language_code = only_language)
      and (only_category is null or c.category_id in (
        select k.category_id from weblate.category_tree k where k.ancestor_id = only_category))
  ), remaining as materialized (
    -- Weblate walks the strings by priority, then position, and prices the first of each
    -- source; the later ones are repetitions. It leaves ties undefined; the mirror takes ids.
    select w.*, not w.is_repetition and w.forms = 1 and w.source_text <> '' as is_priced
    from (
      select u.id, s.language_code, s.source_language_code, s.project_id, s.uses_shared_tm,
             u.state, u.words, u.forms, u.source_text, u.context,
             row_number() over (
               partition by s.source_language_code, s.language_code, u.source_text, u.context
               order by u.priority desc nulls last, u."position" nulls last, u.id) > 1
               as is_repetition
      from scope s
      cross join lateral (
        select x.id, x.state, coalesce(x.num_words, 0) as words, cardinality(x.source) as forms,
               array_to_string(x.source, E'\\x1e\\x1e') as source_text,
               coalesce(x.context, '') as context, x.priority, x."position"
        from weblate.units x
        where x.translation_id = s.translation_id and x.deleted_at is null and x.state < 20
        offset 0
      ) u
    ) w
  ), memory as materialized (
    -- Weblate's memory as far as the mirror holds it: the strings of the scope's projects
    -- and languages that Weblate keeps as active entries (docs/schema.md, cost_estimate).
    select t.language_code, t.source_language_code, t.project_id, t.in_project_tm,
           t.in_shared_tm, m.source_text, m.context
    from (
      select t.id, t.language_code, c.source_language_code, c.project_id,
             coalesce((c.raw ->> 'contribute_project_tm')::boolean, true) as in_project_tm,
             coalesce((p.raw ->> 'contribute_shared_tm')::boolean, true)
               and c.restricted is not true as in_shared_tm,
             p.translation_review is true as is_reviewed
      from weblate.translations t
      join weblate.components c on c.id = t.component_id
      join weblate.projects p on p.id = c.project_id
      where t.deleted_at is null and c.deleted_at is null
        and t.is_source is not true and c.is_glossary is not true
        and c.project_id in (select s.project_id from scope s)
        and t.language_code in (select s.language_code from scope s)
      offset 0
    ) t
    cross join lateral (
      select array_to_string(x.source, E'\\x1e\\x1e') as source_text,
             coalesce(x.context, '') as context
      from weblate.units x
      where x.translation_id = t.id and x.deleted_at is null
        and case when t.is_reviewed then x.state = 30 else x.state >= 20 end
        and exists (select from unnest(x.source) f where f <> '')
        and exists (select from unnest(x.target) f where f <> '')
      offset 0
    ) m
  ), sources as materialized (
    -- Each memory source once per project, and once for the shared memory (no project): the
    -- same text is in many projects' memory, which a join per entry would multiply.
    select m.project_id, m.source_language_code, m.language_code, m.source_text,
           bool_or(m.context = '') as has_plain,
           array_agg(distinct m.context) filter (where m.context <> '') as contexts
    from memory m where m.in_project_tm
    group by m.project_id, m.source_language_code, m.language_code, m.source_text
    union all
    select null, m.source_language_code, m.language_code, m.source_text,
           bool_or(m.context = ''),
           array_agg(distinct m.context) filter (where m.context <> '')
    from memory m where m.in_shared_tm
    group by m.source_language_code, m.language_code, m.source_text
  ), same_source as materialized (
    -- An entry with the very source: 100, or 95 under a different context (Weblate's penalty).
    select z.id, max(z.quality) as quality
    from (
      select r.id, case when m.has_plain or r.context = any(m.contexts) then 100 else 95 end
               as quality
      from remaining r
      join sources m on m.project_id = r.project_id
        and m.source_language_code = r.source_language_code
        and m.language_code = r.language_code and m.source_text = r.source_text
      where r.is_priced
      union all
      select r.id, case when m.has_plain or r.context = any(m.contexts) then 100 else 95 end
      from remaining r
      join sources m on m.source_language_code = r.source_language_code
        and m.language_code = r.language_code and m.source_text = r.source_text
      where r.is_priced and r.uses_shared_tm and m.project_id is null
    ) z
    group by z.id
  ), candidates as materialized (
    -- Similar sources of the same project for the strings not settled yet, within the length
    -- at which QRatio can reach the threshold.
    select r.id, r.source_text as a, m.source_text as b,
           m.context not in ('', r.context) as is_other_context
    from remaining r
    join memory m on m.project_id = r.project_id
      and m.source_language_code = r.source_language_code and m.language_code = r.language_code
    where r.is_priced and m.source_text <> r.source_text
      and (m.in_project_tm or (r.uses_shared_tm and m.in_shared_tm))
      and r.id not in (select x.id from same_source x where x.quality >= tm_threshold)
      and 200 * least(char_length(r.source_text), char_length(m.source_text))
          >= tm_threshold * (char_length(r.source_text) + char_length(m.source_text))
  ), scored as materialized (
    -- Each pair of texts once, however many strings and languages share it.
    select weblate.memory_similarity(c.a, c.b) as quality,
           array_agg(c.id) filter (where not c.is_other_context) as ids,
           array_agg(c.id) filter (where c.is_other_context) as other_context_ids
    from candidates c
    group by c.a, c.b
  ), sorted as (
    select case
             when bool_or(z.is_repetition) then 'repetition'
             when max(z.quality) >= 100 then 'tm_100'
             when max(z.quality) >= tm_threshold then 'tm_fuzzy'
             when max(z.state) in (10, 11, 12) then 'needs_editing'
             else 'new'
           end as bucket,
           max(z.words) as words, max(z.chars) as chars
    from (
      select r.id, r.is_repetition, r.state, r.words, char_length(r.source_text) as chars,
             null::integer as quality
      from remaining r
      union all
      select x.id, null, null, null, null, x.quality from same_source x
      union all
      select unnest(q.ids), null, null, null, null, q.quality from scored q
      union all
      select unnest(q.other_context_ids), null, null, null, null,
             round(q.quality * 0.95::float8)::integer
      from scored q
    ) z
    group by z.id
  ), buckets as (
    select b.bucket, b."position", count(s.bucket) as strings,
           coalesce(sum(s.words), 0)::bigint as words, coalesce(sum(s.chars), 0)::bigint as chars,
           b.rate, b.approximation
    from (values
      ('repetition', 1, rate_repetition, null),
      ('tm_100', 2, rate_tm_100, 'Exact matches among the translated strings of the scope''s projects and languages that Weblate''s memory holds as active entries; Weblate''s memory also holds earlier translations, deleted strings, other projects and imported files, and matches plural strings form by form: it finds at least these.'),
      ('tm_fuzzy', 3, rate_tm_fuzzy, 'Weblate''s similarity (rapidfuzz QRatio, context penalty 0.95) against the translated strings of the same project, and same-source entries of projects sharing their memory; Weblate searches its whole memory, so it may find more or better matches.'),
      ('needs_editing', 4, rate_needs_editing, 'What the mirror finds no memory match for; Weblate may price some of these as matches (see tm_100 and tm_fuzzy).'),
      ('new', 5, rate_new, 'What the mirror finds no memory match for; Weblate may price some of these as matches (see tm_100 and tm_fuzzy).')
    ) as b(bucket, "position", rate, approximation)
    left join sorted s on s.bucket = b.bucket
    group by b.bucket, b."position", b.rate, b.approximation
  )
  select b.bucket, b."position", b.strings, b.words, b.chars, b.rate,
         trim_scale(b.words * base_rate * b.rate * 0.01), b.approximation is not null,
         b.approximation
  from buckets b
  union all
  select 'total', 6, sum(b.strings)::bigint, sum(b.words)::bigint, sum(b.chars)::bigint, null,
         trim_scale(sum(b.words * base_rate * b.rate * 0.01)),
         count(distinct b.rate) filter (where b.bucket <> 'repetition') > 1,
         case when count(distinct b.rate) filter (where b.bucket <> 'repetition') > 1
           then 'The strings, words and characters are Weblate''s; the cost is not where the buckets after repetition are priced differently and split otherwise than Weblate''s (see them).'
         end
  from buckets b
  order by 2
$fn$`;

const PRIVATE = `
revoke execute on function weblate.translator_work_days(timestamptz, timestamptz, text[], text[], integer, text, integer, integer, integer),
  weblate.translator_work_by_person(timestamptz, timestamptz, text[], text[], integer, text, integer, integer, integer) from public`;

/** The totals and their helpers, to weblate_reader by name (as 0010 grants its answers). */
const GRANT_READER = `
do $$
begin
  if exists (select from pg_roles where rolname = 'weblate_reader') then
    grant execute on function weblate.linear_percentile(bigint[], numeric),
      weblate.memory_similarity(text, text), weblate.translator_work(timestamptz, timestamptz, text[], text[], integer, text, integer, integer, integer),
      weblate.cost_estimate(text[], text[], integer, text, integer, numeric, numeric, numeric, numeric, numeric, numeric) to weblate_reader;
  end if;
exception
  when undefined_object then
    null; -- dropped meanwhile by another database's rollback: nothing to grant to
end
$$`;

/**
 * The per-person role: weblate_reader's privileges (as a member of it) and the per-person
 * functions. Roles are the server's: other databases may create or drop it at once, so this
 * retries as 0003 does, and a login that may not create roles leaves it to an administrator.
 */
const EFFORT_ROLE = `
do $$
begin
  for attempt in 1..5 loop
    begin
      if not exists (select from pg_roles where rolname = 'weblate_reader') then
        raise warning 'weblate_effort_reader not set up: weblate_reader is missing'
          using hint = 'Create both roles as an administrator (docs/schema.md, "weblate_effort_reader"), then run the grants listed there.';
        return;
      end if;
      if not exists (select from pg_roles where rolname = 'weblate_effort_reader') then
        create role weblate_effort_reader nologin;
      end if;
      grant weblate_reader to weblate_effort_reader;
      grant execute on function weblate.translator_work_days(timestamptz, timestamptz, text[], text[], integer, text, integer, integer, integer),
        weblate.translator_work_by_person(timestamptz, timestamptz, text[], text[], integer, text, integer, integer, integer) to weblate_effort_reader;
      return;
    exception
      when duplicate_object or unique_violation or undefined_object then
        null; -- created or dropped concurrently from another database: look again
      when insufficient_privilege then
        raise warning 'weblate_effort_reader not set up: %', sqlerrm
          using hint = 'Create the role as an administrator (docs/schema.md, "weblate_effort_reader"), then run the grants listed there.';
        return;
    end;
  end loop;
  raise exception 'could not set up role weblate_effort_reader';
end
$$`;

const UP: readonly string[] = [
  LINEAR_PERCENTILE,
  MEMORY_SIMILARITY,
  TRANSLATOR_WORK_DAYS,
  TRANSLATOR_WORK,
  TRANSLATOR_WORK_BY_PERSON,
  COST_ESTIMATE,
  PRIVATE,
  GRANT_READER,
  EFFORT_ROLE,
];

/**
 * The role goes with its last database: only when no other database holds privileges for it
 * and no role is a member of it, as 0003 drops weblate_reader (its membership goes with it).
 */
const DROP_EFFORT_ROLE = `
do $$
begin
  if exists (
    select from pg_auth_members m join pg_roles r on r.oid = m.roleid
    where r.rolname = 'weblate_effort_reader'
  ) then
    return;
  end if;
  drop role if exists weblate_effort_reader;
exception
  when dependent_objects_still_exist or insufficient_privilege or undefined_object then
    null; -- still used elsewhere on the server, or not ours to drop
  when others then
    raise warning 'weblate_effort_reader kept: %', sqlerrm;
end
$$`;

const DOWN: readonly string[] = [
  'drop function weblate.cost_estimate(text[], text[], integer, text, integer, numeric, numeric, numeric, numeric, numeric, numeric)',
  'drop function weblate.translator_work_by_person(timestamptz, timestamptz, text[], text[], integer, text, integer, integer, integer)',
  'drop function weblate.translator_work(timestamptz, timestamptz, text[], text[], integer, text, integer, integer, integer)',
  'drop function weblate.translator_work_days(timestamptz, timestamptz, text[], text[], integer, text, integer, integer, integer)',
  'drop function weblate.memory_similarity(text, text)',
  'drop function weblate.linear_percentile(bigint[], numeric)',
  DROP_EFFORT_ROLE,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

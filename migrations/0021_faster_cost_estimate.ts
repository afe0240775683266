import { type Kysely, sql } from 'kysely';

// The cost estimate's fuzzy search, faster: each memory text's bit masks are built once for
// all the texts it is compared with, and a pair stops as soon as it cannot reach the
// threshold (docs/performance.md, "Planner statistics on the embedded database, and the cost
// estimate's fuzzy search"). The figures are 0018's. Frozen once merged; add a new migration.

const MEMORY_SIMILARITIES = `
create function weblate.memory_similarities(a text, bs text[], at_least integer)
returns integer[] language plpgsql immutable strict parallel safe as $fn$
declare
  x text[] := string_to_array(a, null);
  lx integer := cardinality(x);
  w integer := (lx + 61) / 62;
  chars text[] := '{}';
  masks bigint[] := '{}';
  b text;
  y text[];
  ly integer;
  s bigint[];
  v bigint;
  full_mask bigint;
  p integer;
  k integer;
  u bigint;
  carry bigint;
  total bigint;
  ones integer;
  result integer[] := '{}';
  bound integer;
begin
  -- memory_similarity(a, b) for each b of bs, in order, or null where it is below at_least:
  -- a's bit masks are built once, and a pair stops once its LCS cannot reach at_least.
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
  if w = 1 then full_mask := (1::bigint << lx) - 1; end if;
  foreach b in array bs loop
    if a = '' or b = '' then
      result := result || 0;
      continue;
    end if;
    if a = b then
      result := result || 100;
      continue;
    end if;
    y := string_to_array(b, null);
    ly := cardinality(y);
    ones := 0;
    -- A quality of at_least needs 200 * LCS >= at_least * (lx + ly), give or take the
    -- rounding of the float formula: bound keeps one point of margin.
    bound := (at_least - 1) * (lx + ly);
    if w = 1 then
      v := full_mask;
      for j in 1..ly loop
        p := array_position(chars, y[j]);
        if p is not null then
          u := v & masks[p];
          v := ((v + u) | (v - u)) & full_mask;
        end if;
        if j % 4 = 0 and 200 * (lx - bit_count(v::bit(64))::integer + ly - j) < bound then
          ones := -1;
          exit;
        end if;
      end loop;
      if ones < 0 then
        result := result || null::integer;
        continue;
      end if;
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
    -- ones = lx - LCS: the indel distance is ly - lx + 2 * ones.
    result := result || trunc((1.0::float8 - ((ly - lx + 2 * ones)::float8 / (lx + ly)::float8)) * 100.0::float8)::integer;
  end loop;
  return result;
end
$fn$`;

const COST_ESTIMATE = `
create or replace function weblate.cost_estimate(only_projects text[] default null,
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
    -- Each pair of texts once, however many strings and languages share it (their ids ride
    -- along as JSON, so that no join of pairs is left to the planner's guess), and each
    -- text's bit masks once for all its partners; the pairs below the threshold are dropped.
    select x.quality, x.ids, x.other_context_ids
    from (
      select p.a, array_agg(p.b) as bs, array_agg(p.ids) as ids,
             array_agg(p.other_context_ids) as other_context_ids
      from (
        select c.a, c.b,
               coalesce(jsonb_agg(c.id) filter (where not c.is_other_context), '[]') as ids,
               coalesce(jsonb_agg(c.id) filter (where c.is_other_context), '[]')
                 as other_context_ids
        from candidates c
        group by c.a, c.b
      ) p
      group by p.a
    ) g
    cross join lateral unnest(g.bs, g.ids, g.other_context_ids,
                              weblate.memory_similarities(g.a, g.bs, tm_threshold))
      as x(b, ids, other_context_ids, quality)
    where x.quality >= tm_threshold
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
      select jsonb_array_elements_text(q.ids)::bigint, null, null, null, null, q.quality
      from scored q
      union all
      select jsonb_array_elements_text(q.other_context_ids)::bigint, null, null, null, null,
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

/** 0018's, for the way back. */
const COST_ESTIMATE_0018 = `
create or replace function weblate.cost_estimate(only_projects text[] default null,
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

const GRANT_READER = `
do $$
begin
  if exists (select from pg_roles where rolname = 'weblate_reader') then
    grant execute on function weblate.memory_similarities(text, text[], integer) to weblate_reader;
  end if;
exception
  when undefined_object then
    null; -- dropped meanwhile by another database's rollback: nothing to grant to
end
$$`;

const UP: readonly string[] = [MEMORY_SIMILARITIES, COST_ESTIMATE, GRANT_READER];

const DOWN: readonly string[] = [
  COST_ESTIMATE_0018,
  'drop function weblate.memory_similarities(text, text[], integer)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

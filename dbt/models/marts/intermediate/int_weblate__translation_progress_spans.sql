-- weblate.translation_progress_spans(), row for row: each translation's progress history as
-- spans of UTC days, from its measured statistics snapshots (the last of each day, holding until
-- the next) and, before the first, the estimates of weblate-mirror backfill. A live
-- translation's last span holds until the marts' today; a deleted one's ends the day before it
-- was marked deleted.
{%- set counts = ['total', 'total_words', 'translated', 'translated_words', 'fuzzy', 'fuzzy_words', 'approved', 'approved_words'] %}

with scope as (
    select t.id as translation_id, c.project_id, p.slug as project_slug, c.id as component_id,
           c.slug as component_slug, t.language_code,
           {{ weblate_mirror_utc_date('t.deleted_at') }} as deleted_day
    from {{ ref('base_weblate__translations') }} as t
    join {{ ref('base_weblate__components') }} as c on c.id = t.component_id
    join {{ ref('base_weblate__projects') }} as p on p.id = c.project_id
    where t.is_source is not true
),

snapshots as (
    select s.*, {{ weblate_mirror_utc_date('s.captured_at') }} as captured_day
    from {{ ref('base_weblate__translation_statistics') }} as s
),

last_of_day as (
    select *
    from (
        select translation_id, captured_day, {{ counts | join(', ') }}, failing, captured_at,
               row_number() over (
                 partition by translation_id, captured_day order by captured_at desc
               ) as nth
        from snapshots
    ) as ranked
    where nth = 1
),

measured as (
    select d.*,
           lead(d.captured_day) over (partition by d.translation_id order by d.captured_day)
             as next_day
    from last_of_day as d
),

measured_from as (
    select translation_id, {{ weblate_mirror_utc_date('min(captured_at)') }} as measured_from
    from {{ ref('base_weblate__translation_statistics') }}
    group by translation_id
),

estimated as (
    select e.*, lead(e.day) over (partition by e.translation_id order by e.day) as next_day,
           f.measured_from
    from {{ ref('base_weblate__translation_progress_estimated') }} as e
    left join measured_from as f on f.translation_id = e.translation_id
),

spans as (
    -- least() skips nulls on both targets: the last snapshot of a live translation holds until today.
    select m.translation_id, m.captured_day as first_day,
           least({{ weblate_mirror_add_days('m.next_day', -1) }}, {{ weblate_mirror_today() }},
                 {{ weblate_mirror_add_days('sc.deleted_day', -1) }}) as last_day,
           {% for c in counts %}m.{{ c }}, {% endfor %}m.failing, m.captured_at,
           'measured' as origin
    from measured as m
    join scope as sc on sc.translation_id = m.translation_id
    union all
    -- An estimate holds until the next one, and stops the day before the first snapshot.
    select e.translation_id, e.day,
           {{ weblate_mirror_add_days('least(e.next_day, e.measured_from)', -1) }},
           {% for c in counts %}e.{{ c }}, {% endfor %}cast(null as {{ dbt.type_int() }}),
           cast(null as {{ weblate_mirror_type_timestamptz() }}),
           'estimated'
    from estimated as e
)

select s.translation_id, sc.project_id, sc.project_slug, sc.component_id, sc.component_slug,
       sc.language_code, s.first_day, s.last_day,
       {% for c in counts %}s.{{ c }}, {% endfor %}s.failing, s.captured_at, s.origin
from spans as s
join scope as sc on sc.translation_id = s.translation_id
where s.last_day >= s.first_day

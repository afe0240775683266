-- weblate.source_string_changes(var('weblate_mirror_period')), row for row: source strings
-- added and removed per period and component, each string once per component and kind.
{%- set period = var('weblate_mirror_period', 'week') %}

with events as (
    select cast({{ dbt.date_trunc(period, weblate_mirror_utc_timestamp('ch.' ~ adapter.quote('timestamp'))) }} as date)
             as period_start,
           ch.project_slug, ch.component_slug,
           case when ch.action = 63 then 'removed' else 'added' end as kind,
           coalesce(u.num_words, 0) as words,
           -- The string: its id_hash where the mirror has the unit, else the change itself.
           coalesce(cast(u.id_hash as {{ dbt.type_string() }}),
                    'change ' || cast(ch.id as {{ dbt.type_string() }})) as string_key,
           ch.{{ adapter.quote('timestamp') }} as changed_at, ch.id as change_id
    from {{ ref('base_weblate__changes') }} as ch
    left join {{ ref('base_weblate__units') }} as u on u.id = ch.unit_id
    where ch.action in (13, 31, 71, 73, 89, 90, 63)
),

-- The first change of each string (distinct on in the function).
firsts as (
    select *,
           row_number() over (
             partition by project_slug, component_slug, kind, string_key
             order by changed_at, change_id
           ) as nth
    from events
)

select period_start, project_slug, component_slug,
       cast(sum(case when kind = 'added' then 1 else 0 end) as {{ dbt.type_bigint() }}) as strings_added,
       cast(sum(case when kind = 'added' then words else 0 end) as {{ dbt.type_bigint() }}) as words_added,
       cast(sum(case when kind = 'removed' then 1 else 0 end) as {{ dbt.type_bigint() }}) as strings_removed,
       cast(sum(case when kind = 'removed' then words else 0 end) as {{ dbt.type_bigint() }}) as words_removed
from firsts
where nth = 1
group by period_start, project_slug, component_slug

{#- The figures of a daily progress mart, summed over the spans in force each day: the one body
    of weblate.progress_by_language_daily and progress_by_component_daily (migration 0015),
    grouped by `keys`. With `count_components`, the components with a translation in force too. -#}

{% macro weblate_mirror_progress_sums() -%}
  {{ return(['translations', 'estimated', 'failing_known', 'total', 'total_words', 'translated',
             'translated_words', 'fuzzy', 'fuzzy_words', 'approved', 'approved_words', 'failing',
             'untranslated', 'untranslated_words']) }}
{%- endmacro %}

{% macro weblate_mirror_progress_daily(keys, count_components=false) -%}
{%- set sums = weblate_mirror_progress_sums() %}
{%- set bigint = dbt.type_bigint() %}
{%- set key_list = keys | join(', ') %}
with span_events as (
    select s.*, s.first_day as day, 1 as sign
    from {{ ref('int_weblate__translation_progress_spans') }} as s
    union all
    select s.*, {{ weblate_mirror_add_days('s.last_day', 1) }}, -1
    from {{ ref('int_weblate__translation_progress_spans') }} as s
),

-- A span adds its figures on its first day and takes them away the day after its last.
events as (
    select {{ key_list }}, component_id as span_component, day,
           cast(sign as {{ bigint }}) as translations,
           cast(sign * case when origin = 'estimated' then 1 else 0 end as {{ bigint }}) as estimated,
           cast(sign * case when failing is not null then 1 else 0 end as {{ bigint }}) as failing_known,
           {%- for c in ['total', 'total_words', 'translated', 'translated_words', 'fuzzy', 'fuzzy_words', 'approved', 'approved_words', 'failing'] %}
           cast(sign * coalesce({{ c }}, 0) as {{ bigint }}) as {{ c }},
           {%- endfor %}
           cast(sign * coalesce(total - translated, 0) as {{ bigint }}) as untranslated,
           cast(sign * coalesce(total_words - translated_words, 0) as {{ bigint }}) as untranslated_words
    from span_events
),
{%- if count_components %}

-- A component counts on the days at least one of its translations is in force.
by_component as (
    select {{ key_list }}, span_component, day, sum(translations) as n
    from events
    group by {{ key_list }}, span_component, day
),

component_runs as (
    select {{ key_list }}, span_component, day,
           sum(n) over (partition by {{ key_list }}, span_component order by day) as n
    from by_component
),

component_events as (
    select {{ key_list }}, day,
           case when n > 0 then 1 else 0 end
             - case when coalesce(lag(n) over (partition by {{ key_list }}, span_component order by day), 0) > 0
                 then 1 else 0 end as components
    from component_runs
),
{%- endif %}

by_day as (
    select {{ key_list }}, day,
           {%- if count_components %} sum(components) as components,{% endif %}
           {%- for c in sums %}
           cast(sum({{ c }}) as {{ bigint }}) as {{ c }}{{ ',' if not loop.last }}
           {%- endfor %}
    from (
        select {{ key_list }}, day, {{ sums | join(', ') }}
               {%- if count_components %}, 0 as components{% endif %}
        from events
        {%- if count_components %}
        union all
        select {{ key_list }}, day, {% for c in sums %}0, {% endfor %}components
        from component_events
        {%- endif %}
    ) as e
    group by {{ key_list }}, day
),

runs as (
    select {{ key_list }}, day,
           lead(day) over (partition by {{ key_list }} order by day) as next_day,
           {%- if count_components %}
           cast(sum(components) over (partition by {{ key_list }} order by day) as {{ bigint }}) as components,
           {%- endif %}
           {%- for c in sums %}
           cast(sum({{ c }}) over (partition by {{ key_list }} order by day) as {{ bigint }}) as {{ c }}{{ ',' if not loop.last }}
           {%- endfor %}
    from by_day
)

-- Each run of equal figures, spread over its days; a day with no translation in force is none.
select g.day, {% for k in keys %}r.{{ k }}, {% endfor %}
       {%- if count_components %}r.components, {% endif %}
       r.translations, r.total, r.total_words, r.translated, r.translated_words,
       {{ weblate_mirror_truncated_percent('r.translated', 'r.total', true) }} as translated_percent,
       {{ weblate_mirror_truncated_percent('r.translated_words', 'r.total_words', true) }} as translated_words_percent,
       r.fuzzy, r.fuzzy_words,
       {{ weblate_mirror_truncated_percent('r.fuzzy', 'r.total') }} as fuzzy_percent,
       r.approved, r.approved_words,
       {{ weblate_mirror_truncated_percent('r.approved', 'r.total') }} as approved_percent,
       case when r.failing_known = r.translations then r.failing end as failing,
       case when r.failing_known = r.translations
         then {{ weblate_mirror_truncated_percent('r.failing', 'r.total') }} end as failing_percent,
       r.untranslated, r.untranslated_words,
       r.estimated as estimated_translations,
       case when r.estimated > 0 then 'estimated' else 'measured' end as origin
from runs as r
join {{ ref('int_weblate__days') }} as g on g.day >= r.day and g.day < r.next_day
where r.translations > 0
{%- endmacro %}

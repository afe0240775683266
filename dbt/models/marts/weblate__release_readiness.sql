-- weblate.release_readiness(var('weblate_mirror_readiness_per'),
-- var('weblate_mirror_readiness_thresholds')), row for row: per component (or project) and
-- language, the words still needed for each threshold and, at the net pace of the last 30 days,
-- the day it would be reached, counted from the marts' today.
{%- set per = var('weblate_mirror_readiness_per', 'component') %}
{%- set thresholds = var('weblate_mirror_readiness_thresholds', [80, 90, 95]) %}
{%- set today = weblate_mirror_today() %}

with progress as (
    -- weblate.translation_progress: live translations of live components of live projects.
    select t.id as translation_id, p.slug as project_slug, c.slug as component_slug,
           t.language_code, t.total_words, t.translated_words
    from {{ ref('base_weblate__translations') }} as t
    join {{ ref('base_weblate__components') }} as c on c.id = t.component_id
    join {{ ref('base_weblate__projects') }} as p on p.id = c.project_id
    where t.deleted_at is null and c.deleted_at is null and p.deleted_at is null
      and t.is_source is not true
),

scope as (
    select x.project_slug,
           {% if per == 'component' %}x.component_slug{% else %}cast(null as {{ dbt.type_string() }}){% endif %}
             as component_slug,
           x.language_code,
           count(*) as translations,
           cast(coalesce(sum(x.total_words), 0) as {{ dbt.type_bigint() }}) as total_words,
           cast(coalesce(sum(x.translated_words), 0) as {{ dbt.type_bigint() }}) as translated_words,
           cast(sum(p.words_translated) as {{ dbt.type_bigint() }}) as words_translated_30d,
           count(p.words_translated) as pace_translations,
           case when count(p.words_translated) > 0 then
             case when max(case when p.pace_origin = 'estimated' then 1 else 0 end) = 1
               then 'estimated' else 'measured' end
           end as pace_origin,
           case when count(p.words_translated) = 0
             then coalesce(min(p.pace_known_from), {{ weblate_mirror_add_days(today, 30) }})
           end as pace_known_from
    from progress as x
    left join {{ ref('int_weblate__translation_pace') }} as p on p.translation_id = x.translation_id
    {%- if per not in ['component', 'project'] %}
    where false
    {%- endif %}
    group by x.project_slug{% if per == 'component' %}, x.component_slug{% endif %}, x.language_code
),

thresholds as (
    {%- for threshold in thresholds %}
    select {{ weblate_mirror_decimal_literal(threshold) }} as threshold{{ ' union all' if not loop.last }}
    {%- endfor %}
),

needed as (
    -- times 0.01 rather than divided by 100: exact in DuckDB's decimals as in numeric.
    select s.*, th.threshold,
           cast(greatest(ceil(th.threshold * s.total_words * 0.01) - s.translated_words, 0)
                as {{ dbt.type_bigint() }}) as words_needed
    from scope as s
    cross join thresholds as th
)

select project_slug, component_slug, language_code, threshold, total_words, translated_words,
       {{ weblate_mirror_truncated_percent('translated_words', 'total_words', true) }} as translated_words_percent,
       words_needed = 0 as is_reached,
       words_needed,
       {{ weblate_mirror_per_day_of_30('words_translated_30d') }} as words_per_day,
       case when words_needed > 0 and words_translated_30d > 0
         then {{ weblate_mirror_add_days(today, weblate_mirror_ceil_div('words_needed * 30', 'words_translated_30d')) }}
       end as projected_date,
       translations, pace_translations, words_translated_30d, pace_origin, pace_known_from,
       -- What the report and the dashboard write for the threshold: the function's wording.
       case
         when words_needed = 0 then 'reached'
         when words_translated_30d > 0
           then cast({{ weblate_mirror_add_days(today, weblate_mirror_ceil_div('words_needed * 30', 'words_translated_30d')) }}
                     as {{ dbt.type_string() }})
         when words_translated_30d is null
           then 'pace unknown until ' || cast(pace_known_from as {{ dbt.type_string() }})
         when words_translated_30d < 0
           then 'losing ground: ' || cast(words_translated_30d as {{ dbt.type_string() }}) || ' words in 30 days'
         else 'no net progress in 30 days'
       end as status
from needed

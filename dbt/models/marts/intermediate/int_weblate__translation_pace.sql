-- weblate.translation_pace(30), row for row: each translation's net translated words between
-- the end of the day 30 days before the marts' today and today; measured when both ends are,
-- else estimated; unknown until its history reaches back 30 days.
{%- set days = 30 %}

with bounds as (
    select {{ weblate_mirror_today() }} as today,
           {{ weblate_mirror_add_days(weblate_mirror_today(), -days) }} as from_day
),

spans as (
    select translation_id, project_slug, component_slug, language_code, first_day, last_day,
           translated_words, origin
    from {{ ref('int_weblate__translation_progress_spans') }}
),

history as (
    select translation_id, min(first_day) as first_day from spans group by translation_id
)

select n.translation_id, n.project_slug, n.component_slug, n.language_code, b.from_day,
       t.translated_words as translated_words_then, n.translated_words as translated_words_now,
       cast(n.translated_words - t.translated_words as {{ dbt.type_bigint() }}) as words_translated,
       {{ weblate_mirror_per_day_of_30('n.translated_words - t.translated_words') }} as words_per_day,
       case when n.translated_words - t.translated_words is not null then
         case when t.origin = 'estimated' or n.origin = 'estimated' then 'estimated' else 'measured' end
       end as pace_origin,
       case when t.translation_id is null then {{ weblate_mirror_add_days('h.first_day', days) }} end
         as pace_known_from
from bounds as b
join spans as n on b.today between n.first_day and n.last_day
join history as h on h.translation_id = n.translation_id
left join spans as t on t.translation_id = n.translation_id
  and b.from_day between t.first_day and t.last_day

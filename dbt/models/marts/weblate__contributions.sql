-- weblate.contributions(var('weblate_mirror_period')), row for row: what each person did per
-- period, per project and language, per project and per language, ranked by words translated.
{%- set period = var('weblate_mirror_period', 'week') %}
{%- set content_actions = '2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94' %}

with changes as (
    select ch.*, coalesce(u.num_words, 0) as words,
           cast({{ dbt.date_trunc(period, weblate_mirror_utc_timestamp('ch.' ~ adapter.quote('timestamp'))) }} as date)
             as period_start
    from {{ ref('base_weblate__changes') }} as ch
    left join {{ ref('base_weblate__units') }} as u on u.id = ch.unit_id
    where ch.author_name is not null
      and ch.action in ({{ content_actions }}, 3, 4)
),

-- A change counts once as what it did for the string (2, 5, 7, 9 translated, 36 approved,
-- 4 suggested, 3 comment), and once more as a content change in a translation, as Weblate's
-- credits count it.
events as (
    select period_start, project_slug, language_code, author_name as person, words,
           case
             when action in (2, 5, 7, 9) then 'translated'
             when action = 36 then 'approved'
             when action = 4 then 'suggested'
             when action = 3 then 'comment'
           end as kind
    from changes
    union all
    select period_start, project_slug, language_code, author_name, words, 'content'
    from changes
    where action in ({{ content_actions }}) and translation_id is not null
),

counted as (
    select * from events where kind is not null
),

{%- set figures %}
           sum(case when kind = 'translated' then 1 else 0 end) as strings_translated,
           sum(case when kind = 'translated' then words else 0 end) as words_translated,
           sum(case when kind = 'approved' then 1 else 0 end) as strings_approved,
           sum(case when kind = 'approved' then words else 0 end) as words_approved,
           sum(case when kind = 'suggested' then 1 else 0 end) as strings_suggested,
           sum(case when kind = 'suggested' then words else 0 end) as words_suggested,
           sum(case when kind = 'comment' then 1 else 0 end) as comments,
           sum(case when kind = 'content' then 1 else 0 end) as content_changes,
           sum(case when kind = 'content' then words else 0 end) as content_words
{%- endset %}

totals as (
    select period_start, 'project and language' as scope, project_slug, language_code,
           person as username, {{ figures }}
    from counted
    group by period_start, person, project_slug, language_code
    union all
    select period_start, 'project', project_slug, cast(null as {{ dbt.type_string() }}),
           person, {{ figures }}
    from counted
    group by period_start, person, project_slug
    union all
    select period_start, 'language', cast(null as {{ dbt.type_string() }}), language_code,
           person, {{ figures }}
    from counted
    group by period_start, person, language_code
)

select period_start, scope, project_slug, language_code, username,
       cast(strings_translated as {{ dbt.type_bigint() }}) as strings_translated,
       cast(words_translated as {{ dbt.type_bigint() }}) as words_translated,
       cast(strings_approved as {{ dbt.type_bigint() }}) as strings_approved,
       cast(words_approved as {{ dbt.type_bigint() }}) as words_approved,
       cast(strings_suggested as {{ dbt.type_bigint() }}) as strings_suggested,
       cast(words_suggested as {{ dbt.type_bigint() }}) as words_suggested,
       cast(comments as {{ dbt.type_bigint() }}) as comments,
       cast(content_changes as {{ dbt.type_bigint() }}) as content_changes,
       rank() over (
         partition by period_start, scope, project_slug, language_code
         order by words_translated desc, strings_translated desc
       ) as rank,
       cast(content_words as {{ dbt.type_bigint() }}) as content_words
from totals

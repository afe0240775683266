-- Every UTC day the progress history covers: the calendar the daily marts spread spans over
-- (generate_series in the answer functions).
with bounds as (
    select min(first_day) as first_day, max(last_day) as last_day
    from {{ ref('int_weblate__translation_progress_spans') }}
)

{{ weblate_mirror_day_series('(select first_day from bounds)', '(select last_day from bounds)') }}

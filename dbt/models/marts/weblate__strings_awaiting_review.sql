-- weblate.strings_awaiting_review(), row for row: live translated strings waiting for approval
-- in projects that review translations. days_waiting counts from the marts' now
-- (weblate_mirror_now: the run's start, or var('weblate_mirror_now')).

with last_saved as (
    -- The last change that put a target into the string (or marked it for review).
    select unit_id, max({{ adapter.quote('timestamp') }}) as saved_at
    from {{ ref('base_weblate__changes') }}
    where action in (2, 5, 6, 7, 8, 9, 27, 59, 72, 77, 94) and unit_id is not null
    group by unit_id
),

waiting as (
    select u.id as unit_id, t.id as translation_id, p.slug as project_slug,
           c.slug as component_slug, t.language_code, u.num_words,
           coalesce(s.saved_at, u.last_updated, u.{{ adapter.quote('timestamp') }}, u.first_seen_at)
             as waiting_since
    from {{ ref('base_weblate__units') }} as u
    join {{ ref('base_weblate__translations') }} as t on t.id = u.translation_id
    join {{ ref('base_weblate__components') }} as c on c.id = t.component_id
    join {{ ref('base_weblate__projects') }} as p on p.id = c.project_id
    left join last_saved as s on s.unit_id = u.id
    where u.state = 20
      and p.translation_review is true
      and t.is_source is not true
      and u.deleted_at is null
)

select unit_id, translation_id, project_slug, component_slug, language_code, num_words,
       waiting_since,
       {{ weblate_mirror_whole_days_between('waiting_since', weblate_mirror_now()) }} as days_waiting
from waiting

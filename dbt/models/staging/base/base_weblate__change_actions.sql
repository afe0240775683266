-- Every row of weblate.change_actions, typed as in the mirror.
select
    action,
    name,
    api_name,
    first_seen_at,
    last_seen_at
from {{ source('weblate', 'change_actions') }}

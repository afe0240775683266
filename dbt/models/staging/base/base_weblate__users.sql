-- Every row of weblate.users, typed as in the mirror.
select
    username,
    id,
    full_name,
    answered,
    raw,
    first_seen_at,
    updated_at
from {{ source('weblate', 'users') }}

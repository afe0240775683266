-- Every row of weblate.labels, deleted ones included: what the answer functions read.
select
    id,
    project_id,
    project_slug,
    name,
    color,
    description,
    raw,
    first_seen_at,
    updated_at,
    deleted_at
from {{ source('weblate', 'labels') }}

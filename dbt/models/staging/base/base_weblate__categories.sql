-- Every row of weblate.categories, deleted ones included: what the answer functions read.
select
    id,
    project_id,
    project_slug,
    slug,
    name,
    parent_id,
    url,
    statistics_url,
    raw,
    first_seen_at,
    updated_at,
    deleted_at
from {{ source('weblate', 'categories') }}

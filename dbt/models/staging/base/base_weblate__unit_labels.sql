-- Every row of weblate.unit_labels, deleted ones included: what the answer functions read.
select
    unit_id,
    label_id,
    first_seen_at,
    deleted_at
from {{ source('weblate', 'unit_labels') }}

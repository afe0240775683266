-- Every row of weblate.unit_states, typed as in the mirror.
select
    state,
    name
from {{ source('weblate', 'unit_states') }}

-- weblate.unit_states has no soft deletes: every row is current.
select *
from {{ ref('base_weblate__unit_states') }}

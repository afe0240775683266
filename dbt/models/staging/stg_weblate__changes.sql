-- weblate.changes has no soft deletes: every row is current.
select *
from {{ ref('base_weblate__changes') }}

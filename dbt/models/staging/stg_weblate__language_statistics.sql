-- weblate.language_statistics has no soft deletes: every row is current.
select *
from {{ ref('base_weblate__language_statistics') }}

-- weblate.translation_statistics has no soft deletes: every row is current.
select *
from {{ ref('base_weblate__translation_statistics') }}

-- weblate.translation_progress_estimated has no soft deletes: every row is current.
select *
from {{ ref('base_weblate__translation_progress_estimated') }}

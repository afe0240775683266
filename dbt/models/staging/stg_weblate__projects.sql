-- Live rows only, unless var('weblate_mirror_include_deleted') is true (weblate_mirror_live).
select *
from {{ ref('base_weblate__projects') }}
where {{ weblate_mirror_live() }}

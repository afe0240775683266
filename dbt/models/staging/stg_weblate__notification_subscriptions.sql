-- Live rows only, unless var('weblate_mirror_include_deleted') is true (weblate_mirror_live).
select *
from {{ ref('base_weblate__notification_subscriptions') }}
where {{ weblate_mirror_live() }}

-- Every row of weblate.notification_subscriptions, deleted ones included: what the answer functions read.
select
    id,
    username,
    notification,
    scope,
    frequency,
    project,
    component,
    project_id,
    component_id,
    raw,
    first_seen_at,
    updated_at,
    deleted_at
from {{ source('weblate', 'notification_subscriptions') }}

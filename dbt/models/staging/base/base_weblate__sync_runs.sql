-- Every row of weblate.sync_runs, typed as in the mirror.
select
    id,
    kind,
    started_at,
    finished_at,
    status,
    weblate_url,
    requests,
    rows_written,
    error,
    summary,
    rejected
from {{ source('weblate', 'sync_runs') }}

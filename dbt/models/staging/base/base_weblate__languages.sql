-- Every row of weblate.languages, typed as in the mirror.
select
    code,
    id,
    name,
    direction,
    population,
    aliases,
    plural_id,
    plural_source,
    plural_number,
    plural_formula,
    plural_type,
    web_url,
    url,
    statistics_url,
    raw,
    first_seen_at,
    updated_at
from {{ source('weblate', 'languages') }}

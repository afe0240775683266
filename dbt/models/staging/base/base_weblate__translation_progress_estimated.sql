-- Every row of weblate.translation_progress_estimated, typed as in the mirror.
select
    translation_id,
    day,
    total,
    total_words,
    translated,
    translated_words,
    fuzzy,
    fuzzy_words,
    approved,
    approved_words,
    anchored_at,
    built_at
from {{ source('weblate', 'translation_progress_estimated') }}

-- Every row of weblate.label_statistics, typed as in the mirror.
select
    label_id,
    translation_id,
    captured_at,
    run_id,
    total,
    total_words,
    translated,
    translated_words,
    fuzzy,
    fuzzy_words,
    approved,
    approved_words,
    failing
from {{ source('weblate', 'label_statistics') }}

-- weblate.progress_by_language_daily(), row for row: each language's progress at the end of
-- every UTC day of its history, measured or estimated (origin).
{{ weblate_mirror_progress_daily(['language_code'], count_components=true) }}

-- weblate.progress_by_component_daily(), row for row: each component's progress at the end of
-- every UTC day of its history, measured or estimated (origin).
{{ weblate_mirror_progress_daily(['component_id', 'component_slug', 'project_id', 'project_slug']) }}

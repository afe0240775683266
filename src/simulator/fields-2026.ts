/**
 * The fields of the records Weblate 2026.10.1 sends, in the order of its serializers' `fields`
 * (weblate/api/serializers.py). A record the simulator renders as release '2026' is its values
 * picked in this order (pickFields), so each list is the one place that says what the record
 * holds. Fields a serializer declares but never sends are left out: ComponentSerializer's
 * `zipfile`, `docfile` and `disable_autoshare` (optional, with nothing on the model to read,
 * so DRF skips them) and `from_component` (write-only).
 */

/** The message templates among them. */
const MESSAGES = [
  'commit_message',
  'add_message',
  'delete_message',
  'merge_message',
  'addon_message',
  'pull_message',
] as const;

/** Settings a project holds for its components (trans/inherited_settings.py), in their order. */
export const INHERITABLE_SETTINGS = [
  'license',
  'agreement',
  'new_lang',
  'language_code_style',
  'secondary_language',
  ...MESSAGES,
  'enforced_checks',
] as const;
export type InheritableSetting = (typeof INHERITABLE_SETTINGS)[number];

/** `<setting>`, `inherit_<setting>`, `effective_<setting>`: how both serializers list them. */
function inherited(...settings: InheritableSetting[]): string[] {
  return settings.flatMap((name) => [name, `inherit_${name}`, `effective_${name}`]);
}

const MESSAGE_SETTINGS = inherited(...MESSAGES);

/** CategorySerializer: a category holds every setting its components inherit. */
export const CATEGORY_FIELDS_2026: readonly string[] = [
  'id',
  'name',
  'slug',
  'project',
  'category',
  'url',
  'statistics_url',
  'announcements_url',
  'reports_url',
  'check_flags',
  'effective_check_flags',
  ...inherited(...INHERITABLE_SETTINGS),
];

/** ProjectSerializer: 72 fields. */
export const PROJECT_FIELDS_2026: readonly string[] = [
  'name',
  'slug',
  'id',
  'web',
  'web_url',
  'url',
  'check_flags',
  'effective_check_flags',
  'components_list_url',
  'repository_url',
  'statistics_url',
  'metrics_url',
  'categories_url',
  'changes_list_url',
  'languages_url',
  'labels_url',
  'reports_url',
  'lock_url',
  'translation_review',
  'source_review',
  'commit_policy',
  'workspace',
  'instructions',
  'enable_hooks',
  'language_aliases',
  'access_control',
  'public_sharing',
  'use_shared_tm',
  'contribute_shared_tm',
  'use_workspace_tm',
  'contribute_workspace_tm',
  'autoclean_tm',
  ...inherited('license', 'agreement', 'new_lang', 'language_code_style', 'secondary_language'),
  ...MESSAGE_SETTINGS,
  'enforced_2fa',
  'machinery_settings',
  'locked',
  'announcements_url',
  ...inherited('enforced_checks'),
];

/** ComponentSerializer: 100 fields, 96 of them sent (see above). */
export const COMPONENT_FIELDS_2026: readonly string[] = [
  'name',
  'slug',
  'id',
  'source_language',
  'project',
  'vcs',
  'vcs_params',
  'repo',
  'git_export',
  'branch',
  'push_branch',
  'filemask',
  'screenshot_filemask',
  'template',
  'edit_template',
  'intermediate',
  'new_base',
  'file_format',
  'file_format_params',
  ...inherited('license'),
  'license_url',
  'announcements_url',
  ...inherited('agreement'),
  'web_url',
  'url',
  'repository_url',
  'translations_url',
  'statistics_url',
  'lock_url',
  'links_url',
  'changes_list_url',
  'task_url',
  'reports_url',
  ...inherited('new_lang', 'language_code_style'),
  'push',
  'check_flags',
  'effective_check_flags',
  'priority',
  ...inherited('enforced_checks'),
  'restricted',
  'repoweb',
  'repoweb_translations',
  'report_source_bugs',
  'merge_style',
  ...MESSAGE_SETTINGS,
  'allow_translation_propagation',
  'hide_glossary_matches',
  'contribute_project_tm',
  'manage_units',
  'enable_suggestions',
  'suggestion_voting',
  'suggestion_autoaccept',
  'push_on_commit',
  'push_on_update',
  'commit_pending_age',
  'auto_lock_error',
  'language_regex',
  'key_filter',
  ...inherited('secondary_language'),
  'variant_regex',
  'addons',
  'is_glossary',
  'glossary_color',
  'category',
  'linked_component',
  'locked',
];

/** TranslationSerializer: 33 fields. */
export const TRANSLATION_FIELDS_2026: readonly string[] = [
  'language',
  'component',
  'language_code',
  'id',
  'filename',
  'revision',
  'web_url',
  'share_url',
  'translate_url',
  'url',
  'is_template',
  'is_source',
  'total',
  'total_words',
  'translated',
  'translated_words',
  'translated_percent',
  'fuzzy',
  'fuzzy_words',
  'fuzzy_percent',
  'failing_checks',
  'failing_checks_words',
  'failing_checks_percent',
  'have_suggestion',
  'have_comment',
  'last_change',
  'last_author',
  'repository_url',
  'file_url',
  'statistics_url',
  'changes_list_url',
  'units_list_url',
  'announcements_url',
];

/** UnitSerializer: 38 fields. */
export const UNIT_FIELDS_2026: readonly string[] = [
  'tbx_terms',
  'translation',
  'language_code',
  'source',
  'previous_source',
  'target',
  'id_hash',
  'content_hash',
  'location',
  'context',
  'note',
  'flags',
  'labels',
  'state',
  'fuzzy',
  'translated',
  'approved',
  'position',
  'has_suggestion',
  'has_comment',
  'has_failing_check',
  'num_words',
  'source_unit',
  'screenshots_url',
  'translation_parent',
  'effective_source',
  'effective_previous_source',
  'effective_source_language',
  'priority',
  'id',
  'web_url',
  'url',
  'explanation',
  'extra_flags',
  'pending',
  'timestamp',
  'last_updated',
  'automatically_translated',
];

/** ChangeSerializer: 15 fields. */
export const CHANGE_FIELDS_2026: readonly string[] = [
  'unit',
  'component',
  'translation',
  'addon',
  'user',
  'author',
  'alert',
  'timestamp',
  'action',
  'target',
  'old',
  'details',
  'id',
  'action_name',
  'url',
];

/** AlertSerializer (a change's `alert`): 9 fields. */
export const ALERT_FIELDS_2026: readonly string[] = [
  'name',
  'timestamp',
  'updated',
  'severity',
  'details',
  'category',
  'dismissed_at',
  'dismissed_by',
  'dismissal_reason',
];

/**
 * `values` as a record of `fields`, in their order, without `omitted` (the nested record a
 * list of one project's components or one component's translations leaves out). A field
 * without a value is a mistake of the caller's: it throws rather than send a record short.
 */
export function pickFields(
  values: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  omitted?: string,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of fields) {
    if (field === omitted) continue;
    if (!(field in values)) throw new Error(`no value for the 2026 field ${field}`);
    record[field] = values[field];
  }
  return record;
}

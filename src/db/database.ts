import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * Column types as weblate-mirror reads them. `createDb` configures both drivers so that
 * int8, numeric and timestamptz come back as exact strings (never a rounded number or a
 * millisecond Date), and jsonb comes back parsed.
 */
export type Int8 = ColumnType<string, string | number | bigint, string | number | bigint>;
export type Numeric = ColumnType<string, string | number, string | number>;
export type Timestamp = ColumnType<string, string, string>;
/** A timestamp the database fills in by default. */
export type GeneratedTimestamp = ColumnType<string, string | undefined, string>;
/** JSON text taken verbatim from an API response; stored as jsonb without re-serialising. */
export type RawJson = string & { readonly __rawJson: unique symbol };
export type Jsonb = ColumnType<unknown, RawJson, RawJson>;
export type JsonValue = ColumnType<unknown, unknown, unknown>;
type Bookkeeping = {
  first_seen_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
};

export interface SyncRunsTable {
  id: Generated<number>;
  /** `full`, `incremental`, `webhook` (a sync driven by webhooks) or `statistics` (a statistics snapshot run). */
  kind: Generated<string>;
  started_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
  status: Generated<'running' | 'succeeded' | 'failed' | 'interrupted'>;
  weblate_url: string;
  requests: Generated<number>;
  rows_written: ColumnType<string, number | string | undefined, number | string>;
  error: string | null;
  /** Per-resource requests, rows and durations, written as JSON text. */
  summary: ColumnType<unknown, string | undefined, string>;
  /** Records that could not be stored in this run (see rejected_records). */
  rejected: Generated<number>;
}

/**
 * The instance this database mirrors (one row, id 1): its API root and a fingerprint that
 * does not depend on its address (src/sync/instance.ts).
 */
export interface InstancesTable {
  id: Generated<number>;
  api_root: string;
  /** The live mirrored projects' ids and slugs, by id: `[{"id": 1, "slug": "hello"}, …]`. */
  fingerprint: ColumnType<ProjectKey[], string | undefined, string>;
  recorded_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** A project as the instance fingerprint names it. */
export interface ProjectKey {
  id: number;
  slug: string;
}

/** Where each stream of an incremental sync stands; written with the rows it covers. */
export interface SyncCursorsTable {
  stream: string;
  scope: string;
  value: ColumnType<unknown, string, string>;
  updated_at: GeneratedTimestamp;
}

/** Work a sync found but has not finished: survives a crash, so nothing noticed is lost. */
export interface SyncPendingTable {
  kind: string;
  id: Int8;
  noted_at: GeneratedTimestamp;
}

/** API records that could not be stored, kept with the reason and their text. */
export interface RejectedRecordsTable {
  id: Generated<string>;
  run_id: number | null;
  resource: string;
  url: string;
  reason: string;
  raw: string;
  created_at: GeneratedTimestamp;
}

export interface UnitStatesTable {
  state: number;
  name: string;
}

export interface ChangeActionsTable {
  action: number;
  name: string;
  api_name: string | null;
  first_seen_at: Timestamp | null;
  last_seen_at: Timestamp | null;
}

export interface LanguagesTable extends Bookkeeping {
  code: string;
  id: number;
  name: string;
  direction: string | null;
  population: Int8 | null;
  aliases: string[] | null;
  plural_id: number | null;
  plural_source: number | null;
  plural_number: number | null;
  plural_formula: string | null;
  plural_type: number | null;
  web_url: string | null;
  url: string | null;
  statistics_url: string | null;
  raw: Jsonb;
}

export interface ProjectsTable extends Bookkeeping {
  id: number;
  slug: string;
  name: string;
  web: string | null;
  web_url: string | null;
  url: string | null;
  components_list_url: string | null;
  repository_url: string | null;
  statistics_url: string | null;
  categories_url: string | null;
  changes_list_url: string | null;
  languages_url: string | null;
  labels_url: string | null;
  translation_review: boolean | null;
  source_review: boolean | null;
  set_language_team: boolean | null;
  instructions: string | null;
  enable_hooks: boolean | null;
  language_aliases: string | null;
  /** When the object disappeared upstream (set by a complete listing); null while it exists. */
  deleted_at: Timestamp | null;
  raw: Jsonb;
}

export interface ComponentsTable extends Bookkeeping {
  id: number;
  project_id: number;
  project_slug: string;
  slug: string;
  name: string;
  source_language_code: string | null;
  vcs: string | null;
  repo: string | null;
  git_export: string | null;
  branch: string | null;
  push_branch: string | null;
  filemask: string | null;
  screenshot_filemask: string | null;
  template: string | null;
  edit_template: boolean | null;
  intermediate: string | null;
  new_base: string | null;
  file_format: string | null;
  license: string | null;
  license_url: string | null;
  agreement: string | null;
  web_url: string | null;
  url: string | null;
  repository_url: string | null;
  translations_url: string | null;
  statistics_url: string | null;
  lock_url: string | null;
  links_url: string | null;
  changes_list_url: string | null;
  task_url: string | null;
  new_lang: string | null;
  language_code_style: string | null;
  push: string | null;
  check_flags: string | null;
  priority: number | null;
  enforced_checks: string[] | null;
  restricted: boolean | null;
  repoweb: string | null;
  report_source_bugs: string | null;
  merge_style: string | null;
  commit_message: string | null;
  add_message: string | null;
  delete_message: string | null;
  merge_message: string | null;
  addon_message: string | null;
  pull_message: string | null;
  allow_translation_propagation: boolean | null;
  manage_units: boolean | null;
  enable_suggestions: boolean | null;
  suggestion_voting: boolean | null;
  suggestion_autoaccept: number | null;
  push_on_commit: boolean | null;
  commit_pending_age: number | null;
  auto_lock_error: boolean | null;
  language_regex: string | null;
  variant_regex: string | null;
  addons: JsonValue | null;
  is_glossary: boolean | null;
  glossary_color: string | null;
  category: string | null;
  /** The id of the category `category` links to; null at the top of the project. */
  category_id: number | null;
  linked_component: string | null;
  /** When the object disappeared upstream (set by a complete listing); null while it exists. */
  deleted_at: Timestamp | null;
  raw: Jsonb;
}

export interface TranslationsTable extends Bookkeeping {
  id: number;
  component_id: number;
  project_slug: string;
  component_slug: string;
  language_code: string;
  language_id: number | null;
  filename: string | null;
  revision: string | null;
  web_url: string | null;
  share_url: string | null;
  translate_url: string | null;
  url: string | null;
  is_template: boolean | null;
  is_source: boolean | null;
  total: number | null;
  total_words: number | null;
  translated: number | null;
  translated_words: number | null;
  translated_percent: Numeric | null;
  fuzzy: number | null;
  fuzzy_words: number | null;
  fuzzy_percent: Numeric | null;
  failing_checks: number | null;
  failing_checks_words: number | null;
  failing_checks_percent: Numeric | null;
  have_suggestion: number | null;
  have_comment: number | null;
  last_change: Timestamp | null;
  last_author: string | null;
  repository_url: string | null;
  file_url: string | null;
  statistics_url: string | null;
  changes_list_url: string | null;
  units_list_url: string | null;
  /** When the object disappeared upstream (set by a complete listing); null while it exists. */
  deleted_at: Timestamp | null;
  raw: Jsonb;
}

export interface UnitsTable extends Bookkeeping {
  id: Int8;
  translation_id: number;
  source: string[];
  previous_source: string | null;
  target: string[];
  id_hash: Int8;
  content_hash: Int8;
  location: string | null;
  context: string | null;
  note: string | null;
  flags: string | null;
  explanation: string | null;
  extra_flags: string | null;
  labels: JsonValue | null;
  state: number;
  fuzzy: boolean | null;
  translated: boolean | null;
  approved: boolean | null;
  position: number | null;
  has_suggestion: boolean | null;
  has_comment: boolean | null;
  has_failing_check: boolean | null;
  num_words: number | null;
  source_unit_id: Int8 | null;
  priority: number | null;
  web_url: string | null;
  url: string | null;
  pending: boolean | null;
  timestamp: Timestamp | null;
  last_updated: Timestamp | null;
  automatically_translated: boolean | null;
  /** When the object disappeared upstream (set by a complete listing); null while it exists. */
  deleted_at: Timestamp | null;
  raw: Jsonb;
}

export interface CategoriesTable extends Bookkeeping {
  id: number;
  project_id: number;
  project_slug: string;
  slug: string;
  name: string;
  /** The category this one sits in (its `category` link); null at the top of the project. */
  parent_id: number | null;
  url: string | null;
  statistics_url: string | null;
  /** When the object disappeared upstream (set by a complete listing); null while it exists. */
  deleted_at: Timestamp | null;
  raw: Jsonb;
}

export interface LabelsTable extends Bookkeeping {
  id: number;
  project_id: number;
  project_slug: string;
  name: string;
  color: string | null;
  description: string | null;
  /** When the object disappeared upstream (set by a complete listing); null while it exists. */
  deleted_at: Timestamp | null;
  raw: Jsonb;
}

/** People the changes name, with the server's answer for each (migration 0013). */
export interface UsersTable extends Bookkeeping {
  username: string;
  id: number | null;
  full_name: string | null;
  /** HTTP status of the read: 200, 404 (not shown to the token); null while unread. */
  answered: number | null;
  /** The record as sent; JSON null when the server answered none, SQL null while unread. */
  raw: Jsonb;
}

/** The labels units carry, kept in step with units.labels by triggers (migration 0011). */
export interface UnitLabelsTable {
  unit_id: Int8;
  label_id: number;
  first_seen_at: GeneratedTimestamp;
  /** When the unit's record stopped listing the label; null while it carries it. */
  deleted_at: Timestamp | null;
}

export interface ChangesTable extends Bookkeeping {
  id: Int8;
  action: number;
  action_name: string | null;
  unit_id: Int8 | null;
  translation_id: number | null;
  component_id: number | null;
  /** Null for a change the global list does not attribute (no translation or component URL). */
  project_slug: string | null;
  component_slug: string | null;
  language_code: string | null;
  user_name: string | null;
  author_name: string | null;
  target: string | null;
  old: string | null;
  details: JsonValue | null;
  timestamp: Timestamp;
  url: string | null;
  unit_url: string | null;
  translation_url: string | null;
  component_url: string | null;
  raw: Jsonb;
  /** Weblate's `Change.get_distance()` of old and target (src/lib/edit-distance.ts). */
  edit_distance: number | null;
}

/** Every count, _words, _chars and _percent field of Weblate's statistics serializer. */
export interface StatisticsValues {
  total: number | null;
  total_words: number | null;
  total_chars: number | null;
  translated: number | null;
  translated_words: number | null;
  translated_chars: number | null;
  translated_percent: Numeric | null;
  translated_words_percent: Numeric | null;
  translated_chars_percent: Numeric | null;
  fuzzy: number | null;
  fuzzy_words: number | null;
  fuzzy_chars: number | null;
  fuzzy_percent: Numeric | null;
  fuzzy_words_percent: Numeric | null;
  fuzzy_chars_percent: Numeric | null;
  approved: number | null;
  approved_words: number | null;
  approved_chars: number | null;
  approved_percent: Numeric | null;
  approved_words_percent: Numeric | null;
  approved_chars_percent: Numeric | null;
  readonly: number | null;
  readonly_words: number | null;
  readonly_chars: number | null;
  readonly_percent: Numeric | null;
  readonly_words_percent: Numeric | null;
  readonly_chars_percent: Numeric | null;
  failing: number | null;
  failing_percent: Numeric | null;
  suggestions: number | null;
  comments: number | null;
  recent_changes: number | null;
  last_change: Timestamp | null;
}

interface SnapshotBookkeeping {
  captured_at: Timestamp;
  last_seen_at: Timestamp;
  run_id: number | null;
  name: string | null;
  url: string | null;
  raw: Jsonb;
}

export interface TranslationStatisticsTable extends StatisticsValues, SnapshotBookkeeping {
  translation_id: number;
  project_slug: string;
  component_slug: string;
  language_code: string;
  code: string | null;
  translate_url: string | null;
}

export interface LanguageStatisticsTable extends StatisticsValues, SnapshotBookkeeping {
  language_code: string;
}

export interface NotificationSubscriptionsTable extends Bookkeeping {
  id: number;
  username: string;
  notification: string;
  scope: number;
  frequency: number;
  project: string | null;
  component: string | null;
  project_id: number | null;
  component_id: number | null;
  /** When the object disappeared upstream (set by a complete listing); null while it exists. */
  deleted_at: Timestamp | null;
  raw: Jsonb;
}

/**
 * Progress at the end of a UTC day before a translation's first snapshot, estimated from the
 * change log by `weblate-mirror backfill` (docs/history.md); never a measurement.
 */
export interface TranslationProgressEstimatedTable {
  translation_id: number;
  /** A UTC day, as PostgreSQL's date text (YYYY-MM-DD). */
  day: string;
  total: number;
  total_words: number | null;
  translated: number;
  translated_words: number | null;
  fuzzy: number;
  fuzzy_words: number | null;
  approved: number;
  approved_words: number | null;
  /** The first snapshot the estimate counts back from. */
  anchored_at: Timestamp;
  built_at: GeneratedTimestamp;
}

export interface Database {
  'weblate.sync_runs': SyncRunsTable;
  'weblate.instances': InstancesTable;
  'weblate.unit_states': UnitStatesTable;
  'weblate.change_actions': ChangeActionsTable;
  'weblate.languages': LanguagesTable;
  'weblate.projects': ProjectsTable;
  'weblate.components': ComponentsTable;
  'weblate.categories': CategoriesTable;
  'weblate.labels': LabelsTable;
  'weblate.users': UsersTable;
  'weblate.users_due': { username: string };
  'weblate.unit_labels': UnitLabelsTable;
  'weblate.translations': TranslationsTable;
  'weblate.units': UnitsTable;
  'weblate.changes': ChangesTable;
  'weblate.translation_statistics': TranslationStatisticsTable;
  'weblate.language_statistics': LanguageStatisticsTable;
  'weblate.notification_subscriptions': NotificationSubscriptionsTable;
  'weblate.sync_cursors': SyncCursorsTable;
  'weblate.sync_pending': SyncPendingTable;
  'weblate.rejected_records': RejectedRecordsTable;
  'weblate.translation_progress_estimated': TranslationProgressEstimatedTable;
}

/** Tables holding API records, unqualified, in the order of the warehouse contract; a sync reports per table. */
export const MIRRORED_TABLES = [
  'languages',
  'projects',
  'components',
  'categories',
  'labels',
  'translations',
  'units',
  'changes',
  'translation_statistics',
  'language_statistics',
  'notification_subscriptions',
  'users',
] as const satisfies ReadonlyArray<keyof Database extends `weblate.${infer T}` ? T : never>;
export type MirroredTable = (typeof MIRRORED_TABLES)[number];

export type SyncRunRow = Selectable<SyncRunsTable>;
export type InstanceRow = Selectable<InstancesTable>;
export type NewLanguage = Insertable<LanguagesTable>;
export type NewProject = Insertable<ProjectsTable>;
export type NewComponent = Insertable<ComponentsTable>;
export type NewCategory = Insertable<CategoriesTable>;
export type NewLabel = Insertable<LabelsTable>;
export type NewUser = Insertable<UsersTable>;
export type NewTranslation = Insertable<TranslationsTable>;
export type NewUnit = Insertable<UnitsTable>;
export type NewChange = Insertable<ChangesTable>;
export type NewTranslationStatistics = Insertable<TranslationStatisticsTable>;
export type NewLanguageStatistics = Insertable<LanguageStatisticsTable>;
export type NewNotificationSubscription = Insertable<NotificationSubscriptionsTable>;

import { type Expression, type Kysely, sql, type SqlBool } from 'kysely';

import type { Database } from '../database.ts';

// Typed reads of the reporting views (migrations/0003_add_reporting_views.ts, documented in
// docs/schema.md). bigint and numeric values are exact decimal strings, dates are
// `YYYY-MM-DD` strings and timestamps are strings, as createDb configures both drivers.

/** Progress figures shared by the progress views; Count is number (integer) or string (bigint). */
export interface ProgressFigures<Count> {
  total: Count;
  total_words: Count;
  translated: Count;
  translated_words: Count;
  translated_percent: string | null;
  translated_words_percent: string | null;
  fuzzy: Count;
  fuzzy_words: Count;
  fuzzy_percent: string | null;
  approved: Count;
  approved_words: Count;
  approved_percent: string | null;
  failing: Count;
  failing_percent: string | null;
  untranslated: Count;
  untranslated_words: Count;
}

interface TranslationKey {
  translation_id: number;
  project_id: number;
  project_slug: string;
  component_id: number;
  component_slug: string;
  language_code: string;
}

export interface TranslationProgressRow extends TranslationKey, ProgressFigures<number | null> {
  language_id: number | null;
  language_name: string | null;
  failing_words: number | null;
  last_change: string | null;
  statistics_seen_at: string | null;
}

interface Aggregate extends ProgressFigures<string> {
  translations: string;
}

interface CurrentAggregate extends Aggregate {
  failing_words: string;
  last_change: string | null;
}

export interface ComponentProgressRow extends CurrentAggregate {
  component_id: number;
  component_slug: string;
  component_name: string;
  project_id: number;
  project_slug: string;
}

export interface ProjectProgressRow extends CurrentAggregate {
  project_id: number;
  project_slug: string;
  project_name: string;
  components: string;
}

export interface LanguageProgressRow extends CurrentAggregate {
  language_code: string;
  language_name: string | null;
  projects: string;
  components: string;
}

export interface TranslationProgressDailyRow
  extends TranslationKey, ProgressFigures<number | null> {
  day: string;
  captured_at: string;
}

export interface ComponentProgressDailyRow extends Aggregate {
  day: string;
  component_id: number;
  component_slug: string;
  project_id: number;
  project_slug: string;
}

export interface ProjectProgressDailyRow extends Aggregate {
  day: string;
  project_id: number;
  project_slug: string;
  components: string;
}

export interface LanguageProgressDailyRow extends Aggregate {
  day: string;
  language_code: string;
  components: string;
}

export interface ActivityDailyRow {
  day: string;
  project_slug: string;
  component_slug: string | null;
  language_code: string | null;
  author_name: string | null;
  action: number;
  action_name: string | null;
  changes: string;
  words: string;
}

export interface ContributorRow {
  author_name: string;
  language_code: string;
  changes_7d: string;
  changes_30d: string;
  changes_365d: string;
  words_7d: string;
  words_30d: string;
  words_365d: string;
  first_contribution: string;
  last_contribution: string;
}

export interface StalledTranslationRow extends TranslationKey {
  total: number | null;
  untranslated: number | null;
  untranslated_words: number | null;
  translated_percent: string | null;
  last_change: string | null;
  last_author: string | null;
  idle_since: string;
  days_since_last_change: number;
}

export interface CompletionForecastRow extends TranslationKey {
  total_words: number | null;
  translated_words: number | null;
  untranslated_words: number | null;
  words_translated_30d: number;
  words_per_day: string;
  projected_completion: string | null;
}

export interface LanguageCompletionForecastRow {
  language_code: string;
  translations: string;
  total_words: string;
  translated_words: string;
  untranslated_words: string;
  words_translated_30d: string;
  words_per_day: string;
  projected_completion: string | null;
}

/** The reporting views, as Kysely sees them. */
export type ReportViews = {
  'weblate.translation_progress': TranslationProgressRow;
  'weblate.component_progress': ComponentProgressRow;
  'weblate.project_progress': ProjectProgressRow;
  'weblate.language_progress': LanguageProgressRow;
  'weblate.translation_progress_daily': TranslationProgressDailyRow;
  'weblate.component_progress_daily': ComponentProgressDailyRow;
  'weblate.project_progress_daily': ProjectProgressDailyRow;
  'weblate.language_progress_daily': LanguageProgressDailyRow;
  'weblate.activity_daily': ActivityDailyRow;
  'weblate.contributors': ContributorRow;
  'weblate.stalled_translations': StalledTranslationRow;
  'weblate.completion_forecast': CompletionForecastRow;
  'weblate.language_completion_forecast': LanguageCompletionForecastRow;
};

/** Narrows a report; every field is optional and `undefined` means "any". */
export interface ReportFilter {
  projectSlug?: string;
  languageCode?: string;
  /** First UTC day (inclusive, `YYYY-MM-DD`) of a daily view. */
  from?: string;
  /** Last UTC day (inclusive) of a daily view. */
  to?: string;
}

function views(db: Kysely<Database>): Kysely<Database & ReportViews> {
  return db.withTables<ReportViews>();
}

type FilterField = 'project' | 'language' | 'days';

/**
 * The filter as one condition on a view's `project_slug`, `language_code` and `day`
 * columns, for the fields that view honours; `true` when none of them is set.
 */
function narrowedBy(filter: ReportFilter, fields: readonly FilterField[]): Expression<SqlBool> {
  const conditions = [];
  if (fields.includes('project') && filter.projectSlug !== undefined)
    conditions.push(sql`project_slug = ${filter.projectSlug}`);
  if (fields.includes('language') && filter.languageCode !== undefined)
    conditions.push(sql`language_code = ${filter.languageCode}`);
  if (fields.includes('days') && filter.from !== undefined)
    conditions.push(sql`day >= ${filter.from}`);
  if (fields.includes('days') && filter.to !== undefined) conditions.push(sql`day <= ${filter.to}`);
  return conditions.length === 0
    ? sql<SqlBool>`true`
    : sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
}

/** Current progress of each live translation (source-language translations left out). */
export function listTranslationProgress(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<TranslationProgressRow[]> {
  return views(db)
    .selectFrom('weblate.translation_progress')
    .selectAll()
    .where(narrowedBy(filter, ['project', 'language']))
    .orderBy('project_slug')
    .orderBy('component_slug')
    .orderBy('language_code')
    .execute();
}

/** Current progress of each live component, summed over its translations. */
export function listComponentProgress(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ComponentProgressRow[]> {
  return views(db)
    .selectFrom('weblate.component_progress')
    .selectAll()
    .where(narrowedBy(filter, ['project']))
    .orderBy('project_slug')
    .orderBy('component_slug')
    .execute();
}

/** Current progress of each live project. */
export function listProjectProgress(db: Kysely<Database>): Promise<ProjectProgressRow[]> {
  return views(db)
    .selectFrom('weblate.project_progress')
    .selectAll()
    .orderBy('project_slug')
    .execute();
}

/** Current progress of each language over the mirrored projects. */
export function listLanguageProgress(db: Kysely<Database>): Promise<LanguageProgressRow[]> {
  return views(db)
    .selectFrom('weblate.language_progress')
    .selectAll()
    .orderBy('language_code')
    .execute();
}

/** Each project's progress at the end of each UTC day in [from, to]. */
export function listProjectProgressDaily(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ProjectProgressDailyRow[]> {
  return views(db)
    .selectFrom('weblate.project_progress_daily')
    .selectAll()
    .where(narrowedBy(filter, ['project', 'days']))
    .orderBy('project_slug')
    .orderBy('day')
    .execute();
}

/** Each language's progress at the end of each UTC day in [from, to]. */
export function listLanguageProgressDaily(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<LanguageProgressDailyRow[]> {
  return views(db)
    .selectFrom('weblate.language_progress_daily')
    .selectAll()
    .where(narrowedBy(filter, ['language', 'days']))
    .orderBy('language_code')
    .orderBy('day')
    .execute();
}

/** Changes (and words translated) per UTC day, project, component, language, author and action. */
export function listActivityDaily(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ActivityDailyRow[]> {
  return views(db)
    .selectFrom('weblate.activity_daily')
    .selectAll()
    .where(narrowedBy(filter, ['project', 'language', 'days']))
    .orderBy('day')
    .orderBy('project_slug')
    .orderBy('component_slug')
    .orderBy('language_code')
    .orderBy('author_name')
    .orderBy('action')
    .execute();
}

/** Contributors per language, most words translated in the last 30 days first. */
export function listContributors(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ContributorRow[]> {
  return views(db)
    .selectFrom('weblate.contributors')
    .selectAll()
    .where(narrowedBy(filter, ['language']))
    .orderBy('words_30d', 'desc')
    .orderBy('author_name')
    .orderBy('language_code')
    .execute();
}

/** Live translations with strings left that have had no change for at least minDays days. */
export function listStalledTranslations(
  db: Kysely<Database>,
  minDays: number,
  filter: ReportFilter = {},
): Promise<StalledTranslationRow[]> {
  return views(db)
    .selectFrom('weblate.stalled_translations')
    .selectAll()
    .where('days_since_last_change', '>=', minDays)
    .where(narrowedBy(filter, ['project', 'language']))
    .orderBy('days_since_last_change', 'desc')
    .orderBy('translation_id')
    .execute();
}

/** Translation rate over the last 30 days and projected completion of each live translation. */
export function listCompletionForecast(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<CompletionForecastRow[]> {
  return views(db)
    .selectFrom('weblate.completion_forecast')
    .selectAll()
    .where(narrowedBy(filter, ['project', 'language']))
    .orderBy('project_slug')
    .orderBy('component_slug')
    .orderBy('language_code')
    .execute();
}

/** Translation rate and projected completion of each language over the mirrored projects. */
export function listLanguageCompletionForecast(
  db: Kysely<Database>,
): Promise<LanguageCompletionForecastRow[]> {
  return views(db)
    .selectFrom('weblate.language_completion_forecast')
    .selectAll()
    .orderBy('language_code')
    .execute();
}

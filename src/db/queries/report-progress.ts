import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { Database } from '../database.ts';
import { filterConditions, iso, progressArguments, type ReportFilter } from './report-scope.ts';

// Progress, now and by day (see report-scope.ts). Groups are summed by the functions of
// migration 0005 (weblate.progress_by_project and the others), which the views
// project_progress, component_progress, language_progress and the *_daily ones read with no
// filter: a filtered read sums exactly as the views do, and nothing is summed here.

/** Progress figures of a translation or a group of them; Count is number (integer) or string (bigint). */
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

/** What identifies a translation in the per-translation views. */
export interface TranslationKey {
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

/** Figures summed over a group of translations, on one day. */
export interface SummedDayProgress extends ProgressFigures<string> {
  translations: string;
}

/** Figures summed over a group of translations, now. */
export interface SummedProgress extends SummedDayProgress {
  failing_words: string;
  last_change: string | null;
}

export interface ComponentProgressRow extends SummedProgress {
  component_id: number;
  component_slug: string;
  component_name: string;
  project_id: number;
  project_slug: string;
}

export interface ProjectProgressRow extends SummedProgress {
  project_id: number;
  project_slug: string;
  project_name: string;
  components: string;
}

export interface LanguageProgressRow extends SummedProgress {
  language_code: string;
  language_name: string | null;
  projects: string;
  components: string;
}

/** How much of a day's group is estimated rather than measured (see docs/history.md). */
export interface DayOrigin {
  estimated_translations: string;
  origin: 'measured' | 'estimated';
}

export interface ProjectProgressDailyRow extends SummedDayProgress, DayOrigin {
  day: string;
  project_id: number;
  project_slug: string;
  components: string;
}

export interface LanguageProgressDailyRow extends SummedDayProgress, DayOrigin {
  day: string;
  language_code: string;
  components: string;
}

const DAY_FIGURES = [
  'translations',
  'total',
  'total_words',
  'translated',
  'translated_words',
  'translated_percent',
  'translated_words_percent',
  'fuzzy',
  'fuzzy_words',
  'fuzzy_percent',
  'approved',
  'approved_words',
  'approved_percent',
  'failing',
  'failing_percent',
  'untranslated',
  'untranslated_words',
] as const satisfies readonly (keyof SummedDayProgress)[];

/** Columns of rows named `f`, as they are. */
function columns(names: readonly string[]): RawBuilder<unknown> {
  return sql.join(names.map((name) => sql.ref(`f.${name}`)));
}

/** The key columns, then the figures of a day; `f` is the row. */
function dayColumns(keys: readonly string[]): RawBuilder<unknown> {
  return columns([...keys, ...DAY_FIGURES, 'estimated_translations', 'origin']);
}

/** The key columns, then the figures of now, the last change in ISO 8601. */
export function currentColumns(keys: readonly string[]): RawBuilder<unknown> {
  return sql`${columns([...keys, ...DAY_FIGURES, 'failing_words'])},
    ${iso(sql`f.last_change`)} as last_change`;
}

/** Current progress of each live translation (source-language translations left out). */
export async function listTranslationProgress(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<TranslationProgressRow[]> {
  const result = await sql<TranslationProgressRow>`
    select ${columns([
      'translation_id',
      'project_id',
      'project_slug',
      'component_id',
      'component_slug',
      'language_code',
      'language_id',
      'language_name',
      ...DAY_FIGURES.filter((name) => name !== 'translations'),
      'failing_words',
    ])},
           ${iso(sql`f.last_change`)} as last_change,
           ${iso(sql`f.statistics_seen_at`)} as statistics_seen_at
    from weblate.translation_progress f
    where true ${filterConditions(filter, {
      project: 'f.project_slug',
      language: 'f.language_code',
      component: 'f.component_slug',
    })}
    order by f.project_slug, f.component_slug, f.language_code`.execute(db);
  return result.rows;
}

/**
 * Current progress of each live project in the filter, over its translations into the
 * filter's language; with a language, only the projects that have a translation into it.
 */
export async function listProjectProgress(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ProjectProgressRow[]> {
  const result = await sql<ProjectProgressRow>`
    select ${currentColumns(['project_id', 'project_slug', 'project_name', 'components'])}
    from weblate.progress_by_project(${progressArguments(filter)}) f
    order by f.project_slug`.execute(db);
  return result.rows;
}

/** Current progress of each live component, narrowed like the projects. */
export async function listComponentProgress(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ComponentProgressRow[]> {
  const keys = ['component_id', 'component_slug', 'component_name', 'project_id', 'project_slug'];
  const result = await sql<ComponentProgressRow>`
    select ${currentColumns(keys)}
    from weblate.progress_by_component(${progressArguments(filter)}) f
    order by f.project_slug, f.component_slug`.execute(db);
  return result.rows;
}

/** Current progress of each language over the live translations in the filter. */
export async function listLanguageProgress(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<LanguageProgressRow[]> {
  const result = await sql<LanguageProgressRow>`
    select ${currentColumns(['language_code', 'language_name', 'projects', 'components'])}
    from weblate.progress_by_language(${progressArguments(filter)}) f
    order by f.language_code`.execute(db);
  return result.rows;
}

/** Current progress of every live translation in the filter together: one row. */
export async function readProgressTotal(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<SummedProgress> {
  const result = await sql<SummedProgress>`
    select ${currentColumns([])}
    from weblate.progress_total(${progressArguments(filter)}) f`.execute(db);
  return result.rows[0]!;
}

/** Each project's progress at the end of each UTC day of the filter. */
export async function listProjectProgressDaily(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ProjectProgressDailyRow[]> {
  const result = await sql<ProjectProgressDailyRow>`
    select ${dayColumns(['day', 'project_id', 'project_slug', 'components'])}
    from weblate.progress_by_project_daily(${progressArguments(filter)}) f
    where true ${filterConditions(filter, { day: 'f.day' })}
    order by f.project_slug, f.day`.execute(db);
  return result.rows;
}

/** Each language's progress at the end of each UTC day of the filter. */
export async function listLanguageProgressDaily(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<LanguageProgressDailyRow[]> {
  const result = await sql<LanguageProgressDailyRow>`
    select ${dayColumns(['day', 'language_code', 'components'])}
    from weblate.progress_by_language_daily(${progressArguments(filter)}) f
    where true ${filterConditions(filter, { day: 'f.day' })}
    order by f.language_code, f.day`.execute(db);
  return result.rows;
}

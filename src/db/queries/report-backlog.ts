import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import type { TranslationKey } from './report-progress.ts';
import { filterConditions, iso, progressArguments, type ReportFilter } from './report-scope.ts';

// Translations that need work: how long they have been idle, and when they may be done
// (see report-scope.ts).

export interface StalledSectionRow {
  project_slug: string;
  component_slug: string;
  language_code: string;
  total: number | null;
  untranslated: number | null;
  untranslated_words: number | null;
  translated_percent: string | null;
  idle_since: string;
  days_since_last_change: number;
  last_author: string | null;
  matching: string;
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
  /** Null where the history does not reach back 30 days (see pace_known_from). */
  words_translated_30d: string | null;
  words_per_day: string | null;
  projected_completion: string | null;
  pace_origin: 'measured' | 'estimated' | null;
  pace_known_from: string | null;
}

export interface LanguageCompletionForecastRow {
  language_code: string;
  translations: string;
  total_words: string;
  translated_words: string;
  untranslated_words: string;
  words_translated_30d: string | null;
  words_per_day: string | null;
  projected_completion: string | null;
  pace_translations: string;
  pace_origin: 'measured' | 'estimated' | null;
  pace_known_from: string | null;
}

/** The columns of the per-translation views that a filter narrows. */
const TRANSLATION_COLUMNS = {
  project: 's.project_slug',
  language: 's.language_code',
  component: 's.component_slug',
} as const;

/**
 * Live translations with strings left, idle since before `since` began (UTC): no change and
 * no move of their translated strings in the history since (idle_translations), longest
 * idle first.
 */
export async function listStalledSection(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { since: string; limit: number },
): Promise<StalledSectionRow[]> {
  const result = await sql<StalledSectionRow>`
    select s.project_slug, s.component_slug, s.language_code, s.total, s.untranslated,
           s.untranslated_words, s.translated_percent, ${iso(sql`s.idle_since`)} as idle_since,
           s.days_since_last_change, s.last_author,
           count(*) over () as matching
    from weblate.idle_translations(${progressArguments(filter)}) s
    where s.idle_since < (${options.since}::date)::timestamp at time zone 'UTC'
    order by s.idle_since, s.untranslated_words desc nulls last, s.translation_id
    limit ${options.limit}`.execute(db);
  return result.rows;
}

/** Live translations with strings left that have been idle for at least `minDays` days. */
export async function listStalledTranslations(
  db: Kysely<Database>,
  minDays: number,
  filter: ReportFilter = {},
): Promise<StalledTranslationRow[]> {
  const result = await sql<StalledTranslationRow>`
    select s.translation_id, s.project_id, s.project_slug, s.component_id, s.component_slug,
           s.language_code, s.total, s.untranslated, s.untranslated_words, s.translated_percent,
           ${iso(sql`s.last_change`)} as last_change, s.last_author,
           ${iso(sql`s.idle_since`)} as idle_since, s.days_since_last_change
    from weblate.idle_translations(${progressArguments(filter)}) s
    where s.days_since_last_change >= ${minDays}
    order by s.days_since_last_change desc, s.translation_id`.execute(db);
  return result.rows;
}

/** Net pace over the last 30 days of the history and projected completion of each live translation. */
export async function listCompletionForecast(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<CompletionForecastRow[]> {
  const result = await sql<CompletionForecastRow>`
    select s.translation_id, s.project_id, s.project_slug, s.component_id, s.component_slug,
           s.language_code, s.total_words, s.translated_words, s.untranslated_words,
           s.words_translated_30d, s.words_per_day, s.projected_completion::text,
           s.pace_origin, s.pace_known_from::text
    from weblate.completion_forecast s
    where true ${filterConditions(filter, TRANSLATION_COLUMNS)}
    order by s.project_slug, s.component_slug, s.language_code`.execute(db);
  return result.rows;
}

/** Translation rate and projected completion of each language over the mirrored projects. */
export async function listLanguageCompletionForecast(
  db: Kysely<Database>,
): Promise<LanguageCompletionForecastRow[]> {
  const result = await sql<LanguageCompletionForecastRow>`
    select f.language_code, f.translations, f.total_words, f.translated_words,
           f.untranslated_words, f.words_translated_30d, f.words_per_day,
           f.projected_completion::text, f.pace_translations, f.pace_origin,
           f.pace_known_from::text
    from weblate.language_completion_forecast f
    order by f.language_code`.execute(db);
  return result.rows;
}

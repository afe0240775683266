import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import { answerArguments, type PeriodUnit } from './report-answers.ts';
import type { DayRange, ReportFilter } from './report-scope.ts';

// Whether a release can ship: languages against thresholds of translated words, and
// failing checks over time (see report-scope.ts for the types of the figures).

/** The thresholds of release readiness, in percent of words. */
export const READINESS_THRESHOLDS = [80, 90, 95] as const;

export interface ReadinessRow {
  project_slug: string;
  language_code: string;
  threshold: string;
  total_words: string;
  translated_words: string;
  translated_words_percent: string | null;
  is_reached: boolean;
  words_needed: string;
  words_per_day: string | null;
  projected_date: string | null;
  translations: string;
  pace_translations: string;
  words_translated_30d: string | null;
  pace_origin: 'measured' | 'estimated' | null;
  pace_known_from: string | null;
  status: string;
}

export interface FailingChecksRow {
  period_start: string;
  day: string;
  translations: string;
  failing: string;
  total: string;
  failing_percent: string | null;
}

/** Each project and language against each of READINESS_THRESHOLDS (release_readiness per project). */
export async function listReleaseReadiness(
  db: Kysely<Database>,
  filter: ReportFilter,
): Promise<ReadinessRow[]> {
  const thresholds = sql.join(READINESS_THRESHOLDS.map((t) => sql`${t}`));
  const result = await sql<ReadinessRow>`
    select r.project_slug, r.language_code, r.threshold, r.total_words, r.translated_words,
           r.translated_words_percent, r.is_reached, r.words_needed, r.words_per_day,
           r.projected_date::text as projected_date, r.translations, r.pace_translations,
           r.words_translated_30d, r.pace_origin, r.pace_known_from::text as pace_known_from, r.status
    from weblate.release_readiness('project', array[${thresholds}]::numeric[],
      ${answerArguments(filter)}) r
    order by r.project_slug, r.language_code, r.threshold`.execute(db);
  return result.rows;
}

/**
 * Strings with failing checks per period over everything in scope: each translation's
 * last measured day of the period, summed (failing_checks per language, summed).
 */
export async function listFailingChecks(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { window: DayRange; period: PeriodUnit },
): Promise<FailingChecksRow[]> {
  const args = answerArguments(filter, { window: options.window });
  const result = await sql<FailingChecksRow>`
    select f.period_start::text as period_start, max(f.day)::text as day,
           sum(f.translations)::bigint as translations, sum(f.failing)::bigint as failing,
           sum(f.total)::bigint as total,
           weblate.truncated_percent(sum(f.failing)::bigint, sum(f.total)::bigint) as failing_percent
    from weblate.failing_checks(${options.period}, 'language', ${args}) f
    group by f.period_start
    order by f.period_start`.execute(db);
  return result.rows;
}

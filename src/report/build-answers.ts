import type { Kysely } from 'kysely';

import type { Database } from '../db/database.ts';
import type { PeriodUnit } from '../db/queries/report-answers.ts';
import { listFailingChecks, listReleaseReadiness } from '../db/queries/report-readiness.ts';
import { listApprovalTimes, listReviewWaiting } from '../db/queries/report-review.ts';
import type { DayRange, ReportFilter } from '../db/queries/report-scope.ts';
import {
  listContributorRanking,
  listNewWork,
  listTranslationMethods,
} from '../db/queries/report-work.ts';
import { daysBetween } from './days.ts';
import type { Report } from './model.ts';
import { ranked, withNumbers } from './numbers.ts';

/** Windows up to this many days are read by week, longer ones by month. */
export const MAX_WEEKLY_DAYS = 92;

/** The period of the report's periodic sections: weeks, or months over a long window. */
export function periodOf(window: DayRange): PeriodUnit {
  return daysBetween(window).length <= MAX_WEEKLY_DAYS ? 'week' : 'month';
}

type Answers = Pick<
  Report,
  | 'period'
  | 'new_work'
  | 'contributor_ranking'
  | 'review'
  | 'translation_methods'
  | 'release_readiness'
  | 'quality'
>;

/**
 * The sections read from the answer functions of migration 0010: new work, contributors
 * ranked, review, translation methods, release readiness and failing checks.
 */
export async function buildAnswers(
  db: Kysely<Database>,
  scope: ReportFilter,
  options: { window: DayRange; limit: number },
): Promise<Answers> {
  const { window, limit } = options;
  const period = periodOf(window);
  const newWork = await listNewWork(db, scope, { window, period });
  const contributors = await listContributorRanking(db, scope, { window, limit });
  const waiting = await listReviewWaiting(db, scope, limit);
  const approval = await listApprovalTimes(db, scope, { window, limit });
  const methods = await listTranslationMethods(db, scope, { window, period });
  const readiness = await listReleaseReadiness(db, scope);
  const failing = await listFailingChecks(db, scope, { window, period });
  return {
    period,
    new_work: newWork.map((r) =>
      withNumbers(r, ['strings_added', 'words_added', 'strings_removed', 'words_removed']),
    ),
    contributor_ranking: ranked(contributors, (r) =>
      withNumbers(r, [
        'rank',
        'strings_translated',
        'words_translated',
        'strings_approved',
        'words_approved',
        'strings_suggested',
        'comments',
      ]),
    ),
    review: {
      waiting: ranked(waiting, (r) =>
        withNumbers(r, ['strings_waiting', 'words_waiting', 'over_7_days']),
      ),
      approval: ranked(approval, (r) =>
        withNumbers(r, ['approvals', 'measured', 'median_hours', 'average_hours', 'max_hours']),
      ),
    },
    translation_methods: methods.map((r) => withNumbers(r, ['strings_saved', 'words_saved'])),
    release_readiness: readiness.map((r) =>
      withNumbers(r, [
        'threshold',
        'total_words',
        'translated_words',
        'translated_words_percent',
        'words_needed',
        'words_per_day',
        'translations',
        'pace_translations',
        'words_translated_30d',
      ]),
    ),
    quality: failing.map((r) =>
      withNumbers(r, ['translations', 'failing', 'total', 'failing_percent']),
    ),
  };
}

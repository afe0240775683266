import { formatSection } from './csv-section.ts';
import type {
  ApprovalTime,
  ContributorRank,
  FailingPeriod,
  MethodPeriod,
  NewWorkPeriod,
  Readiness,
  Report,
  ReviewWaiting,
} from './model.ts';

// The CSV tables of the answer functions' sections (see render-csv.ts).

const NEW_WORK_COLUMNS = [
  'period_start',
  'strings_added',
  'words_added',
  'strings_removed',
  'words_removed',
] as const satisfies readonly (keyof NewWorkPeriod)[];

const CONTRIBUTOR_RANK_COLUMNS = [
  'rank',
  'username',
  'full_name',
  'strings_translated',
  'words_translated',
  'strings_approved',
  'words_approved',
  'strings_suggested',
  'comments',
  'languages',
] as const satisfies readonly (keyof ContributorRank)[];

const REVIEW_WAITING_COLUMNS = [
  'project_slug',
  'language_code',
  'strings_waiting',
  'words_waiting',
  'waiting_since',
  'oldest_days',
  'over_7_days',
] as const satisfies readonly (keyof ReviewWaiting)[];

const APPROVAL_COLUMNS = [
  'project_slug',
  'language_code',
  'approvals',
  'measured',
  'median_hours',
  'average_hours',
  'max_hours',
] as const satisfies readonly (keyof ApprovalTime)[];

const METHOD_COLUMNS = [
  'period_start',
  'method',
  'strings_saved',
  'words_saved',
] as const satisfies readonly (keyof MethodPeriod)[];

const READINESS_COLUMNS = [
  'project_slug',
  'language_code',
  'threshold',
  'total_words',
  'translated_words',
  'translated_words_percent',
  'is_reached',
  'words_needed',
  'words_per_day',
  'projected_date',
  'translations',
  'pace_translations',
  'words_translated_30d',
  'pace_origin',
  'pace_known_from',
  'status',
] as const satisfies readonly (keyof Readiness)[];

const QUALITY_COLUMNS = [
  'period_start',
  'day',
  'translations',
  'failing',
  'total',
  'failing_percent',
] as const satisfies readonly (keyof FailingPeriod)[];

/** new_work … quality, in the report's order. */
export function answerCsvSections(report: Report): string[] {
  return [
    formatSection('new_work', NEW_WORK_COLUMNS, report.new_work),
    formatSection('contributor_ranking', CONTRIBUTOR_RANK_COLUMNS, report.contributor_ranking.rows),
    formatSection('review_waiting', REVIEW_WAITING_COLUMNS, report.review.waiting.rows),
    formatSection('review_approval', APPROVAL_COLUMNS, report.review.approval.rows),
    formatSection('translation_methods', METHOD_COLUMNS, report.translation_methods),
    formatSection('release_readiness', READINESS_COLUMNS, report.release_readiness),
    formatSection('quality', QUALITY_COLUMNS, report.quality),
  ];
}

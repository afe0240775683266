import { answerCsvSections } from './csv-answers.ts';
import { effortCsvSections } from './csv-effort.ts';
import { formatSection } from './csv-section.ts';
import type {
  ActivityDay,
  CategoryProgress,
  ComponentProgress,
  Contributor,
  LabelProgress,
  LanguageDay,
  LanguageProgress,
  Mover,
  Progress,
  ProjectProgress,
  Report,
  StalledTranslation,
} from './model.ts';

/**
 * The report as CSV, one table per section, as README.md#weblate-mirror-report describes; a
 * section --label leaves out is header only, a list (a contributor's languages) space-separated.
 */
export function renderCsv(report: Report): string {
  const meta = {
    generated_at: report.generated_at,
    instance: report.instance,
    projects: report.filters.projects,
    language: report.filters.language,
    since: report.filters.since,
    category: report.filters.category,
    label: report.filters.label,
    matched_labels: report.matched_labels,
    left_out: report.left_out,
    window_from: report.window.from,
    window_to: report.window.to,
  };
  return [
    formatSection('report', Object.keys(meta) as (keyof typeof meta)[], [meta]),
    formatSection('projects', PROJECT_COLUMNS, report.projects),
    formatSection('languages', LANGUAGE_COLUMNS, report.languages),
    formatSection('components', COMPONENT_COLUMNS, report.components),
    formatSection('categories', CATEGORY_COLUMNS, report.categories),
    formatSection('labels', LABEL_COLUMNS, report.labels),
    ...report.movers.map((w) => formatSection(`movers_${w.name}`, MOVER_COLUMNS, w.rows)),
    formatSection('contributors', CONTRIBUTOR_COLUMNS, report.contributors.rows),
    formatSection('stalled', STALLED_COLUMNS, report.stalled.rows),
    formatSection('language_history', LANGUAGE_DAY_COLUMNS, report.language_history),
    formatSection('activity', ACTIVITY_COLUMNS, report.activity),
    ...answerCsvSections(report),
    ...effortCsvSections(report),
  ].join('\r\n');
}

const PROGRESS_COLUMNS = [
  'translations',
  'total',
  'translated',
  'translated_percent',
  'total_words',
  'translated_words',
  'translated_words_percent',
  'fuzzy',
  'approved',
  'failing',
  'untranslated',
  'untranslated_words',
  'last_change',
] as const satisfies readonly (keyof Progress)[];

const PROJECT_COLUMNS = [
  'project_slug',
  'project_name',
  'components',
  ...PROGRESS_COLUMNS,
] as const satisfies readonly (keyof ProjectProgress)[];

const LANGUAGE_COLUMNS = [
  'language_code',
  'language_name',
  'projects',
  'components',
  ...PROGRESS_COLUMNS,
] as const satisfies readonly (keyof LanguageProgress)[];

const COMPONENT_COLUMNS = [
  'project_slug',
  'component_slug',
  'component_name',
  ...PROGRESS_COLUMNS,
] as const satisfies readonly (keyof ComponentProgress)[];

const CATEGORY_COLUMNS = [
  'project_slug',
  'path',
  'category_id',
  'category_slug',
  'category_name',
  'parent_id',
  'depth',
  'components',
  ...PROGRESS_COLUMNS,
] as const satisfies readonly (keyof CategoryProgress)[];

const LABEL_COLUMNS = [
  'project_slug',
  'label_id',
  'label_name',
  'language_code',
  'translations',
  'total',
  'total_words',
  'translated',
  'translated_words',
  'translated_percent',
  'translated_words_percent',
  'fuzzy',
  'approved',
  'approved_percent',
  'failing',
  'untranslated',
  'untranslated_words',
  'history_from_day',
  'translated_percent_then',
  'translated_percent_change',
] as const satisfies readonly (keyof LabelProgress)[];

const MOVER_COLUMNS = [
  'project_slug',
  'component_slug',
  'language_code',
  'from_day',
  'from_origin',
  'translated_percent_then',
  'translated_percent_now',
  'translated_percent_change',
  'translated_words_before',
  'translated_words_now',
  'translated_words_change',
] as const satisfies readonly (keyof Mover)[];

const CONTRIBUTOR_COLUMNS = [
  'author_name',
  'credited_changes',
  'credited_words',
  'languages',
  'last_day',
] as const satisfies readonly (keyof Contributor)[];

const STALLED_COLUMNS = [
  'project_slug',
  'component_slug',
  'language_code',
  'total',
  'untranslated',
  'untranslated_words',
  'translated_percent',
  'idle_since',
  'days_since_last_change',
  'last_author',
] as const satisfies readonly (keyof StalledTranslation)[];

const LANGUAGE_DAY_COLUMNS = [
  'day',
  'language_code',
  'translations',
  'total',
  'translated',
  'translated_percent',
  'total_words',
  'translated_words',
  'translated_words_percent',
  'origin',
  'estimated_translations',
] as const satisfies readonly (keyof LanguageDay)[];

const ACTIVITY_COLUMNS = [
  'day',
  'changes',
  'words_translated',
  'authors',
] as const satisfies readonly (keyof ActivityDay)[];

export { csvField } from './csv-section.ts';

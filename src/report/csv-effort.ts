import { formatSection } from './csv-section.ts';
import type {
  CostBucket,
  MachineTranslation,
  OverTarget,
  Report,
  StateTime,
  TranslatorWork,
  TranslatorWorkPerson,
} from './model.ts';

// The CSV tables of the effort sections (see render-csv.ts).

const WORK_FIGURES = [
  'user_days_included',
  'user_days_excluded',
  'strings_median',
  'strings_mean',
  'strings_p75',
  'strings_p90',
  'words_median',
  'words_mean',
  'words_p75',
  'words_p90',
] as const;

const WORK_COLUMNS = [
  'translators',
  'authors_unverified',
  ...WORK_FIGURES,
] as const satisfies readonly (keyof TranslatorWork)[];

const PERSON_COLUMNS = [
  'username',
  ...WORK_FIGURES,
] as const satisfies readonly (keyof TranslatorWorkPerson)[];

const COST_COLUMNS = [
  'bucket',
  'estimate_strings',
  'estimate_words',
  'estimate_chars',
  'rate',
  'cost',
  'approximate',
  'approximation',
] as const satisfies readonly (keyof CostBucket)[];

const MACHINE_COLUMNS = [
  'project_slug',
  'language_code',
  'filled',
  'kept',
  'edited',
  'replaced',
  'superseded',
  'edits_0',
  'edits_1_10',
  'edits_11_30',
  'edits_31_60',
  'edits_over_60',
  'median_edit_percent',
  'p90_edit_percent',
  'median_hours_to_person',
  'p90_hours_to_person',
] as const satisfies readonly (keyof MachineTranslation)[];

const STATE_COLUMNS = [
  'project_slug',
  'language_code',
  'state',
  'spans',
  'ended',
  'still_open',
  'median_hours_in_state',
  'p90_hours_in_state',
] as const satisfies readonly (keyof StateTime)[];

// No source text: it may hold line breaks, and a CSV line is a row (the JSON has it).
const OVER_TARGET_COLUMNS = [
  'project_slug',
  'component_slug',
  'language_code',
  'unit_id',
  'state',
  'since',
  'days_in_state',
] as const satisfies readonly (keyof OverTarget)[];

/** translator_work … over_target, in the report's order; per person only with --people. */
export function effortCsvSections(report: Report): string[] {
  const { effort } = report;
  return [
    formatSection('translator_work', WORK_COLUMNS, [effort.translator_work]),
    ...(effort.translator_work_people === null
      ? []
      : [
          formatSection(
            'translator_work_people',
            PERSON_COLUMNS,
            effort.translator_work_people.rows,
          ),
        ]),
    ...(effort.cost === null ? [] : [formatSection('cost_estimate', COST_COLUMNS, effort.cost)]),
    formatSection('machine_translation', MACHINE_COLUMNS, effort.machine_translation.rows),
    formatSection('time_in_state', STATE_COLUMNS, effort.time_in_state.rows),
    formatSection('over_target', OVER_TARGET_COLUMNS, effort.over_target.rows),
  ];
}

import { formatHours } from './answer-rows.ts';
import { BUCKET_LABELS, effortTitles, formatCost, formatFigure } from './effort-rows.ts';
import { formatCount, formatPercent } from './format.ts';
import type {
  CostBucket,
  MachineTranslation,
  OverTarget,
  Report,
  StateTime,
  TranslatorWork,
  TranslatorWorkFigures,
  TranslatorWorkPerson,
} from './model.ts';
import { type Column, fig, formatColumns, section } from './text-table.ts';

// The text tables of translator work, the remaining cost, machine translation and time in
// each state.

function workColumns<Row extends TranslatorWorkFigures>(): Column<Row>[] {
  return [
    fig('user_days_included', (r) => formatCount(r.user_days_included)),
    fig('user_days_excluded', (r) => formatCount(r.user_days_excluded)),
    fig('strings_median', (r) => formatFigure(r.strings_median)),
    fig('strings_mean', (r) => formatFigure(r.strings_mean)),
    fig('strings_p75', (r) => formatFigure(r.strings_p75)),
    fig('strings_p90', (r) => formatFigure(r.strings_p90)),
    fig('words_median', (r) => formatFigure(r.words_median)),
    fig('words_mean', (r) => formatFigure(r.words_mean)),
    fig('words_p75', (r) => formatFigure(r.words_p75)),
    fig('words_p90', (r) => formatFigure(r.words_p90)),
  ];
}

const PROJECT_LANGUAGE: Column<{ project_slug: string; language_code: string }>[] = [
  { header: 'project', cell: (r) => r.project_slug },
  { header: 'language', cell: (r) => r.language_code },
];

function workSections(report: Report, titles: ReturnType<typeof effortTitles>): string[] {
  const { translator_work: work, translator_work_people: people } = report.effort;
  const sections = [
    section(
      titles.work,
      formatColumns<TranslatorWork>(
        [fig('translators', (r) => formatCount(r.translators)), ...workColumns<TranslatorWork>()],
        [work],
        '',
      ),
    ),
  ];
  if (people !== null)
    sections.push(
      section(
        titles.people,
        formatColumns<TranslatorWorkPerson>(
          [{ header: 'person', cell: (r) => r.username }, ...workColumns<TranslatorWorkPerson>()],
          people.rows,
          '(nobody translated)',
        ),
        people,
      ),
    );
  return sections;
}

function costSection(report: Report, titles: ReturnType<typeof effortTitles>): string[] {
  if (report.effort.cost === null) return [];
  return [
    section(
      titles.cost,
      formatColumns<CostBucket>(
        [
          { header: 'bucket', cell: (r) => BUCKET_LABELS[r.bucket] ?? r.bucket },
          fig('estimate_strings', (r) => formatCount(r.estimate_strings)),
          fig('estimate_words', (r) => formatCount(r.estimate_words)),
          fig('estimate_chars', (r) => formatCount(r.estimate_chars)),
          fig('rate', (r) => (r.rate === null ? '' : `${formatFigure(r.rate)} %`)),
          fig('cost', (r) => formatCost(r.cost)),
          { header: 'approximate', cell: (r) => (r.approximate ? 'yes' : '') },
        ],
        report.effort.cost,
        '(nothing left to translate)',
      ),
    ),
  ];
}

function machineSection(report: Report, titles: ReturnType<typeof effortTitles>): string {
  const list = report.effort.machine_translation;
  return section(
    titles.machine,
    formatColumns<MachineTranslation>(
      [
        ...PROJECT_LANGUAGE,
        fig('filled', (r) => formatCount(r.filled)),
        fig('kept', (r) => formatCount(r.kept)),
        fig('edited', (r) => formatCount(r.edited)),
        fig('replaced', (r) => formatCount(r.replaced)),
        fig('superseded', (r) => formatCount(r.superseded)),
        fig('edits_0', (r) => formatCount(r.edits_0)),
        fig('edits_1_10', (r) => formatCount(r.edits_1_10)),
        fig('edits_11_30', (r) => formatCount(r.edits_11_30)),
        fig('edits_31_60', (r) => formatCount(r.edits_31_60)),
        fig('edits_over_60', (r) => formatCount(r.edits_over_60)),
        fig('median_edit_percent', (r) => formatPercent(r.median_edit_percent)),
        fig('p90_edit_percent', (r) => formatPercent(r.p90_edit_percent)),
        fig('median_hours_to_person', (r) => formatHours(r.median_hours_to_person)),
        fig('p90_hours_to_person', (r) => formatHours(r.p90_hours_to_person)),
      ],
      list.rows,
      '(no string filled automatically)',
    ),
    list,
  );
}

function stateSections(report: Report, titles: ReturnType<typeof effortTitles>): string[] {
  const { time_in_state: states, over_target: over } = report.effort;
  return [
    section(
      titles.states,
      formatColumns<StateTime>(
        [
          ...PROJECT_LANGUAGE,
          { header: 'state', cell: (r) => r.state },
          fig('spans', (r) => formatCount(r.spans)),
          fig('ended', (r) => formatCount(r.ended)),
          fig('still_open', (r) => formatCount(r.still_open)),
          fig('median_hours_in_state', (r) => formatHours(r.median_hours_in_state)),
          fig('p90_hours_in_state', (r) => formatHours(r.p90_hours_in_state)),
        ],
        states.rows,
        '(no state changes)',
      ),
      states,
    ),
    section(
      titles.over,
      formatColumns<OverTarget>(
        [
          ...PROJECT_LANGUAGE,
          { header: 'component', cell: (r) => r.component_slug },
          { header: 'in state since', cell: (r) => r.since.slice(0, 10) },
          fig('days_in_state', (r) => formatCount(r.days_in_state)),
          { header: 'source', cell: (r) => r.source.join(' | ') },
        ],
        over.rows,
        '(none)',
      ),
      over,
    ),
  ];
}

/** The effort sections, in the report's order. */
export function effortSections(report: Report): string[] {
  const titles = effortTitles(report);
  return [
    ...workSections(report, titles),
    ...costSection(report, titles),
    machineSection(report, titles),
    ...stateSections(report, titles),
  ];
}

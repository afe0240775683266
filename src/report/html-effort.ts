import { formatHours } from './answer-rows.ts';
import { BUCKET_LABELS, effortTitles, formatCost, formatFigure } from './effort-rows.ts';
import { formatCount, formatPercent } from './format.ts';
import {
  type Column,
  cutNote,
  e,
  eDates,
  fig,
  key,
  type Names,
  renderTable,
} from './html-table.ts';
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

// The page's tables of translator work, the remaining cost, machine translation and time in
// each state.

type Titles = ReturnType<typeof effortTitles>;

function section(id: string, title: string, body: string): string {
  return `<section id="${id}"><h2>${eDates(title)}</h2>${body}</section>`;
}

function projectLanguage<Row extends { project_slug: string; language_code: string }>(
  names: Names,
): Column<Row>[] {
  return [
    { header: 'project', cell: (r) => e(names.project(r.project_slug)) },
    { header: 'language', cell: (r) => e(names.language(r.language_code)) },
  ];
}

function workColumns<Row extends TranslatorWorkFigures>(): Column<Row>[] {
  return [
    key(fig('strings_median', (r) => formatFigure(r.strings_median))),
    fig('user_days_included', (r) => formatCount(r.user_days_included)),
    fig('user_days_excluded', (r) => formatCount(r.user_days_excluded)),
    fig('strings_mean', (r) => formatFigure(r.strings_mean)),
    fig('strings_p75', (r) => formatFigure(r.strings_p75)),
    fig('strings_p90', (r) => formatFigure(r.strings_p90)),
    fig('words_median', (r) => formatFigure(r.words_median)),
    fig('words_mean', (r) => formatFigure(r.words_mean)),
    fig('words_p75', (r) => formatFigure(r.words_p75)),
    fig('words_p90', (r) => formatFigure(r.words_p90)),
  ];
}

function renderWork(report: Report, titles: Titles): string {
  const { translator_work: work, translator_work_people: people } = report.effort;
  const everyone = renderTable<TranslatorWork>(
    [{ header: 'translators', cell: (r) => formatCount(r.translators) }, ...workColumns()],
    [work],
    { empty: '', className: 'translator-work' },
  );
  const perPerson =
    people === null
      ? ''
      : `<h3>${eDates(titles.people)}</h3>${renderTable<TranslatorWorkPerson>(
          [{ header: 'person', cell: (r) => e(r.username) }, ...workColumns()],
          people.rows,
          { empty: 'Nobody translated in this window.', className: 'translator-work-people' },
        )}${cutNote(people)}`;
  return section('translator-work', titles.work, everyone + perPerson);
}

function renderCost(report: Report, titles: Titles): string {
  if (report.effort.cost === null) return '';
  const table = renderTable<CostBucket>(
    [
      { header: 'bucket', cell: (r) => e(BUCKET_LABELS[r.bucket] ?? r.bucket) },
      key(fig('cost', (r) => formatCost(r.cost))),
      fig('estimate_strings', (r) => formatCount(r.estimate_strings)),
      fig('estimate_words', (r) => formatCount(r.estimate_words)),
      fig('estimate_chars', (r) => formatCount(r.estimate_chars)),
      fig('rate', (r) => (r.rate === null ? '' : `${formatFigure(r.rate)} %`)),
      { header: 'approximate', cell: (r) => e(r.approximate ? (r.approximation ?? 'yes') : '') },
    ],
    report.effort.cost,
    { empty: 'Nothing left to translate.', className: 'cost' },
  );
  return section('cost', titles.cost, table);
}

function renderMachine(report: Report, names: Names, titles: Titles): string {
  const list = report.effort.machine_translation;
  const table = renderTable<MachineTranslation>(
    [
      ...projectLanguage<MachineTranslation>(names),
      key(fig('filled', (r) => formatCount(r.filled))),
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
    { empty: 'No string filled automatically in this window.', className: 'machine-translation' },
  );
  return section('machine-translation', titles.machine, table + cutNote(list));
}

function renderStates(report: Report, names: Names, titles: Titles): string[] {
  const { time_in_state: states, over_target: over } = report.effort;
  const stateTable = renderTable<StateTime>(
    [
      ...projectLanguage<StateTime>(names),
      { header: 'state', cell: (r) => e(r.state) },
      key(fig('p90_hours_in_state', (r) => formatHours(r.p90_hours_in_state))),
      fig('median_hours_in_state', (r) => formatHours(r.median_hours_in_state)),
      fig('spans', (r) => formatCount(r.spans)),
      fig('ended', (r) => formatCount(r.ended)),
      fig('still_open', (r) => formatCount(r.still_open)),
    ],
    states.rows,
    { empty: 'No state changes in this window.', className: 'time-in-state' },
  );
  const overTable = renderTable<OverTarget>(
    [
      ...projectLanguage<OverTarget>(names),
      { header: 'component', cell: (r) => e(r.component_slug) },
      key(fig('days_in_state', (r) => formatCount(r.days_in_state))),
      { header: 'in state since', cell: (r) => eDates(r.since.slice(0, 10)) },
      { header: 'source', cell: (r) => e(r.source.join(' | ')) },
    ],
    over.rows,
    { empty: 'None.', className: 'over-target' },
  );
  return [
    section('time-in-state', titles.states, stateTable + cutNote(states)),
    section('over-target', titles.over, overTable + cutNote(over)),
  ];
}

/** The effort sections, in the report's order. */
export function renderEffort(report: Report, names: Names): string {
  const titles = effortTitles(report);
  return [
    renderWork(report, titles),
    renderCost(report, titles),
    renderMachine(report, names, titles),
    ...renderStates(report, names, titles),
  ].join('\n');
}

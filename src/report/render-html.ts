import { headingOf } from '../metrics/lookup.ts';
import { daysBetween } from './days.ts';
import {
  describeLeftOut,
  describeScope,
  formatChange,
  formatCount,
  formatInstant,
  formatPercent,
  formatRange,
  isShown,
  moverTitle,
} from './format.ts';
import { renderAnswers } from './html-answers.ts';
import { renderActivityChart, renderLanguageChart } from './html-charts.ts';
import { renderEffort } from './html-effort.ts';
import { renderCategories, renderLabels } from './html-groups.ts';
import { REPORT_STYLE } from './html-style.ts';
import {
  type Column,
  cutNote,
  e,
  eDates,
  fig,
  key,
  type Names,
  namesOf,
  progressColumns,
  renderTable,
} from './html-table.ts';
import type {
  ComponentProgress,
  LanguageProgress,
  Mover,
  ProjectProgress,
  Report,
  StalledTranslation,
} from './model.ts';

// One self-contained page: inline CSS and SVG, no script, no external resource (the
// Content-Security-Policy forbids loading any). Every interpolated text goes through
// escapeHtml; numbers and days are formatted here.

function change(value: number | null, decimals = 1): string {
  const cls = value === null || value === 0 ? '' : value > 0 ? ' class="up"' : ' class="down"';
  return `<span${cls}>${formatChange(value, decimals)}</span>`;
}

/** The headline figures, each under its metric's heading (the strings card: two of them). */
function renderSummary(report: Report): string {
  const { progress, activity } = report.totals;
  const cards: Array<[string, string]> = [
    [`${formatPercent(progress.translated_percent)}%`, headingOf('translated_percent')],
    [
      `${formatCount(progress.translated)} / ${formatCount(progress.total)}`,
      `${headingOf('translated')} / ${headingOf('total')}`,
    ],
    [formatCount(report.languages.length), headingOf('languages_in_scope')],
  ];
  if (isShown(report, 'components'))
    cards.push([formatCount(report.components.length), headingOf('components')]);
  if (isShown(report, 'activity'))
    cards.push(
      [formatCount(activity.changes), headingOf('changes')],
      [formatCount(activity.words_translated), headingOf('words_translated')],
    );
  if (isShown(report, 'contributors'))
    cards.push([formatCount(report.contributors.matching), headingOf('people_credited')]);
  return `<div class="cards">${cards.map(([v, l]) => `<div class="card"><b>${e(v)}</b><span>${e(l)}</span></div>`).join('')}</div>`;
}

/** The project, component and language columns of a translation, by name. */
function translationColumns<
  Row extends { project_slug: string; component_slug: string; language_code: string },
>(names: Names): Column<Row>[] {
  return [
    { header: 'project', cell: (r) => e(names.project(r.project_slug)) },
    { header: 'component', cell: (r) => e(names.component(r.project_slug, r.component_slug)) },
    { header: 'language', cell: (r) => e(names.language(r.language_code)) },
  ];
}

function renderProgressTables(report: Report, names: Names): string {
  const components = renderTable<ComponentProgress>(
    [
      { header: 'project', cell: (r) => e(names.project(r.project_slug)) },
      { header: 'component', cell: (r) => e(r.component_name) },
      ...progressColumns<ComponentProgress>(),
    ],
    report.components,
    {
      empty: 'No components.',
      className: 'components',
      rowAttributes: (r) =>
        ` data-project="${e(r.project_slug)}" data-component="${e(r.component_slug)}"` +
        ` data-translated="${r.translated}" data-total="${r.total}" data-percent="${formatPercent(r.translated_percent)}"`,
    },
  );
  const languages = renderTable<LanguageProgress>(
    [
      { header: 'language', cell: (r) => e(r.language_code) },
      { header: 'name', cell: (r) => e(r.language_name) },
      ...progressColumns<LanguageProgress>(),
    ],
    report.languages,
    { empty: 'No translations.', className: 'languages' },
  );
  const projects = renderTable<ProjectProgress>(
    [
      { header: 'project', cell: (r) => e(r.project_slug) },
      { header: 'name', cell: (r) => e(r.project_name) },
      ...progressColumns<ProjectProgress>(fig('components', (r) => formatCount(r.components))),
    ],
    report.projects,
    { empty: 'No projects.', className: 'projects' },
  );
  return [
    ...(isShown(report, 'projects')
      ? [`<section id="projects"><h2>Progress by project</h2>${projects}</section>`]
      : []),
    `<section id="languages"><h2>Progress by language</h2>${languages}</section>`,
    ...(isShown(report, 'components')
      ? [`<section id="components"><h2>Progress by component</h2>${components}</section>`]
      : []),
    renderCategories(report, names),
    renderLabels(report, names),
  ].join('\n');
}

function renderPeople(report: Report, names: Names): string {
  const movers = report.movers.map((w) => {
    const table = renderTable<Mover>(
      [
        ...translationColumns<Mover>(names),
        key(fig('translated_percent_change', (r) => change(r.translated_percent_change))),
        {
          header: 'from end of',
          cell: (r) =>
            eDates(r.from_origin === 'estimated' ? `${r.from_day} (estimated)` : r.from_day),
        },
        fig('translated_percent_then', (r) => formatPercent(r.translated_percent_then)),
        fig('translated_percent_now', (r) => formatPercent(r.translated_percent_now)),
        fig('translated_words_change', (r) => change(r.translated_words_change, 0)),
      ],
      w.rows,
      { empty: 'Nothing moved.', className: `movers movers-${w.name}` },
    );
    return `<section class="movers"><h2>${eDates(moverTitle(w))}</h2>${table}${cutNote(w)}</section>`;
  });
  const stalled = renderTable<StalledTranslation>(
    [
      ...translationColumns<StalledTranslation>(names),
      key(fig('untranslated', (r) => formatCount(r.untranslated))),
      fig('untranslated_words', (r) => formatCount(r.untranslated_words)),
      fig('translated_percent', (r) => formatPercent(r.translated_percent)),
      { header: headingOf('idle_since'), cell: (r) => eDates(r.idle_since.slice(0, 10)) },
      fig('days_since_last_change', (r) => formatCount(r.days_since_last_change)),
      { header: 'last author', cell: (r) => e(r.last_author) },
    ],
    report.stalled.rows,
    { empty: 'None.', className: 'stalled' },
  );
  if (!isShown(report, 'movers')) return '';
  return [
    ...movers,
    `<section id="stalled"><h2>Stalled translations: strings left, no change and no progress since ${eDates(report.window.from)}</h2>${stalled}${cutNote(report.stalled)}</section>`,
  ].join('\n');
}

/** The report as one self-contained HTML page. */
export function renderHtml(report: Report): string {
  const days = daysBetween(report.window);
  const title = `Translation report, ${report.window.to}`;
  const names = namesOf(report);
  const leftOut = describeLeftOut(report);
  const note = leftOut === null ? '' : `\n<p class="meta left-out">${e(leftOut)}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="weblate-mirror">
<title>${e(title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header>
<h1>${eDates(title)}</h1>
<p class="meta">Generated ${eDates(formatInstant(report.generated_at))} from the mirror${report.instance === null ? '' : ` of ${e(report.instance)}`}. Scope: ${e(describeScope(report))}. Window: ${eDates(formatRange(report.window))}.</p>${note}
${renderSummary(report)}
</header>
<main>
${renderLanguageChart(report, days)}
${isShown(report, 'activity') ? renderActivityChart(report) : ''}
${renderProgressTables(report, names)}
${renderPeople(report, names)}
${isShown(report, 'new_work') ? renderAnswers(report, names) : ''}
${isShown(report, 'effort') ? renderEffort(report, names) : ''}
</main>
<footer>Percentages are truncated to one decimal and computed from summed counts, as Weblate does; source-language translations are left out. Days are UTC.</footer>
</body>
</html>
`;
}

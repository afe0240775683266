import { headingOf } from '../metrics/lookup.ts';
import {
  describeActivity,
  describeLabelHistory,
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
import type {
  CategoryProgress,
  ComponentProgress,
  Contributor,
  LabelProgress,
  LanguageProgress,
  Mover,
  Progress,
  ProjectProgress,
  Report,
  StalledTranslation,
} from './model.ts';
import { answerSections } from './render-answer-tables.ts';
import { effortSections } from './render-effort-tables.ts';
import { type Column, fig, formatColumns, section } from './text-table.ts';

/** The progress columns shared by the project, language and component tables. */
function progressColumns<Row extends Progress>(): Column<Row>[] {
  return [
    fig('translations', (r) => formatCount(r.translations)),
    fig('total', (r) => formatCount(r.total)),
    fig('translated', (r) => formatCount(r.translated)),
    fig('translated_percent', (r) => formatPercent(r.translated_percent)),
    fig('translated_words_percent', (r) => formatPercent(r.translated_words_percent)),
    fig('fuzzy', (r) => formatCount(r.fuzzy)),
    fig('failing', (r) => formatCount(r.failing)),
  ];
}

function progressSections(report: Report): string[] {
  const projects = section(
    'Progress by project',
    formatColumns<ProjectProgress>(
      [
        { header: 'project', cell: (r) => r.project_slug },
        { header: 'name', cell: (r) => r.project_name },
        fig('components', (r) => formatCount(r.components)),
        ...progressColumns(),
      ],
      report.projects,
      '(no projects)',
    ),
  );
  const languages = section(
    'Progress by language',
    formatColumns<LanguageProgress>(
      [
        { header: 'language', cell: (r) => r.language_code },
        { header: 'name', cell: (r) => r.language_name ?? '' },
        fig('projects', (r) => formatCount(r.projects)),
        fig('components', (r) => formatCount(r.components)),
        ...progressColumns(),
      ],
      report.languages,
      '(no translations)',
    ),
  );
  const components = section(
    'Progress by component',
    formatColumns<ComponentProgress>(
      [
        { header: 'project', cell: (r) => r.project_slug },
        { header: 'component', cell: (r) => r.component_slug },
        ...progressColumns(),
      ],
      report.components,
      '(no components)',
    ),
  );
  return [
    ...(isShown(report, 'projects') ? [projects] : []),
    languages,
    ...(isShown(report, 'components') ? [components] : []),
  ];
}

/** Categories and labels: only when the mirror has some in scope. */
function groupSections(report: Report): string[] {
  const sections: string[] = [];
  if (report.categories.length > 0)
    sections.push(
      section(
        'Progress by category (each with the categories inside it)',
        formatColumns<CategoryProgress>(
          [
            { header: 'project', cell: (r) => r.project_slug },
            { header: 'category', cell: (r) => r.path },
            { header: 'name', cell: (r) => r.category_name },
            fig('components', (r) => formatCount(r.components)),
            ...progressColumns<CategoryProgress>(),
          ],
          report.categories,
          '(no categories)',
        ),
      ),
    );
  if (report.labels.length > 0)
    sections.push(
      section(
        `Labels: strings that carry each label, by language; translated % then and now, ${formatRange(report.window)}`,
        formatColumns<LabelProgress>(
          [
            { header: 'project', cell: (r) => r.project_slug },
            { header: 'label', cell: (r) => r.label_name },
            { header: 'language', cell: (r) => r.language_code },
            fig('total', (r) => formatCount(r.total)),
            fig('translated', (r) => formatCount(r.translated)),
            fig('translated_percent', (r) => formatPercent(r.translated_percent)),
            fig('approved_percent', (r) => formatPercent(r.approved_percent)),
            fig('translated_percent_then', (r) => describeLabelHistory(r)),
            fig('translated_percent_change', (r) => formatChange(r.translated_percent_change)),
          ],
          report.labels,
          '(no labels)',
        ),
      ),
    );
  return sections;
}

function moverSections(report: Report): string[] {
  return report.movers.map((window) =>
    section(
      moverTitle(window),
      formatColumns<Mover>(
        [
          { header: 'project', cell: (r) => r.project_slug },
          { header: 'component', cell: (r) => r.component_slug },
          { header: 'language', cell: (r) => r.language_code },
          {
            header: 'from end of',
            cell: (r) => (r.from_origin === 'estimated' ? `${r.from_day} (estimated)` : r.from_day),
          },
          fig('translated_percent_then', (r) => formatPercent(r.translated_percent_then)),
          fig('translated_percent_now', (r) => formatPercent(r.translated_percent_now)),
          fig('translated_percent_change', (r) => formatChange(r.translated_percent_change)),
          fig('translated_words_change', (r) => formatChange(r.translated_words_change, 0)),
        ],
        window.rows,
        '(nothing moved)',
      ),
      window,
    ),
  );
}

function peopleSections(report: Report): string[] {
  return [
    section(
      `Contributors as Weblate credits them, ${formatRange(report.window)}`,
      formatColumns<Contributor>(
        [
          { header: 'author', cell: (r) => r.author_name },
          fig('credited_changes', (r) => formatCount(r.credited_changes)),
          fig('credited_words', (r) => formatCount(r.credited_words)),
          { header: 'languages', cell: (r) => r.languages.join(' ') },
          { header: headingOf('last_day'), cell: (r) => r.last_day },
        ],
        report.contributors.rows,
        '(no content changes with an author)',
      ),
      report.contributors,
    ),
    section(
      `Stalled translations: strings left, no change and no progress since ${report.window.from}`,
      formatColumns<StalledTranslation>(
        [
          { header: 'project', cell: (r) => r.project_slug },
          { header: 'component', cell: (r) => r.component_slug },
          { header: 'language', cell: (r) => r.language_code },
          fig('untranslated', (r) => formatCount(r.untranslated)),
          fig('untranslated_words', (r) => formatCount(r.untranslated_words)),
          fig('translated_percent', (r) => formatPercent(r.translated_percent)),
          { header: headingOf('idle_since'), cell: (r) => r.idle_since.slice(0, 10) },
          fig('days_since_last_change', (r) => formatCount(r.days_since_last_change)),
          { header: 'last author', cell: (r) => r.last_author ?? '' },
        ],
        report.stalled.rows,
        '(none)',
      ),
      report.stalled,
    ),
  ];
}

/** The report as aligned text tables with section titles, for a terminal. */
export function renderTable(report: Report): string {
  const leftOut = describeLeftOut(report);
  const activity = isShown(report, 'activity') ? `, ${describeActivity(report)}` : '';
  const header = [
    `Weblate mirror report${report.instance === null ? '' : ` of ${report.instance}`}, ${formatInstant(report.generated_at)}`,
    `Scope: ${describeScope(report)}. Window: ${formatRange(report.window)}${activity}.`,
    ...(leftOut === null ? [] : [leftOut]),
  ].join('\n');
  return [
    header,
    ...progressSections(report),
    ...groupSections(report),
    // --label leaves these out together: each counts whole translations or changes.
    ...(isShown(report, 'movers') ? moverSections(report) : []),
    ...(isShown(report, 'contributors') ? peopleSections(report) : []),
    ...(isShown(report, 'new_work') ? answerSections(report) : []),
    ...(isShown(report, 'effort') ? effortSections(report) : []),
  ].join('\n\n');
}

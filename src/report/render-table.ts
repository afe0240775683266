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
import { type Column, formatColumns, num, section } from './text-table.ts';

/** The progress columns shared by the project, language and component tables. */
function progressColumns<Row extends Progress>(): Column<Row>[] {
  return [
    num('translations', (r) => formatCount(r.translations)),
    num('strings', (r) => formatCount(r.total)),
    num('translated', (r) => formatCount(r.translated)),
    num('%', (r) => formatPercent(r.translated_percent)),
    num('words %', (r) => formatPercent(r.translated_words_percent)),
    num('fuzzy', (r) => formatCount(r.fuzzy)),
    num('failing', (r) => formatCount(r.failing)),
  ];
}

function progressSections(report: Report): string[] {
  const projects = section(
    'Progress by project',
    formatColumns<ProjectProgress>(
      [
        { header: 'project', cell: (r) => r.project_slug },
        { header: 'name', cell: (r) => r.project_name },
        num('components', (r) => formatCount(r.components)),
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
        num('projects', (r) => formatCount(r.projects)),
        num('components', (r) => formatCount(r.components)),
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
            num('components', (r) => formatCount(r.components)),
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
            num('strings', (r) => formatCount(r.total)),
            num('translated', (r) => formatCount(r.translated)),
            num('%', (r) => formatPercent(r.translated_percent)),
            num('approved %', (r) => formatPercent(r.approved_percent)),
            num('% then', (r) => describeLabelHistory(r)),
            num('% change', (r) => formatChange(r.translated_percent_change)),
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
          num('% then', (r) => formatPercent(r.translated_percent_before)),
          num('% now', (r) => formatPercent(r.translated_percent_now)),
          num('% change', (r) => formatChange(r.translated_percent_change)),
          num('words change', (r) => formatChange(r.translated_words_change, 0)),
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
          num('credited changes', (r) => formatCount(r.changes)),
          num('credited words', (r) => formatCount(r.words)),
          { header: 'languages', cell: (r) => r.languages.join(' ') },
          { header: 'last active', cell: (r) => r.last_day },
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
          num('strings left', (r) => formatCount(r.untranslated)),
          num('words left', (r) => formatCount(r.untranslated_words)),
          num('%', (r) => formatPercent(r.translated_percent)),
          { header: 'idle since', cell: (r) => r.idle_since.slice(0, 10) },
          num('days', (r) => formatCount(r.days_since_last_change)),
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
  ].join('\n\n');
}

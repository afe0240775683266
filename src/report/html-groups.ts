import { formatChange, formatCount, formatPercent, formatRange } from './format.ts';
import { e, type Names, num, percentBar, progressColumns, renderTable } from './html-table.ts';
import type { CategoryProgress, LabelProgress, Report } from './model.ts';

// The page's sections of categories and labels; each appears only when the mirror has
// some in scope, as in the text report.

/** A category's name, indented by its depth, its path beneath (what --category takes). */
function categoryCell(row: CategoryProgress): string {
  const indent = row.depth === 0 ? '' : ` style="padding-left:${row.depth * 1.25}em"`;
  return `<span class="category"${indent}>${e(row.category_name)}<small>${e(row.path)}</small></span>`;
}

export function renderCategories(report: Report, names: Names): string {
  if (report.categories.length === 0) return '';
  const table = renderTable<CategoryProgress>(
    [
      { header: 'project', cell: (r) => e(names.project(r.project_slug)) },
      { header: 'category', cell: categoryCell },
      num('components', (r) => formatCount(r.components)),
      ...progressColumns<CategoryProgress>(),
    ],
    report.categories,
    {
      empty: 'No categories.',
      className: 'categories',
      rowAttributes: (r) => ` data-path="${e(`${r.project_slug}/${r.path}`)}"`,
    },
  );
  return [
    '<section id="categories"><h2>Progress by category</h2>',
    '<p class="note">Each category counts its own components and those of the categories inside it.</p>',
    table,
    '</section>',
  ].join('\n');
}

/** `40.0% on 2026-11-01` → now, or that history is not recorded in the window. */
function historyCell(row: LabelProgress): string {
  if (row.history_from_day === null) return '<span class="note">not recorded</span>';
  const change = row.translated_percent_change;
  const cls = change === null || change === 0 ? '' : change > 0 ? ' class="up"' : ' class="down"';
  return (
    `${formatPercent(row.translated_percent_then)}% on ${e(row.history_from_day)} ` +
    `<span${cls}>${formatChange(change)}</span>`
  );
}

export function renderLabels(report: Report, names: Names): string {
  if (report.labels.length === 0) return '';
  const table = renderTable<LabelProgress>(
    [
      { header: 'project', cell: (r) => e(names.project(r.project_slug)) },
      { header: 'label', cell: (r) => e(r.label_name) },
      { header: 'language', cell: (r) => e(names.language(r.language_code)) },
      num('strings', (r) => formatCount(r.total)),
      { header: 'translated', cell: (r) => percentBar(r.translated_percent) },
      num('approved %', (r) => formatPercent(r.approved_percent)),
      { header: 'then, and change since', cell: historyCell },
    ],
    report.labels,
    { empty: 'No labels.', className: 'labels' },
  );
  return [
    `<section id="labels"><h2>Labels, ${e(formatRange(report.window))}</h2>`,
    '<p class="note">Strings that carry each label, on themselves or on their source string, by language. Label history is recorded from the first sync that records label statistics on: before then, and on days without a row, it is not known.</p>',
    table,
    '</section>',
  ].join('\n');
}

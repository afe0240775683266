import { headingOf } from '../metrics/lookup.ts';
import { formatChange, formatCount, formatPercent, formatRange } from './format.ts';
import { e, eDates, fig, key, type Names, progressColumns, renderTable } from './html-table.ts';
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
      ...progressColumns<CategoryProgress>(fig('components', (r) => formatCount(r.components))),
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

/** One label over its languages: what the page shows of it in one line. */
interface LabelLine {
  project_slug: string;
  label_name: string;
  languages: number;
  strings: Range;
  translated: Range;
  approved: Range;
  /** The change of translated % since the first recorded day, over the languages. */
  change: Range;
  /** The earliest first recorded day in the window over the languages; null: none recorded. */
  since: string | null;
}

interface Range {
  min: number | null;
  max: number | null;
}

function rangeOf(values: Array<number | null>): Range {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0
    ? { min: null, max: null }
    : { min: Math.min(...known), max: Math.max(...known) };
}

/** Each label's rows (one per language) as one line of ranges; no figure is summed. */
function labelLines(rows: LabelProgress[]): LabelLine[] {
  const byLabel = new Map<number, LabelProgress[]>();
  for (const row of rows) byLabel.set(row.label_id, [...(byLabel.get(row.label_id) ?? []), row]);
  return [...byLabel.values()].map((languages) => {
    const days = languages.map((r) => r.history_from_day).filter((d): d is string => d !== null);
    return {
      project_slug: languages[0]!.project_slug,
      label_name: languages[0]!.label_name,
      languages: languages.length,
      strings: rangeOf(languages.map((r) => r.total)),
      translated: rangeOf(languages.map((r) => r.translated_percent)),
      approved: rangeOf(languages.map((r) => r.approved_percent)),
      change: rangeOf(languages.map((r) => r.translated_percent_change)),
      since: days.length === 0 ? null : days.reduce((a, b) => (a < b ? a : b)),
    };
  });
}

/** `55.8–77.9`, or one figure when every language has the same. */
function formatRangeOf(range: Range, format: (value: number | null) => string): string {
  return range.min === range.max ? format(range.min) : `${format(range.min)}–${format(range.max)}`;
}

function historyCell(line: LabelLine): string {
  if (line.since === null) return 'not recorded';
  const { min, max } = line.change;
  const cls = (min ?? 0) > 0 ? ' class="up"' : (max ?? 0) < 0 ? ' class="down"' : '';
  return `<span${cls}>${formatRangeOf(line.change, (v) => formatChange(v))}</span> since ${eDates(line.since)}`;
}

export function renderLabels(report: Report, names: Names): string {
  if (report.labels.length === 0) return '';
  const table = renderTable<LabelLine>(
    [
      { header: 'project', cell: (r) => e(names.project(r.project_slug)) },
      { header: 'label', cell: (r) => e(r.label_name) },
      key(fig('translated_percent', (r) => formatRangeOf(r.translated, formatPercent))),
      fig('languages_in_scope', (r) => formatCount(r.languages)),
      fig('total', (r) => formatRangeOf(r.strings, formatCount)),
      fig('approved_percent', (r) => formatRangeOf(r.approved, formatPercent)),
      { header: headingOf('translated_percent_change'), cell: historyCell },
    ],
    labelLines(report.labels),
    { empty: 'No labels.', className: 'labels' },
  );
  return [
    `<section id="labels"><h2>Labels, ${eDates(formatRange(report.window))}</h2>`,
    '<p class="note">Strings that carry each label, on themselves or on their source string: a line per label, from its lowest to its highest figure over the languages (per language in the text, CSV and JSON reports). The change is since the first day in the window with recorded label history, which starts with the first sync that records it.</p>',
    table,
    '</section>',
  ].join('\n');
}

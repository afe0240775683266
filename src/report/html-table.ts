import { headingOf } from '../metrics/lookup.ts';
import { describeCut, formatCount, formatPercent } from './format.ts';
import type { Progress, Report } from './model.ts';
import { escapeHtml } from './svg-chart.ts';

// HTML tables of the report page (see render-html.ts): every interpolated text goes
// through e().

export function e(text: string | null | undefined): string {
  return escapeHtml(text ?? '');
}

/** e(), with each day (`2026-11-22`) in a span that a line does not break inside. */
export function eDates(text: string): string {
  return e(text).replace(/\d{4}-\d{2}-\d{2}/g, '<span class="date">$&</span>');
}

export interface Column<Row> {
  header: string;
  isNumber?: boolean;
  /**
   * The figure the table is about; exactly one column of a table has it. The columns before
   * it name the row, those after it are details (see renderTable).
   */
  isKey?: boolean;
  /** Already escaped HTML. */
  cell: (row: Row) => string;
}

export function num<Row>(header: string, cell: (row: Row) => string): Column<Row> {
  return { header, isNumber: true, cell };
}

/** A number column of one metric of the catalogue, under its heading. */
export function fig<Row>(metric: string, cell: (row: Row) => string): Column<Row> {
  return num(headingOf(metric), cell);
}

/** `column` as its table's key column. */
export function key<Row>(column: Column<Row>): Column<Row> {
  return { ...column, isKey: true };
}

function classOf(column: { isNumber?: boolean; isKey?: boolean }): string {
  const names = [
    ...(column.isNumber === true ? ['n'] : []),
    ...(column.isKey === true ? ['key'] : []),
  ];
  return names.length === 0 ? '' : ` class="${names.join(' ')}"`;
}

/**
 * A table in a box; the empty text when there are no rows. The key column comes right after
 * the columns that name a row, and is marked `class="key"`; each cell after it carries its
 * header in `data-label`, so that on a narrow screen (html-style.ts) a row becomes a card:
 * its names and key figure on the first line, then the details as labelled figures.
 */
export function renderTable<Row>(
  columns: Column<Row>[],
  rows: Row[],
  options: { empty: string; rowAttributes?: (row: Row) => string; className?: string },
): string {
  if (rows.length === 0) return `<p class="empty-text">${e(options.empty)}</p>`;
  const keyAt = columns.findIndex((c) => c.isKey === true);
  if (keyAt === -1 || columns.findLastIndex((c) => c.isKey === true) !== keyAt)
    throw new Error(`table ${options.className ?? ''} needs exactly one key column`);
  const head = columns.map((c) => `<th${classOf(c)}>${e(c.header)}</th>`).join('');
  const labels = columns.map((c, i) => (i > keyAt ? ` data-label="${e(c.header)}"` : ''));
  const body = rows
    .map((row) => {
      const cells = columns
        .map((c, i) => `<td${classOf(c)}${labels[i]}>${c.cell(row)}</td>`)
        .join('');
      return `<tr${options.rowAttributes?.(row) ?? ''}>${cells}</tr>`;
    })
    .join('\n');
  const cls = options.className === undefined ? '' : ` class="${options.className}"`;
  return `<div class="table-box"><table${cls}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** `(showing 10 of 23)` under a cut list. */
export function cutNote(list: { matching: number; rows: unknown[] }): string {
  const cut = describeCut(list);
  return cut === null ? '' : `<p class="note">(${e(cut)})</p>`;
}

/** Display names of projects, components and languages by slug or code; the slug when unknown. */
export interface Names {
  project: (slug: string) => string;
  component: (project: string, slug: string) => string;
  language: (code: string) => string;
}

export function namesOf(report: Report): Names {
  const projects = new Map(report.projects.map((p) => [p.project_slug, p.project_name]));
  const components = new Map(
    report.components.map((c) => [`${c.project_slug}/${c.component_slug}`, c.component_name]),
  );
  const languages = new Map(report.languages.map((l) => [l.language_code, l.language_name]));
  return {
    project: (slug) => projects.get(slug) ?? slug,
    component: (project, slug) => components.get(`${project}/${slug}`) ?? slug,
    language: (code) => languages.get(code) ?? code,
  };
}

/** A horizontal bar of a translated percentage, with its figure. */
export function percentBar(percent: number | null): string {
  const width = percent === null ? 0 : Math.max(0, Math.min(100, percent));
  return (
    `<span class="bar-track"><span class="bar-fill" style="width:${width}%"></span></span>` +
    `<span class="bar-label">${formatPercent(percent)}%</span>`
  );
}

/**
 * The columns of a progress table after its names: translated strings (the key), `counts`
 * (what the row holds, e.g. components), then the figures behind the percentage.
 */
export function progressColumns<Row extends Progress>(...counts: Column<Row>[]): Column<Row>[] {
  return [
    key({ header: headingOf('translated_percent'), cell: (r) => percentBar(r.translated_percent) }),
    ...counts,
    fig('translations', (r) => formatCount(r.translations)),
    fig('total', (r) => formatCount(r.total)),
    fig('translated', (r) => formatCount(r.translated)),
    fig('translated_words_percent', (r) => formatPercent(r.translated_words_percent)),
    fig('fuzzy', (r) => formatCount(r.fuzzy)),
    fig('failing', (r) => formatCount(r.failing)),
  ];
}

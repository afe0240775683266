import { describeCut, formatCount, formatPercent } from './format.ts';
import type { Progress, Report } from './model.ts';
import { escapeHtml } from './svg-chart.ts';

// HTML tables of the report page (see render-html.ts): every interpolated text goes
// through e().

export function e(text: string | null | undefined): string {
  return escapeHtml(text ?? '');
}

export interface Column<Row> {
  header: string;
  isNumber?: boolean;
  /** Already escaped HTML. */
  cell: (row: Row) => string;
}

export function num<Row>(header: string, cell: (row: Row) => string): Column<Row> {
  return { header, isNumber: true, cell };
}

/** A table in a box that scrolls sideways; the empty text when there are no rows. */
export function renderTable<Row>(
  columns: Column<Row>[],
  rows: Row[],
  options: { empty: string; rowAttributes?: (row: Row) => string; className?: string },
): string {
  if (rows.length === 0) return `<p class="empty-text">${e(options.empty)}</p>`;
  const head = columns
    .map((c) => `<th${c.isNumber === true ? ' class="n"' : ''}>${e(c.header)}</th>`)
    .join('');
  const body = rows
    .map((row) => {
      const cells = columns
        .map((c) => `<td${c.isNumber === true ? ' class="n"' : ''}>${c.cell(row)}</td>`)
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

export function progressColumns<Row extends Progress>(): Column<Row>[] {
  return [
    num('translations', (r) => formatCount(r.translations)),
    num('strings', (r) => formatCount(r.total)),
    num('translated', (r) => formatCount(r.translated)),
    { header: 'translated strings', cell: (r) => percentBar(r.translated_percent) },
    num('words %', (r) => formatPercent(r.translated_words_percent)),
    num('fuzzy', (r) => formatCount(r.fuzzy)),
    num('failing', (r) => formatCount(r.failing)),
  ];
}

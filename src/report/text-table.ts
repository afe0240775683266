import { headingOf } from '../metrics/lookup.ts';
import { describeCut } from './format.ts';
import type { RankedList } from './model.ts';

// Aligned text tables under section titles, for a terminal.

/** A column of a text table: numbers align right, text left. */
export interface Column<Row> {
  header: string;
  align?: 'left' | 'right';
  cell: (row: Row) => string;
}

const MAX_TEXT = 60;

/** One line, no control characters (a name must not steer the terminal), at most MAX_TEXT. */
function clean(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT - 1)}…` : flat;
}

/** An aligned text table; the empty text when there are no rows. */
export function formatColumns<Row>(columns: Column<Row>[], rows: Row[], empty: string): string {
  if (rows.length === 0) return empty;
  const cells = rows.map((row) => columns.map((c) => clean(c.cell(row))));
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...cells.map((r) => r[i]!.length)),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) =>
        columns[i]!.align === 'right' ? v.padStart(widths[i]!) : v.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.header)),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.map(line),
  ].join('\n');
}

export function num<Row>(header: string, cell: (row: Row) => string): Column<Row> {
  return { header, align: 'right', cell };
}

/** A number column of one metric of the catalogue, under its heading. */
export function fig<Row>(metric: string, cell: (row: Row) => string): Column<Row> {
  return num(headingOf(metric), cell);
}

/** A titled section; with a cut list, a line saying so. */
export function section(title: string, body: string, list?: RankedList<unknown>): string {
  const cut = list === undefined ? null : describeCut(list);
  return [title, '', body, ...(cut === null ? [] : [`(${cut}; --limit shows more)`])].join('\n');
}

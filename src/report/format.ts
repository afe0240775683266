import type { MoverWindow, Report, SectionName } from './model.ts';

// Text shared by the table and HTML renderers.

/** A truncated percentage as the views give it: one decimal, or empty when unknown. */
export function formatPercent(value: number | null): string {
  return value === null ? '' : value.toFixed(1);
}

/** A signed change: `+2.5`, `-1.0`, `0.0`. */
export function formatChange(value: number | null, decimals = 1): string {
  if (value === null) return '';
  const text = value.toFixed(decimals);
  return value > 0 ? `+${text}` : text;
}

/** A count with thousands separators: `12,345`. */
export function formatCount(value: number | null): string {
  return value === null ? '' : value.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

/** `2026-11-22 17:18 UTC` from an ISO timestamp. */
export function formatInstant(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** `all projects, all languages` or the filters. */
export function describeScope(report: Report): string {
  const { projects, language, category, label } = report.filters;
  const projectText =
    projects.length === 0
      ? 'all projects'
      : `project${projects.length === 1 ? '' : 's'} ${projects.join(', ')}`;
  return [
    projectText,
    ...(category === null ? [] : [`category ${category}`]),
    language === null ? 'all languages' : `language ${language}`,
    ...(label === null ? [] : [`strings labelled "${label}"`]),
  ].join(', ');
}

/** Whether a section is in the report (--label leaves some out). */
export function isShown(report: Report, section: SectionName): boolean {
  return !report.left_out.includes(section);
}

/** With --label, the one line that says which sections are left out and why; else null. */
export function describeLeftOut(report: Report): string | null {
  if (report.filters.label === null || report.left_out.length === 0) return null;
  const matched =
    report.matched_labels.length === 0 ? '' : ` (${report.matched_labels.join(', ')})`;
  return (
    `Label "${report.filters.label}"${matched}: only the progress by language and the labels are shown; ` +
    'the sections that count whole translations or changes cannot be narrowed to a label and are left out.'
  );
}

/** `2026-11-01: 40.0` → how a label's translated % moved since its first recorded day in the window. */
export function describeLabelHistory(row: {
  history_from_day: string | null;
  translated_percent_then: number | null;
}): string {
  return row.history_from_day === null
    ? 'not recorded'
    : `${formatPercent(row.translated_percent_then)} on ${row.history_from_day}`;
}

export function formatRange(range: { from: string; to: string }): string {
  return `${range.from} to ${range.to}`;
}

export function moverTitle(window: MoverWindow): string {
  const days = /^(\d+)d$/.exec(window.name)?.[1];
  const span = days === undefined ? `since ${window.from}` : `last ${days} days`;
  return `Biggest movers, ${span} (${formatRange(window)})`;
}

/** `showing 10 of 23` when a list was cut. */
export function describeCut(list: { matching: number; rows: unknown[] }): string | null {
  return list.matching > list.rows.length
    ? `showing ${formatCount(list.rows.length)} of ${formatCount(list.matching)}`
    : null;
}

/** A person as the report names them: the full name with the username, or the username. */
export function personName(person: { username: string; full_name: string | null }): string {
  return person.full_name === null ? person.username : `${person.full_name} (${person.username})`;
}

/** `446 changes, 689 words translated`, and the words no person is credited with, if any. */
export function describeActivity(report: Report): string {
  const {
    changes,
    words_translated: words,
    words_translated_without_author: orphan,
  } = report.totals.activity;
  const text = `${formatCount(changes)} changes, ${formatCount(words)} words translated`;
  return orphan > 0 ? `${text} (${formatCount(orphan)} by changes without an author)` : text;
}

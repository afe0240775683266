import type { MoverWindow, Report } from './model.ts';

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
  const { projects, language } = report.filters;
  const projectText =
    projects.length === 0
      ? 'all projects'
      : `project${projects.length === 1 ? '' : 's'} ${projects.join(', ')}`;
  return `${projectText}, ${language === null ? 'all languages' : `language ${language}`}`;
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

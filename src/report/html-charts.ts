import { formatCount, formatPercent } from './format.ts';
import { languageLines } from './language-lines.ts';
import type { Report } from './model.ts';
import {
  type Bar,
  escapeHtml as e,
  type LineSeries,
  renderBarChart,
  renderLineChart,
  renderSwatch,
  seriesStyle,
} from './svg-chart.ts';

// The HTML report's two charts, drawn to the width of their box with text that keeps its
// size (svg-chart.ts), so that a phone shows every day, the newest too, without scrolling.

function chartBox(svg: string): string {
  return `<div class="chart-box">${svg}</div>`;
}

/** The first day of `days` (in day order) that `isWanted`, or null. */
function firstDay<Row extends { day: string }>(
  rows: Row[],
  isWanted: (row: Row) => boolean,
): string | null {
  return rows.reduce<string | null>(
    (min, r) => (isWanted(r) && (min === null || r.day < min) ? r.day : min),
    null,
  );
}

/**
 * The legend's notes: which stretch is estimated, which days are left out and why a line
 * breaks, and why the lines start late when the history is younger than the window.
 */
function historyNotes(report: Report, series: LineSeries[], leftOut: number): string {
  const history = report.language_history;
  const notes: string[] = [];
  if (history.some((r) => r.origin === 'estimated')) {
    const measured = firstDay(history, (r) => r.origin === 'measured');
    const since = measured === null ? '' : ` Measured snapshots start on ${e(measured)}.`;
    notes.push(
      `Dotted stretches are estimated from the change log, for the days before the mirror's first statistics snapshot (see docs/history.md in weblate-mirror).${since}`,
    );
  }
  if (leftOut > 0)
    notes.push(
      `Estimated days before every translation of a language appears in the change log are left out (${formatCount(leftOut)} language-days): until its component's first logged change the mirror knows nothing of a translation, and a line summing only some of them would move as they joined.`,
    );
  if (series.some((s) => s.runs.length > 1))
    notes.push(
      'A ring marks a day on which translations joined or left a language: its line breaks there, since the figures on either side are over different strings.',
    );
  const first = firstDay(history, () => true);
  if (first !== null && first > report.window.from)
    notes.push(`The mirror's statistics history starts on ${e(first)}: every day adds a point.`);
  return notes.map((n) => `<p class="note">${n}</p>`).join('\n');
}

export function renderLanguageChart(report: Report, days: string[]): string {
  const lines = languageLines(report);
  const series: LineSeries[] = lines.map((line, i) => ({
    key: line.code,
    label: line.label,
    style: seriesStyle(i),
    runs: line.runs,
  }));
  const legend = series
    .map((s) => {
      const last = s.runs.at(-1)?.at(-1);
      const value = last === undefined ? '' : ` ${formatPercent(last.value)}%`;
      const code = s.label === s.key ? '' : ` (${s.key})`;
      return `<li data-series="${e(s.key)}">${renderSwatch(s.style)}${e(`${s.label}${code}${value}`)}</li>`;
    })
    .join('');
  const leftOut = lines.reduce((sum, l) => sum + l.leftOut, 0);
  const label = report.filters.label;
  const labelled = label === null ? '' : ` labelled "${label}"`;
  const empty =
    label === null
      ? 'No statistics history in this window yet: each sync adds a day.'
      : 'No label history recorded in this window yet: each sync from now on adds a day.';
  return [
    `<section id="language-chart"><h2>Translated strings${e(labelled)} over time, by language</h2>`,
    chartBox(
      renderLineChart(
        `Translated strings${labelled} (%) at the end of each day, by language`,
        days,
        series,
        empty,
      ),
    ),
    `<ul class="legend">${legend}</ul>`,
    historyNotes(report, series, leftOut),
    '</section>',
  ].join('\n');
}

export function renderActivityChart(report: Report): string {
  const bars: Bar[] = report.activity.map((d) => ({
    day: d.day,
    value: d.changes,
    data: { words: d.words_translated, authors: d.authors },
    title: `${d.day}: ${formatCount(d.changes)} changes, ${formatCount(d.words_translated)} words translated, ${formatCount(d.authors)} authors`,
  }));
  return [
    '<section id="activity-chart"><h2>Changes per day</h2>',
    chartBox(renderBarChart('Changes per day', bars, 'No changes in this window.')),
    '</section>',
  ].join('\n');
}

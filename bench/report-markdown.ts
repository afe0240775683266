import type { BuiltMirror } from './report-build.ts';
import type { ExportTiming, Timing } from './report-measure.ts';
import type { ReportRun } from './report-queries.ts';

/** Each reporting view and function should answer within this (issue 26). */
export const VIEW_TARGET_MS = 2_000;
/** The whole instance's HTML report should be written within this (issue 26). */
export const HTML_TARGET_MS = 30_000;
/** The export's peak RSS at the large shape should stay under this (issue 46). */
export const EXPORT_RSS_TARGET_MB = 500;

interface Results {
  scope: { project: string; language: string };
  surface: Timing[];
  dashboards: Timing[];
  commands: Timing[];
  reportQueries: { whole: ReportRun; filtered: ReportRun };
  exports: ExportTiming[];
}

const count = (n: number) => n.toLocaleString('en-US');

function seconds(ms: number | null): string {
  if (ms === null) return '';
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}

function verdict(timing: Timing, targetMs: number): string {
  if (timing.ms === null) return timing.note?.startsWith('needs') === true ? '' : '**over**';
  return timing.ms > targetMs ? '**over**' : 'no';
}

function timingTable(timings: Timing[], targetMs: number, firstColumn: string): string[] {
  return [
    `| ${firstColumn} | rows | time | JIT-compiled functions | over ${targetMs / 1000} s? | note |`,
    '| --- | ---: | ---: | ---: | --- | --- |',
    ...timings.map(
      (t) =>
        `| \`${t.name}\` | ${t.rows === null ? '' : count(t.rows)} | ${seconds(t.ms)} | ${t.jitFunctions ? count(t.jitFunctions) : ''} | ${verdict(t, targetMs)} | ${t.note ?? ''} |`,
    ),
  ];
}

/** The report's statements, slowest first, with the sum of them all. */
function queryTable(run: ReportRun, title: string): string[] {
  const total = run.queries.reduce((sum, q) => sum + q.ms, 0);
  const slowest = [...run.queries].sort((a, b) => b.ms - a.ms).slice(0, 8);
  const render =
    run.renderMs === null
      ? `not rendered: ${run.error ?? ''}`
      : `rendering: table ${run.renderMs.table} ms, json ${run.renderMs.json} ms, csv ` +
        `${run.renderMs.csv} ms, html ${run.renderMs.html} ms`;
  return [
    `${title}: ${run.queries.length} statements, ${seconds(total)} in PostgreSQL and the driver, ` +
      `buildReport ${seconds(run.buildMs)}; ${render}. Slowest:`,
    '',
    '| statement reads | time | |',
    '| --- | ---: | --- |',
    ...slowest.map(
      (q) => `| \`${q.reads}\` | ${seconds(q.ms)} | ${q.isFailed ? 'cancelled (timeout)' : ''} |`,
    ),
  ];
}

/** The results as markdown, for docs/performance.md. */
export function resultsMarkdown(built: BuiltMirror, r: Results, command: string): string {
  const { instance } = built;
  const over = [...r.surface, ...r.dashboards].filter(
    (t) => (t.ms === null && t.note?.startsWith('needs') !== true) || (t.ms ?? 0) > VIEW_TARGET_MS,
  );
  const htmlWhole = r.commands.find((c) => c.name === 'report --html');
  return [
    `\`${command}\`: a mirror of ${count(instance.projects)} projects, ${count(instance.components)} ` +
      `components, ${count(instance.translations)} translations, ${count(instance.units)} units, ` +
      `${count(instance.changes)} changes, ${count(instance.categories)} categories and ` +
      `${count(instance.labels)} labels (full sync ${seconds(built.syncMs)}, backfill ` +
      `${seconds(built.backfillMs)}, then VACUUM ANALYZE). Times are EXPLAIN (ANALYZE, TIMING OFF)'s ` +
      'execution time, the best of two runs for those under 10 s; every row and column is ' +
      'computed, none shipped. Filters: project ' +
      `\`${r.scope.project}\`, language \`${r.scope.language}\`.`,
    '',
    ...timingTable(r.surface, VIEW_TARGET_MS, 'view or function (with its defaults)'),
    '',
    'Filtered and summed reads of the views that are millions of rows by nature:',
    '',
    ...timingTable(r.dashboards, VIEW_TARGET_MS, 'read'),
    '',
    '`weblate-mirror report`, one process each (wall time, Node start included):',
    '',
    ...timingTable(r.commands, HTML_TARGET_MS, 'command'),
    '',
    ...queryTable(r.reportQueries.whole, 'The report of the whole instance'),
    '',
    ...queryTable(r.reportQueries.filtered, 'The report filtered by project and language'),
    '',
    '`weblate-mirror export --out <folder>` of every table, one process each:',
    '',
    `| run | rows | files written | time | peak RSS | over ${EXPORT_RSS_TARGET_MB} MB? | note |`,
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...r.exports.map(
      (e) =>
        `| ${e.name} | ${e.rows === null ? '' : count(e.rows)} | ${e.filesWritten ?? ''} | ` +
        `${seconds(e.ms)} | ${e.peakRssMb === null ? '' : `${e.peakRssMb} MB`} | ` +
        `${e.peakRssMb === null ? '**failed**' : e.peakRssMb > EXPORT_RSS_TARGET_MB ? '**over**' : 'no'} | ${e.note ?? ''} |`,
    ),
    '',
    `Over ${VIEW_TARGET_MS / 1000} s: ${over.length === 0 ? 'none' : over.map((t) => `\`${t.name}\``).join(', ')}.`,
    `HTML report of the whole instance: ${htmlWhole?.ms == null ? 'not measured' : seconds(htmlWhole.ms)} ` +
      `(target ${HTML_TARGET_MS / 1000} s).`,
  ].join('\n');
}

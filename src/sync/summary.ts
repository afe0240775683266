import { jsonDocument } from '../lib/json-document.ts';
import { peakRssMb } from '../lib/peak-rss.ts';
import type { RequestStats } from '../weblate/request-stats.ts';
import { RESOURCES, type SyncTally } from './tally.ts';

export interface ResourceSummary {
  resource: string;
  records: number;
  rejected: number;
  rows: number;
  requests: number;
  retries: number;
  durationMs: number;
}

export interface SyncSummary {
  mode: string;
  /** Peak resident memory of the process so far, in MiB. */
  peakRssMb: number;
  resources: ResourceSummary[];
  rejected: number;
  requests: number;
  rowsWritten: number;
  durationMs: number;
  warnings: string[];
}

/** Per resource: records read, rows written, requests made and the time it was active. */
export function buildSummary(
  tally: SyncTally,
  requests: RequestStats,
  durationMs: number,
  mode: string,
): SyncSummary {
  const resources = RESOURCES.map((resource) => {
    const t = tally.get(resource);
    const r = requests.get(resource);
    const span = t.startedAt !== null && t.finishedAt !== null ? t.finishedAt - t.startedAt : 0;
    return {
      resource,
      records: t.records,
      rejected: t.rejected,
      rows: t.rows,
      requests: r.requests,
      retries: r.retries,
      durationMs: span,
    };
  });
  return {
    mode,
    peakRssMb: peakRssMb(),
    resources,
    rejected: tally.rejected,
    requests: requests.total,
    rowsWritten: tally.rowsWritten,
    durationMs,
    warnings: [...tally.warnings],
  };
}

/** The summary as an aligned text table, for a terminal. */
export function formatSummary(summary: SyncSummary): string {
  const header = ['resource', 'records read', 'rejected', 'rows written', 'requests', 'time'];
  const body = summary.resources.map((r) => [
    r.resource,
    String(r.records),
    String(r.rejected),
    String(r.rows),
    r.retries > 0 ? `${r.requests} (${r.retries} retried)` : String(r.requests),
    formatDuration(r.durationMs),
  ]);
  const total = [
    'total',
    '',
    String(summary.rejected),
    String(summary.rowsWritten),
    String(summary.requests),
    formatDuration(summary.durationMs),
  ];
  return formatTable(header, [...body, total]);
}

/** Whether the run read any record or wrote any row (else its table is all zeros). */
export function hasReadAnything(summary: SyncSummary): boolean {
  return summary.resources.some((r) => r.records > 0 || r.rows > 0);
}

/**
 * Why records read exceed rows written, for a run where some resource read more than it
 * wrote and rejected; null otherwise.
 */
export function readBeyondWrittenNote(summary: SyncSummary): string | null {
  if (!summary.resources.some((r) => r.records > r.rows + r.rejected)) return null;
  return (
    'records read can exceed rows written: records read twice where pages or windows overlap,\n' +
    'and records already current in the mirror, are not written again.'
  );
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Left-aligns the first column and right-aligns the others. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** What a run's document (syncDocument) needs of it: RunResult's fields, and the mode. */
interface DocumentedRun {
  runId: number;
  kind: string;
  mode: string;
  instance: string | null;
  status: string;
  error: Error | null;
  summary: SyncSummary;
}

/**
 * A run as `sync --json` prints it (README, "Output for programs"): its own field names, so
 * that the summary kept in weblate.sync_runs can change without breaking a script.
 */
export function syncDocument(run: DocumentedRun, database: string) {
  const { summary } = run;
  return jsonDocument('sync', {
    run_id: run.runId,
    kind: run.kind,
    mode: run.mode,
    status: run.status,
    instance: run.instance,
    database,
    error: run.error?.message ?? null,
    requests: summary.requests,
    records: summary.resources.reduce((n, r) => n + r.records, 0),
    rows_written: summary.rowsWritten,
    rejected: summary.rejected,
    duration_ms: summary.durationMs,
    warnings: summary.warnings,
    resources: summary.resources.map((r) => ({
      resource: r.resource,
      records: r.records,
      rejected: r.rejected,
      rows_written: r.rows,
      requests: r.requests,
      retries: r.retries,
      duration_ms: r.durationMs,
    })),
  });
}

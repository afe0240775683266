import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';

import type { Database } from '../src/db/database.ts';
import { buildReport, type ReportOptions } from '../src/report/build-report.ts';
import type { Report } from '../src/report/model.ts';
import { renderCsv } from '../src/report/render-csv.ts';
import { renderHtml } from '../src/report/render-html.ts';
import { renderJson } from '../src/report/render-json.ts';
import { renderTable } from '../src/report/render-table.ts';

/** One statement the report ran, named by the reporting relations it reads. */
export interface ReportQuery {
  reads: string;
  ms: number;
  /** The statement failed (cancelled by statement_timeout, most likely). */
  isFailed: boolean;
}

export interface ReportRun {
  /** Every statement, in the order the report ran them. */
  queries: ReportQuery[];
  /** buildReport's wall time (the statements, the rows shipped and parsed). */
  buildMs: number;
  /** Each renderer's time on the report read; null when a statement failed. */
  renderMs: Record<'table' | 'json' | 'csv' | 'html', number> | null;
  /** Why the report could not be read (the first statement that failed). */
  error: string | null;
}

// As src/db/client.ts: int8, numeric, dates and timestamps as text, which the report expects.
const TEXT_OIDS: readonly number[] = [20, 1700, 1082, 1114, 1184];

/** The reporting relations a statement reads (`weblate.name`), in order, without repeats. */
function readsOf(text: string): string {
  const names = [...text.matchAll(/weblate\.([a-z_0-9]+)/g)].map((m) => m[1]!);
  const distinct = [...new Set(names)].filter((n) => n !== 'truncated_percent');
  return distinct.length === 0 ? text.replace(/\s+/g, ' ').slice(0, 60) : distinct.join(', ');
}

/**
 * Runs the report's reads in this process (buildReport, as `weblate-mirror report` does),
 * timing each statement through Kysely's query log, then each renderer. A statement past
 * `timeoutMs` is cancelled, and the report is not read further.
 */
export async function timeReportQueries(
  url: string,
  options: ReportOptions,
  timeoutMs: number,
): Promise<ReportRun> {
  const queries: ReportQuery[] = [];
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    options: `-c TimeZone=UTC -c default_transaction_read_only=on -c jit=off -c statement_timeout=${Math.round(timeoutMs)}`,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
        TEXT_OIDS.includes(oid)
          ? (value: string) => value
          : (pg.types.getTypeParser(oid, format ?? 'text') as (
              value: string,
            ) => unknown)) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event: LogEvent) => {
      queries.push({
        reads: readsOf(event.query.sql),
        ms: Math.round(event.queryDurationMillis * 10) / 10,
        isFailed: event.level === 'error',
      });
    },
  });
  const started = performance.now();
  try {
    const report = await buildReport(db, options);
    const buildMs = Math.round(performance.now() - started);
    return { queries, buildMs, renderMs: timeRenderers(report), error: null };
  } catch (err) {
    const buildMs = Math.round(performance.now() - started);
    return { queries, buildMs, renderMs: null, error: (err as Error).message };
  } finally {
    await db.destroy();
  }
}

function timeRenderers(report: Report): ReportRun['renderMs'] {
  const time = (render: (r: Report) => string) => {
    const started = performance.now();
    render(report);
    return Math.round(performance.now() - started);
  };
  return {
    table: time(renderTable),
    json: time(renderJson),
    csv: time(renderCsv),
    html: time(renderHtml),
  };
}

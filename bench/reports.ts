import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import {
  buildMirror,
  type BuiltMirror,
  readBuild,
  type ReportShape,
  runCli,
} from './report-build.ts';
import { resultsMarkdown } from './report-markdown.ts';
import {
  dashboardForms,
  type ExportTiming,
  listReportingSurface,
  timeStatement,
  type Timing,
} from './report-measure.ts';
import { type ReportRun, timeReportQueries } from './report-queries.ts';

/** The benchmark's own database on the server: kept for `--reuse`, dropped with `--drop`. */
export const REPORT_DATABASE = 'weblate_mirror_bench_report';

export interface ReportBenchOptions {
  /** A server's URL whose user may create databases. */
  adminUrl: string;
  shape: ReportShape;
  /** Read the mirror a finished build left, instead of building it again. */
  reuse: boolean;
  /** Drop the database at the end. */
  drop: boolean;
  /** Build (or find) the mirror, time nothing. */
  buildOnly: boolean;
  /** statement_timeout of each timed statement. */
  timeoutMs: number;
  /** How long a `weblate-mirror report` may take before it is killed. */
  reportTimeoutMs: number;
  /** The command line to print with the results. */
  command: string;
}

async function admin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A project and a language to filter by: the project with the most units, its first language. */
async function pickScope(client: pg.Client): Promise<{ project: string; language: string }> {
  const result = await client.query<{ project: string; language: string }>(`
    select t.project_slug as project, min(t.language_code) filter (where not t.is_source) as language
    from weblate.translations t join weblate.units u on u.translation_id = t.id
    where t.deleted_at is null
    group by t.project_slug order by count(*) desc, t.project_slug limit 1`);
  return result.rows[0]!;
}

export interface Measured {
  scope: { project: string; language: string };
  /** Every view and table function of schema weblate, from the catalog. */
  surface: Timing[];
  /** Filtered and summed reads of the views that are millions of rows by nature. */
  dashboards: Timing[];
  /** `weblate-mirror report` in each format, whole instance and filtered. */
  commands: Timing[];
  /** The report's own statements, whole instance and filtered. */
  reportQueries: { whole: ReportRun; filtered: ReportRun };
  /** `weblate-mirror export` of every table: first into an empty folder, then again. */
  exports: ExportTiming[];
}

async function measureAll(
  url: string,
  o: Pick<ReportBenchOptions, 'timeoutMs' | 'reportTimeoutMs'>,
): Promise<Measured> {
  const log = (message: string) => process.stderr.write(`${new Date().toISOString()} ${message}\n`);
  const bounds = { timeoutMs: o.timeoutMs, repeatUnderMs: 10_000 };
  // As the mirror's readers run: weblate_reader and the report command have JIT off.
  const client = new pg.Client({ connectionString: url, options: '-c TimeZone=UTC -c jit=off' });
  await client.connect();
  let scope: Measured['scope'];
  const surface: Timing[] = [];
  const dashboards: Timing[] = [];
  try {
    scope = await pickScope(client);
    for (const relation of await listReportingSurface(client)) {
      log(`timing ${relation.kind} ${relation.name}`);
      const { statement, ...entry } = relation;
      surface.push(
        statement === null
          ? {
              ...entry,
              statement: '',
              rows: null,
              ms: null,
              runs: [],
              buffers: null,
              note: 'needs arguments',
            }
          : await timeStatement(client, { ...entry, statement }, bounds),
      );
    }
    for (const form of await dashboardForms(client, scope)) {
      log(`timing ${form.name}`);
      dashboards.push(await timeStatement(client, { kind: 'dashboard', ...form }, bounds));
    }
  } finally {
    await client.end();
  }
  log("timing the report's statements");
  const reportOptions = { projects: [], language: null, since: null, limit: 10 };
  const reportQueries = {
    whole: await timeReportQueries(url, reportOptions, o.timeoutMs),
    filtered: await timeReportQueries(
      url,
      { ...reportOptions, projects: [scope.project], language: scope.language },
      o.timeoutMs,
    ),
  };
  log('timing weblate-mirror report');
  // The formats differ only in rendering (timed in process): where a statement of the
  // whole report is over the timeout already, only the HTML report runs, up to its bound.
  const commands = await timeReportCommands(url, scope, {
    timeoutMs: o.reportTimeoutMs,
    onlyHtml: reportQueries.whole.error !== null,
  });
  log('timing weblate-mirror export');
  const exports = await timeExports(url, o.reportTimeoutMs);
  return { scope, surface, dashboards, commands, reportQueries, exports };
}

/**
 * The Parquet export of the whole mirror, as a process: into an empty folder, then again with
 * nothing changed (only the fingerprints read). Its peak RSS is its own (--json).
 */
async function timeExports(url: string, timeoutMs: number): Promise<ExportTiming[]> {
  const out = mkdtempSync(join(tmpdir(), 'weblate-mirror-bench-export-'));
  const timings: ExportTiming[] = [];
  try {
    for (const name of ['export (first, every file)', 'export (again, nothing changed)']) {
      try {
        const { output, ms } = await runCli(
          ['export', '--out', out, '--json'],
          { DATABASE_URL: url },
          timeoutMs * 4,
        );
        const document = JSON.parse(output) as {
          peak_rss_mb: number;
          tables: { written: number; rows: number }[];
        };
        timings.push({
          name,
          ms: Math.round(ms),
          peakRssMb: document.peak_rss_mb,
          filesWritten: document.tables.reduce((sum, t) => sum + t.written, 0),
          rows: document.tables.reduce((sum, t) => sum + t.rows, 0),
          note: `${Math.round(folderBytes(out) / 1024 / 1024)} MB of Parquet`,
        });
      } catch (err) {
        const note = `failed: ${(err as Error).message.split('\n')[0]}`;
        timings.push({ name, ms: null, peakRssMb: null, filesWritten: null, rows: null, note });
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return timings;
}

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** `weblate-mirror report` as users run it: a process each, its wall time, the whole output. */
async function timeReportCommands(
  url: string,
  scope: Measured['scope'],
  { timeoutMs, onlyHtml }: { timeoutMs: number; onlyHtml: boolean },
): Promise<Timing[]> {
  const html = join(tmpdir(), `weblate-mirror-bench-report-${process.pid}.html`);
  const filtered = ['--project', scope.project, '--language', scope.language];
  const runs: { name: string; args: string[] }[] = [
    { name: 'report (table)', args: ['report'] },
    { name: 'report --format json', args: ['report', '--format', 'json'] },
    { name: 'report --format csv', args: ['report', '--format', 'csv'] },
    { name: 'report --html', args: ['report', '--html', html] },
    // Every section: the cost estimate and each translator's work too.
    {
      name: 'report --html --cost --people',
      args: ['report', '--html', html, '--cost', '--people'],
    },
    { name: `report (table) ${filtered.join(' ')}`, args: ['report', ...filtered] },
    { name: `report --html ${filtered.join(' ')}`, args: ['report', '--html', html, ...filtered] },
  ];
  const timings: Timing[] = [];
  for (const { name, args } of runs) {
    const timing: Timing = {
      kind: 'report',
      name,
      statement: `weblate-mirror ${args.join(' ')}`,
      rows: null,
      ms: null,
      runs: [],
      buffers: null,
      note: null,
    };
    const isWhole = !args.includes('--project');
    if (onlyHtml && isWhole && !args.includes('--html')) {
      timing.note = 'not run: a statement of the whole report is over the timeout';
      timings.push(timing);
      continue;
    }
    try {
      const { output, ms } = await runCli(args, { DATABASE_URL: url }, timeoutMs);
      timing.ms = Math.round(ms);
      timing.runs = [timing.ms];
      const bytes = args.includes('--html') ? statSync(html).size : Buffer.byteLength(output);
      timing.note = `${Math.round(bytes / 1024)} kB of output`;
    } catch (err) {
      timing.note = `failed: ${(err as Error).message.split('\n')[0]}`;
    }
    timings.push(timing);
  }
  rmSync(html, { force: true });
  return timings;
}

/**
 * Builds (or, with `reuse`, finds) the large mirror, then times the reporting surface and the
 * report; returns the results and their markdown (null with `buildOnly`).
 */
export async function benchReports(
  o: ReportBenchOptions,
): Promise<{ built: BuiltMirror; measured: Measured | null; markdown: string | null }> {
  const url = new URL(o.adminUrl);
  url.pathname = `/${REPORT_DATABASE}`;
  const exists = await admin(o.adminUrl, async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [
      REPORT_DATABASE,
    ]);
    return found.rowCount === 1;
  });
  try {
    let built = o.reuse && exists ? await readBuild(url.href) : null;
    // A mirror of another shape is built again (jsonb keeps the keys in an order of its own).
    const sameShape = (a: ReportShape, b: ReportShape) =>
      (Object.keys(b) as (keyof ReportShape)[]).every((key) => a[key] === b[key]);
    if (built !== null && !sameShape(built.shape, o.shape)) built = null;
    if (built === null) {
      await admin(o.adminUrl, async (client) => {
        await client.query(`drop database if exists ${REPORT_DATABASE} with (force)`);
        await client.query(`create database ${REPORT_DATABASE}`);
      });
      built = await buildMirror(url.href, o.shape);
    }
    if (o.buildOnly) return { built, measured: null, markdown: null };
    const measured = await measureAll(url.href, o);
    return { built, measured, markdown: resultsMarkdown(built, measured, o.command) };
  } finally {
    if (o.drop)
      await admin(o.adminUrl, (client) =>
        client.query(`drop database if exists ${REPORT_DATABASE} with (force)`),
      );
  }
}

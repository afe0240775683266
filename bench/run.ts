/**
 * weblate-mirror benchmark: syncs the simulator (on loopback, in this process) into a
 * scratch PostgreSQL database with the CLI (a child process, so its peak memory is its
 * own), and prints the results beside references measured in the same run.
 *
 *   npm run bench -- [--shapes default,large,backfill,webhooks,reports] [--units 200000] [--changes 100000]
 *     [--small-units 50000] [--large-projects 1000] [--large-components 5000] [--large-units 1000000]
 *     [--large-changes 200000] [--webhook-edits-per-minute 30] [--webhook-minutes 2]
 *     [--cost-scale 0.1] [--server-bound-units 50000] [--server-bound-scale 1]
 *     [--report-changes 1000000] [--sparse-units 200000] [--database-url postgres://…]
 *
 * Two shapes: the default (3 projects, 40 components, about 200,000 units) and a large
 * instance (1,000 projects, 5,000 components, 1,000,000 units); then the backfill at 1,000,000
 * units and changes (bench/backfill.ts), and the worker fed by webhooks under steady churn
 * (bench/webhooks.ts). `sparse` is one full sync of the default shape at `--sparse-units` whose
 * unit ids are sparse and clustered as on a long-lived Weblate (simulator/unit-ids.ts): its
 * unit windows meet gaps of millions of ids and dense clusters. `reports`, asked by name only (about 20 minutes), times every reporting
 * view and function and `weblate-mirror report` on the large shape with `--report-changes`
 * changes, categories and labels (bench/reports.ts; bench/report-read.ts runs it alone).
 *
 * The simulator runs with Weblate 5.14's cost model (simulator/cost.ts) at `--cost-scale`
 * (a tenth of the measured times by default, to keep the run short): every scenario reports
 * the rows its requests made the server count, skip and serialize, and the service time.
 * One more full sync, of the default shape at `--server-bound-units`, runs at the measured
 * times themselves (`--server-bound-scale`): there the server, not this machine's cores, is
 * the bottleneck, as against a real Weblate, and its wall time says whether the sync keeps
 * the server's places busy. Every scenario reports how busy the machine's cores were.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import pg from 'pg';

import {
  prerender,
  rowsTouched,
  type RunningSimulator,
  scaledCosts,
  startSimulator,
  type UnitIdLayout,
  WEBLATE_5_14_COSTS,
} from '../src/simulator/index.ts';
import type { SyncSummary } from '../src/sync/summary.ts';
import { type BackfillResult, benchBackfill } from './backfill.ts';
import { measureCopyCeiling } from './copy-ceiling.ts';
import { minimumRequests, naiveRequests } from './references.ts';
import { benchReports } from './reports.ts';
import { benchWebhooks, type WebhookLoad, webhookReport, type WebhookResult } from './webhooks.ts';

const BIN = fileURLToPath(new URL('../bin/weblate-mirror.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

/** The requests' concurrency of the syncs (the default WEBLATE_CONCURRENCY). */
const CONCURRENCY = 4;

interface RunResult {
  summary: SyncSummary;
  wallMs: number;
  /** Rows the server counted, skipped and serialized for the sync's requests. */
  rowsTouched: number;
  /** Of those, the rows of the global translation list's pages (see translationListRows). */
  translationListRows: number;
  /** Rows the unit list's pages counted, and the units they served (see unitListWork). */
  unitList: { counted: number; served: number };
  /** The server's service time for them under the cost model. */
  serviceMs: number;
  /** The share of the machine's cores busy during the sync (every process: sync, database, server). */
  machineBusy: number;
}

interface Scenario {
  name: string;
  requests: number;
  unitRequests: number;
  wallMs: number;
  unitsPerSecond: number | null;
  peakRssMb: number;
  byResource: Record<string, number>;
  /** Per resource, ms from its first page read to its last stored (in the JSON results only). */
  activeMs: Record<string, number>;
  /** Units and changes written. */
  records: number;
  rowsTouched: number;
  translationListRows: number;
  unitList: { counted: number; served: number };
  serviceMs: number;
  machineBusy: number;
}

/** An instance to benchmark: the default (about 200,000 units) or a large one. */
interface Shape {
  name: string;
  projects: number;
  components: number;
  languages: number;
  units: number;
  changes: number;
}

function options() {
  const { values } = parseArgs({
    options: {
      units: { type: 'string', default: '200000' },
      changes: { type: 'string', default: '100000' },
      'small-units': { type: 'string', default: '50000' },
      components: { type: 'string', default: '40' },
      languages: { type: 'string', default: '10' },
      projects: { type: 'string', default: '3' },
      'large-projects': { type: 'string', default: '1000' },
      'large-components': { type: 'string', default: '5000' },
      'large-units': { type: 'string', default: '1000000' },
      'large-changes': { type: 'string', default: '200000' },
      shapes: { type: 'string', default: 'default,large,sparse,backfill,webhooks' },
      'sparse-units': { type: 'string', default: '200000' },
      'webhook-edits-per-minute': { type: 'string', default: '30' },
      'webhook-minutes': { type: 'string', default: '2' },
      'backfill-units': { type: 'string', default: '1000000' },
      'backfill-changes': { type: 'string', default: '1000000' },
      'cost-scale': { type: 'string', default: '0.1' },
      'server-bound-units': { type: 'string', default: '50000' },
      'server-bound-scale': { type: 'string', default: '1' },
      'report-changes': { type: 'string', default: '1000000' },
      'database-url': {
        type: 'string',
        default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
    },
  });
  const int = (name: keyof typeof values) => Number.parseInt(String(values[name]), 10);
  const shapes: Shape[] = [
    {
      name: 'default',
      projects: int('projects'),
      components: int('components'),
      languages: int('languages'),
      units: int('units'),
      changes: int('changes'),
    },
    {
      name: 'large',
      projects: int('large-projects'),
      components: int('large-components'),
      languages: int('languages'),
      units: int('large-units'),
      changes: int('large-changes'),
    },
  ];
  const chosen = String(values.shapes).split(',');
  return {
    shapes: shapes.filter((shape) => chosen.includes(shape.name)),
    backfill: chosen.includes('backfill')
      ? { units: int('backfill-units'), changes: int('backfill-changes'), translations: 50_000 }
      : null,
    webhooks: chosen.includes('webhooks')
      ? {
          load: {
            editsPerMinute: int('webhook-edits-per-minute'),
            minutes: Number(values['webhook-minutes']),
          },
          // The default shape's projects and components, with fewer strings.
          shape: {
            name: 'webhooks',
            projects: int('projects'),
            components: int('components'),
            languages: int('languages'),
            units: 20_000,
            changes: 10_000,
          },
        }
      : null,
    reports: chosen.includes('reports')
      ? {
          projects: int('large-projects'),
          components: int('large-components'),
          languages: int('languages'),
          units: int('large-units'),
          changes: int('report-changes'),
        }
      : null,
    smallUnits: int('small-units'),
    // The default shape's projects and components, at `--sparse-units`.
    sparse: chosen.includes('sparse') ? { units: int('sparse-units'), shape: shapes[0]! } : null,
    costScale: Number(values['cost-scale']),
    serverBound: {
      units: int('server-bound-units'),
      costScale: Number(values['server-bound-scale']),
    },
    databaseUrl: String(values['database-url']),
  };
}

async function withScratchDatabase<T>(
  adminUrl: string,
  fn: (url: string) => Promise<T>,
): Promise<T> {
  const name = `weblate_mirror_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await fn(url.href);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** One `weblate-mirror sync` in a child process; the run's own summary comes from sync_runs. */
async function runSync(sim: RunningSimulator, databaseUrl: string): Promise<RunResult> {
  const users = sim.instance.users.filter((u) => u.subscriptions.length > 0).map((u) => u.username);
  sim.requests.reset();
  const cpuBefore = cpuTimes();
  const started = performance.now();
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    // The bin itself (its shebang sets the heap cap users get).
    const child = spawn(BIN, ['sync'], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl,
        WEBLATE_URL: sim.url,
        WEBLATE_USERS: users.join(','),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30 * 60_000);
    child.on('error', reject);
    child.on('close', (exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
  const wallMs = performance.now() - started;
  const cpuAfter = cpuTimes();
  const machineBusy =
    (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total || Infinity);
  if (code !== 0) throw new Error(`sync exited with ${String(code)}:\n${output}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const row = await client.query<{ summary: SyncSummary }>(
      'select summary from weblate.sync_runs order by id desc limit 1',
    );
    return {
      summary: row.rows[0]!.summary,
      wallMs,
      rowsTouched: rowsTouched(sim.requests.work),
      translationListRows: translationListRows(sim),
      unitList: unitListWork(sim),
      serviceMs: sim.requests.serviceMs,
      machineBusy,
    };
  } finally {
    await client.end();
  }
}

/** Milliseconds all the machine's cores have spent, and spent busy (not idle or waiting on I/O). */
function cpuTimes(): { total: number; busy: number } {
  let total = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    total += times.user + times.nice + times.sys + times.idle + times.irq;
    idle += times.idle;
  }
  return { total, busy: total - idle };
}

/**
 * Rows the global translation list's pages made the server touch. It takes no filter, so
 * page numbers are the only way through it: each of its pages (at most 1,000 translations)
 * counts the whole list and skips the pages before it, and at 50,000 translations that is
 * most of a full sync's rows. Reading it per component instead would touch few rows but
 * cost a request per component: under Weblate 5.14's measured costs (simulator/cost.ts),
 * 5,000 requests at 25 ms against 50 pages' 3.7 million rows at 0.00275 ms, about 125 s
 * of server time against 11 s, and 4,950 more requests of the hour's budget.
 */
function translationListRows(sim: RunningSimulator): number {
  return sim.requests.entries
    .filter((entry) => /^\/api\/translations\/(\?|$)/.test(entry.target))
    .reduce((sum, entry) => sum + rowsTouched(entry.work), 0);
}

/**
 * Rows the global unit list's pages (the unit walk's windows, the strategy's probe, units read
 * by id) made the server count, and the units they served. Weblate counts every row a
 * request matches, so a window that overflows its page counts rows read again later.
 */
function unitListWork(sim: RunningSimulator): { counted: number; served: number } {
  const entries = sim.requests.entries.filter((entry) =>
    /^\/api\/units\/(\?|$)/.test(entry.target),
  );
  return {
    counted: entries.reduce((sum, entry) => sum + entry.work.counted, 0),
    served: entries.reduce((sum, entry) => sum + entry.work.units, 0),
  };
}

/** Rows the unit list counted per unit row it served (see unitListWork). */
function countedPerServed(s: Scenario): number {
  return s.unitList.counted / Math.max(1, s.unitList.served);
}

/** The unit walk's target: its windows count little more than the rows they serve. */
function unitWindowCheck(s: Scenario, where: string): Check {
  const ratio = countedPerServed(s);
  return [`unit windows: rows counted per row served ≤ 1.5${where}`, ratio, ratio <= 1.5];
}

function scenario(name: string, run: RunResult): Scenario {
  const byResource = Object.fromEntries(run.summary.resources.map((r) => [r.resource, r.requests]));
  const units = run.summary.resources.find((r) => r.resource === 'units')!;
  const rows = (resource: string) =>
    run.summary.resources.find((r) => r.resource === resource)?.rows ?? 0;
  return {
    name,
    requests: run.summary.requests,
    unitRequests: units.requests,
    wallMs: Math.round(run.wallMs),
    unitsPerSecond:
      units.durationMs > 0 && units.rows > 0
        ? Math.round(units.rows / (units.durationMs / 1000))
        : null,
    peakRssMb: run.summary.peakRssMb,
    byResource,
    activeMs: Object.fromEntries(run.summary.resources.map((r) => [r.resource, r.durationMs])),
    records: rows('units') + rows('changes'),
    rowsTouched: run.rowsTouched,
    translationListRows: run.translationListRows,
    unitList: run.unitList,
    serviceMs: Math.round(run.serviceMs),
    machineBusy: run.machineBusy,
  };
}

async function startSized(
  o: ReturnType<typeof options>,
  shape: Shape,
  costScale = o.costScale,
  unitIds: UnitIdLayout = 'dense',
): Promise<RunningSimulator> {
  const sim = await startSimulator({
    seed: 7,
    projects: shape.projects,
    components: shape.components,
    languages: shape.languages,
    units: shape.units,
    changes: shape.changes,
    users: 3,
    costModel: scaledCosts(WEBLATE_5_14_COSTS, costScale),
    unitIds,
  });
  // A real Weblate renders its JSON on its own machine: keep that off the measured cores.
  prerender(sim.instance, sim.url);
  return sim;
}

/** One shape: full sync, no-change sync, 0.1% changed, references and the COPY ceiling. */
async function benchShape(o: ReturnType<typeof options>, shape: Shape) {
  const sim = await startSized(o, shape);
  try {
    return await withScratchDatabase(o.databaseUrl, async (url) => {
      // The references describe the instance the full sync read, before the edits below.
      const instance = {
        units: sim.instance.units.length,
        translations: sim.instance.translations.length,
        changes: sim.instance.changes.length,
        projects: sim.instance.projects.length,
      };
      const minimum = minimumRequests(sim.instance);
      const naive = naiveRequests(sim.instance);
      const full = scenario('full sync', await runSync(sim, url));
      const quiet = scenario('no-change sync', await runSync(sim, url));
      const edited = editSpread(sim, Math.ceil(sim.instance.units.length / 1000));
      const changed = scenario('sync after 0.1% of units changed', await runSync(sim, url));
      const ceiling = await measureCopyCeiling(url);
      return {
        shape,
        instance,
        scenarios: [full, quiet, changed],
        justified: justifiedRequests(sim, edited),
        minimum,
        naive,
        ceiling,
      };
    });
  } finally {
    await sim.close();
  }
}

/** Edits `count` translated units spread evenly over the instance; returns their ids. */
function editSpread(sim: RunningSimulator, count: number): number[] {
  const targets = sim.instance.units.filter((u) => u.state === 20);
  const step = Math.max(1, Math.floor(targets.length / count));
  const ids = targets
    .filter((_, i) => i % step === 0)
    .slice(0, count)
    .map((u) => u.id);
  sim.mutate.editUnits(ids);
  return ids;
}

/**
 * The requests that edits of these units justify: the pages of their changes, and for each
 * component they touch its translation list and its statistics, each language's statistics,
 * the unit strategy's probe and the pages of changed units.
 */
function justifiedRequests(sim: RunningSimulator, unitIds: number[]): number {
  const { index } = sim.instance;
  const components = new Set<number>();
  const languages = new Set<number>();
  for (const id of unitIds) {
    const unit = index.unitById.get(id);
    const translation = unit && index.translationById.get(unit.translationId);
    if (translation === undefined) continue;
    components.add(translation.componentId);
    languages.add(translation.languageId);
  }
  return (
    Math.ceil(unitIds.length / 1000) +
    2 * components.size +
    languages.size +
    1 +
    Math.ceil(unitIds.length / 10_000)
  );
}

/**
 * The shape at `units` (its changes in proportion), full sync only, at `costScale` × Weblate's
 * measured costs. At `smallUnits` and the benchmark's cost scale: does peak memory grow with
 * the instance? At `serverBound`, Weblate's measured costs themselves (× 1 by default) rather
 * than the benchmark's shorter clock: the server, not this machine's two cores, is what the
 * sync waits on, as against a real Weblate. Does the sync keep the server's places busy?
 */
async function benchFullSync(
  o: ReturnType<typeof options>,
  shape: Shape,
  {
    units,
    costScale,
    name,
    unitIds = 'dense',
  }: { units: number; costScale: number; name: string; unitIds?: UnitIdLayout },
): Promise<Scenario> {
  const changes = Math.round((shape.changes * units) / shape.units);
  const sim = await startSized(o, { ...shape, units, changes }, costScale, unitIds);
  try {
    return await withScratchDatabase(o.databaseUrl, async (url) =>
      scenario(name, await runSync(sim, url)),
    );
  } finally {
    await sim.close();
  }
}

/** The wall-time target of a full sync. */
function wallCheck(full: Scenario, where: string): Check {
  return [
    `full-sync wall time ≤ 1.3 × service time ÷ ${CONCURRENCY}${where}`,
    full.wallMs / (full.serviceMs / CONCURRENCY),
    full.wallMs <= (1.3 * full.serviceMs) / CONCURRENCY,
  ];
}

type ShapeResult = Awaited<ReturnType<typeof benchShape>>;
type Check = readonly [name: string, ratio: number, ok: boolean];

/** The targets one shape is held to. */
function shapeChecks(result: ShapeResult): Check[] {
  const [full, quiet, changed] = result.scenarios as [Scenario, Scenario, Scenario];
  const { minimum, ceiling, justified } = result;
  return [
    [`full-sync requests ≤ 1.2 × minimum`, full.requests / minimum, full.requests <= 1.2 * minimum],
    [
      `full-sync units/s ≥ 50% of the COPY ceiling`,
      (full.unitsPerSecond ?? 0) / ceiling.rowsPerSecond,
      (full.unitsPerSecond ?? 0) >= 0.5 * ceiling.rowsPerSecond,
    ],
    [
      // Units and changes are read and written side by side: the whole sync counts.
      `full-sync records (units and changes) per second of the whole sync ≥ 75% of the COPY ceiling`,
      full.records / (full.wallMs / 1000) / ceiling.rowsPerSecond,
      full.records / (full.wallMs / 1000) >= 0.75 * ceiling.rowsPerSecond,
    ],
    [
      `full-sync server rows touched per record ≤ 2.5`,
      full.rowsTouched / full.records,
      full.rowsTouched <= 2.5 * full.records,
    ],
    wallCheck(full, ''),
    unitWindowCheck(full, ''),
    [`no-change sync ≤ 2 requests`, quiet.requests / 2, quiet.requests <= 2],
    [
      `sync after 0.1% changed ≤ 1.5 × the ${justified} requests the changes justify`,
      changed.requests / justified,
      changed.requests <= 1.5 * justified,
    ],
    [`peak RSS < 300 MB`, full.peakRssMb / 300, full.peakRssMb < 300],
  ];
}

/** Peak RSS of one full sync against another's: flat means within a quarter. */
function flatCheck(name: string, smaller: Scenario, larger: Scenario): Check {
  return [
    `peak RSS not growing with size (${name})`,
    larger.peakRssMb / smaller.peakRssMb,
    larger.peakRssMb <= smaller.peakRssMb * 1.25,
  ];
}

function scenarioTable(scenarios: Scenario[]): string[] {
  const header = [
    'scenario',
    'requests',
    'unit requests',
    'wall time',
    'service time',
    'rows/record',
    'units/s',
    'peak RSS',
    'CPU busy',
  ];
  return [
    header.map((h, i) => (i === 0 ? h.padEnd(40) : h.padStart(14))).join(''),
    ...scenarios.map((s) =>
      [
        s.name.padEnd(40),
        String(s.requests).padStart(14),
        String(s.unitRequests).padStart(14),
        `${(s.wallMs / 1000).toFixed(1)} s`.padStart(14),
        `${(s.serviceMs / 1000).toFixed(1)} s`.padStart(14),
        (s.records === 0 ? '' : (s.rowsTouched / s.records).toFixed(2)).padStart(14),
        (s.unitsPerSecond === null ? '' : String(s.unitsPerSecond)).padStart(14),
        `${s.peakRssMb} MB`.padStart(14),
        `${Math.round(s.machineBusy * 100)}%`.padStart(14),
      ].join(''),
    ),
  ];
}

function report(
  o: ReturnType<typeof options>,
  results: ShapeResult[],
  small: Scenario | null,
  serverBound: Scenario | null,
  sparse: Scenario | null,
) {
  const checks: { shape: string; name: string; ratio: number; ok: boolean }[] = [];
  const lines = [
    `weblate-mirror benchmark (service time: Weblate 5.14's measured costs × ${o.costScale}, simulator/cost.ts;`,
    'rows/record: rows the server counted, skipped and serialized per unit or change written)',
  ];
  for (const result of results) {
    const { shape, instance, minimum, naive, ceiling } = result;
    const full = result.scenarios[0]!;
    const own: Check[] = shapeChecks(result);
    if (shape.name === 'default' && small !== null)
      own.push(flatCheck(`${small.name} → full`, small, full));
    if (shape.name === 'default' && serverBound !== null)
      own.push(wallCheck(serverBound, `, ${serverBound.name}`));
    const first = results[0]!;
    if (result !== first)
      own.push(flatCheck(`${first.shape.name} → ${shape.name}`, first.scenarios[0]!, full));
    const extra = shape.name === 'default' ? [small, serverBound] : [];
    const scenarios = [...result.scenarios, ...extra.filter((s): s is Scenario => s !== null)];
    lines.push(
      '',
      `${shape.name} shape: ${instance.projects} projects, ${shape.components} components, ${instance.units} units in ${instance.translations} translations, ${instance.changes} changes`,
      '',
      ...scenarioTable(scenarios),
      '',
      `full sync, rows/record without the global translation list's pages: ${((full.rowsTouched - full.translationListRows) / full.records).toFixed(2)} (the list: ${full.translationListRows} rows)`,
      unitListLine(full),
      `minimum requests (every list once, largest pages): ${minimum}`,
      `naive per-translation walk at page size 50:        ${naive} (${(naive / minimum).toFixed(1)} × the minimum)`,
      `COPY + one INSERT … ON CONFLICT of the same rows:  ${Math.round(ceiling.rowsPerSecond)} rows/s (${ceiling.rows} rows in ${(ceiling.ms / 1000).toFixed(1)} s)`,
      `  the same into a table without the foreign key:   ${Math.round(ceiling.withoutForeignKey.rowsPerSecond)} rows/s (full sync at ${((full.unitsPerSecond ?? 0) / ceiling.withoutForeignKey.rowsPerSecond).toFixed(2)} of it)`,
      '',
      'targets:',
      ...own.map(
        ([name, ratio, ok]) => `  ${ok ? 'met    ' : 'MISSED '} ${name}: ${ratio.toFixed(2)}`,
      ),
    );
    checks.push(...own.map(([name, ratio, ok]) => ({ shape: shape.name, name, ratio, ok })));
  }
  if (sparse !== null) {
    const own = [unitWindowCheck(sparse, ', sparse-clustered ids'), wallCheck(sparse, ', sparse')];
    lines.push(
      '',
      'sparse-clustered unit ids (the default shape, simulator/unit-ids.ts):',
      '',
      ...scenarioTable([sparse]),
      '',
      unitListLine(sparse),
      '',
      'targets:',
      ...own.map(
        ([name, ratio, ok]) => `  ${ok ? 'met    ' : 'MISSED '} ${name}: ${ratio.toFixed(2)}`,
      ),
    );
    checks.push(...own.map(([name, ratio, ok]) => ({ shape: 'sparse', name, ratio, ok })));
  }
  return { text: lines.join('\n'), checks };
}

function unitListLine(s: Scenario): string {
  const { counted, served } = s.unitList;
  return `unit list, rows counted per row served: ${countedPerServed(s).toFixed(2)} (${counted} counted, ${served} served)`;
}

/** The backfill's lines: its time against one pass over the changes. */
function backfillReport(b: BackfillResult): string {
  return [
    `backfill: ${b.units} units, ${b.changes} changes in ${b.translations} translations (PostgreSQL, built in SQL)`,
    `  weblate-mirror backfill:             ${(b.ms / 1000).toFixed(1)} s, ${b.days} translation-days estimated in ${b.rows} rows, ${b.tempMb} MB of temporary files`,
    `  one pass over the changes (grouped): ${(b.passMs / 1000).toFixed(1)} s`,
    `  backfill ÷ one pass: ${(b.ms / b.passMs).toFixed(2)}`,
  ].join('\n');
}

/** The worker fed by webhooks (bench/webhooks.ts), after a first full sync. */
async function benchWebhookShape(
  o: ReturnType<typeof options>,
  { load, shape }: { load: Omit<WebhookLoad, 'pattern'>; shape: Shape },
): Promise<WebhookResult[]> {
  const results: WebhookResult[] = [];
  for (const pattern of ['sessions', 'scattered'] as const) {
    const sim = await startSized(o, shape);
    try {
      results.push(
        await withScratchDatabase(o.databaseUrl, async (url) => {
          await runSync(sim, url);
          return benchWebhooks(sim, url, { ...load, pattern });
        }),
      );
    } finally {
      await sim.close();
    }
  }
  return results;
}

async function main(): Promise<void> {
  const o = options();
  const started = performance.now();
  const byDefault = o.shapes.find((shape) => shape.name === 'default');
  const { units, costScale } = o.serverBound;
  const small =
    byDefault === undefined
      ? null
      : await benchFullSync(o, byDefault, {
          units: o.smallUnits,
          costScale: o.costScale,
          name: `full sync (${o.smallUnits} units)`,
        });
  const serverBound =
    byDefault === undefined
      ? null
      : await benchFullSync(o, byDefault, {
          units,
          costScale,
          name: `full sync, costs × ${costScale} (${units} units)`,
        });
  const results: ShapeResult[] = [];
  for (const shape of o.shapes) results.push(await benchShape(o, shape));
  const sparse =
    o.sparse === null
      ? null
      : await benchFullSync(o, o.sparse.shape, {
          units: o.sparse.units,
          costScale: o.costScale,
          name: `full sync, sparse-clustered ids (${o.sparse.units} units)`,
          unitIds: 'sparse-clustered',
        });
  const backfill =
    o.backfill === null
      ? null
      : await withScratchDatabase(o.databaseUrl, (url) => benchBackfill(url, o.backfill!));
  const webhooks = o.webhooks === null ? null : await benchWebhookShape(o, o.webhooks);
  const reports =
    o.reports === null
      ? null
      : await benchReports({
          adminUrl: o.databaseUrl,
          shape: o.reports,
          reuse: false,
          drop: true,
          buildOnly: false,
          timeoutMs: 120_000,
          reportTimeoutMs: 300_000,
          command: 'npm run bench -- --shapes reports',
        });
  const { text, checks } = report(o, results, small, serverBound, sparse);
  const backfillText = backfill === null ? '' : `\n\n${backfillReport(backfill)}`;
  const webhookText =
    webhooks === null ? '' : webhooks.map((w) => `\n\n${webhookReport(w)}`).join('');
  const reportsText = reports?.markdown == null ? '' : `\n\nreporting:\n\n${reports.markdown}`;
  process.stdout.write(
    `${text}${backfillText}${webhookText}${reportsText}\n\nwhole benchmark: ${((performance.now() - started) / 60_000).toFixed(1)} min\n`,
  );
  mkdirSync(RESULTS, { recursive: true });
  const file = `${RESULTS}${new Date().toISOString().replaceAll(':', '-')}.json`;
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, options: o, small, serverBound, sparse, results, backfill, webhooks, reports: reports?.measured ?? null, checks }, null, 2)}\n`,
  );
  process.stdout.write(`\nresults written to ${file}\n`);
}

await main();

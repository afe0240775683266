/**
 * weblate-mirror benchmark: syncs the simulator (on loopback, in this process) into a
 * scratch PostgreSQL database with the CLI (a child process, so its peak memory is its
 * own), and prints the results beside references measured in the same run.
 *
 *   npm run bench -- [--units 200000] [--changes 100000] [--small-units 50000] [--cost-scale 0.1] [--database-url postgres://…]
 *
 * The simulator runs with Weblate 5.14's cost model (simulator/cost.ts) at `--cost-scale`
 * (a tenth of the measured times by default, to keep the run short): every scenario reports
 * the rows its requests made the server count, skip and serialize, and the service time.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import pg from 'pg';

import {
  prerender,
  rowsTouched,
  type RunningSimulator,
  scaledCosts,
  startSimulator,
  WEBLATE_5_14_COSTS,
} from '../src/simulator/index.ts';
import type { SyncSummary } from '../src/sync/summary.ts';
import { measureCopyCeiling } from './copy-ceiling.ts';
import { minimumRequests, naiveRequests } from './references.ts';

const BIN = fileURLToPath(new URL('../bin/weblate-mirror.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

/** The requests' concurrency of the syncs (the default WEBLATE_CONCURRENCY). */
const CONCURRENCY = 4;

interface RunResult {
  summary: SyncSummary;
  wallMs: number;
  /** Rows the server counted, skipped and serialized for the sync's requests. */
  rowsTouched: number;
  /** The server's service time for them under the cost model. */
  serviceMs: number;
}

interface Scenario {
  name: string;
  requests: number;
  unitRequests: number;
  wallMs: number;
  unitsPerSecond: number | null;
  peakRssMb: number;
  byResource: Record<string, number>;
  /** Units and changes written. */
  records: number;
  rowsTouched: number;
  serviceMs: number;
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
      'cost-scale': { type: 'string', default: '0.1' },
      'database-url': {
        type: 'string',
        default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
    },
  });
  const int = (name: keyof typeof values) => Number.parseInt(String(values[name]), 10);
  return {
    units: int('units'),
    changes: int('changes'),
    smallUnits: int('small-units'),
    components: int('components'),
    languages: int('languages'),
    projects: int('projects'),
    costScale: Number(values['cost-scale']),
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
      serviceMs: sim.requests.serviceMs,
    };
  } finally {
    await client.end();
  }
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
    records: rows('units') + rows('changes'),
    rowsTouched: run.rowsTouched,
    serviceMs: Math.round(run.serviceMs),
  };
}

async function startSized(
  o: ReturnType<typeof options>,
  units: number,
  changes: number,
): Promise<RunningSimulator> {
  const sim = await startSimulator({
    seed: 7,
    projects: o.projects,
    components: o.components,
    languages: o.languages,
    units,
    changes,
    users: 3,
    costModel: scaledCosts(WEBLATE_5_14_COSTS, o.costScale),
  });
  // A real Weblate renders its JSON on its own machine: keep that off the measured cores.
  prerender(sim.instance, sim.url);
  return sim;
}

/** The large instance: full sync, no-change sync, 1% changed, references and the COPY ceiling. */
async function benchLarge(o: ReturnType<typeof options>) {
  const sim = await startSized(o, o.units, o.changes);
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

async function benchSmall(o: ReturnType<typeof options>): Promise<Scenario> {
  const sim = await startSized(o, o.smallUnits, Math.round((o.changes * o.smallUnits) / o.units));
  try {
    return await withScratchDatabase(o.databaseUrl, async (url) =>
      scenario(`full sync (${o.smallUnits} units)`, await runSync(sim, url)),
    );
  } finally {
    await sim.close();
  }
}

function report(
  o: ReturnType<typeof options>,
  large: Awaited<ReturnType<typeof benchLarge>>,
  small: Scenario,
) {
  const [full, quiet, changed] = large.scenarios as [Scenario, Scenario, Scenario];
  const checks = [
    [
      `full-sync requests ≤ 1.2 × minimum`,
      full.requests / large.minimum,
      full.requests <= 1.2 * large.minimum,
    ],
    [
      `full-sync units/s ≥ 50% of the COPY ceiling`,
      (full.unitsPerSecond ?? 0) / large.ceiling.rowsPerSecond,
      (full.unitsPerSecond ?? 0) >= 0.5 * large.ceiling.rowsPerSecond,
    ],
    [
      // Units and changes are read and written side by side: the whole sync counts.
      `full-sync records (units and changes) per second of the whole sync ≥ 75% of the COPY ceiling`,
      full.records / (full.wallMs / 1000) / large.ceiling.rowsPerSecond,
      full.records / (full.wallMs / 1000) >= 0.75 * large.ceiling.rowsPerSecond,
    ],
    [
      `full-sync server rows touched per record ≤ 2.5`,
      full.rowsTouched / full.records,
      full.rowsTouched <= 2.5 * full.records,
    ],
    [
      `full-sync wall time ≤ 1.3 × service time ÷ ${CONCURRENCY}`,
      full.wallMs / (full.serviceMs / CONCURRENCY),
      full.wallMs <= (1.3 * full.serviceMs) / CONCURRENCY,
    ],
    [`no-change sync ≤ 2 requests`, quiet.requests / 2, quiet.requests <= 2],
    [
      `sync after 0.1% changed ≤ 1.5 × the ${large.justified} requests the changes justify`,
      changed.requests / large.justified,
      changed.requests <= 1.5 * large.justified,
    ],
    [`peak RSS < 300 MB`, full.peakRssMb / 300, full.peakRssMb < 300],
    [
      `peak RSS not growing with size (${small.name} → full)`,
      full.peakRssMb / small.peakRssMb,
      full.peakRssMb <= small.peakRssMb * 1.25,
    ],
  ] as const;
  const lines = [
    `weblate-mirror benchmark: ${large.instance.units} units in ${large.instance.translations} translations, ${large.instance.changes} changes`,
    '',
    [
      'scenario',
      'requests',
      'unit requests',
      'wall time',
      'service time',
      'rows/record',
      'units/s',
      'peak RSS',
    ]
      .map((h, i) => (i === 0 ? h.padEnd(34) : h.padStart(14)))
      .join(''),
    ...[full, quiet, changed, small].map((s) =>
      [
        s.name.padEnd(34),
        String(s.requests).padStart(14),
        String(s.unitRequests).padStart(14),
        `${(s.wallMs / 1000).toFixed(1)} s`.padStart(14),
        `${(s.serviceMs / 1000).toFixed(1)} s`.padStart(14),
        (s.records === 0 ? '' : (s.rowsTouched / s.records).toFixed(2)).padStart(14),
        (s.unitsPerSecond === null ? '' : String(s.unitsPerSecond)).padStart(14),
        `${s.peakRssMb} MB`.padStart(14),
      ].join(''),
    ),
    '',
    `service time: Weblate 5.14's measured costs × ${o.costScale} (simulator/cost.ts); rows/record: rows the server counted, skipped and serialized per unit or change written`,
    '',
    `minimum requests (every list once, largest pages): ${large.minimum}`,
    `naive per-translation walk at page size 50:        ${large.naive} (${(large.naive / large.minimum).toFixed(1)} × the minimum)`,
    `COPY + one INSERT … ON CONFLICT of the same rows:  ${Math.round(large.ceiling.rowsPerSecond)} rows/s (${large.ceiling.rows} rows in ${(large.ceiling.ms / 1000).toFixed(1)} s)`,
    `  the same into a table without the foreign key:   ${Math.round(large.ceiling.withoutForeignKey.rowsPerSecond)} rows/s (full sync at ${((full.unitsPerSecond ?? 0) / large.ceiling.withoutForeignKey.rowsPerSecond).toFixed(2)} of it)`,
    '',
    'targets:',
    ...checks.map(
      ([name, ratio, ok]) => `  ${ok ? 'met    ' : 'MISSED '} ${name}: ${ratio.toFixed(2)}`,
    ),
  ];
  return {
    text: lines.join('\n'),
    checks: checks.map(([name, ratio, ok]) => ({ name, ratio, ok })),
  };
}

async function main(): Promise<void> {
  const o = options();
  const small = await benchSmall(o);
  const large = await benchLarge(o);
  const { text, checks } = report(o, large, small);
  process.stdout.write(`${text}\n`);
  mkdirSync(RESULTS, { recursive: true });
  const file = `${RESULTS}${new Date().toISOString().replaceAll(':', '-')}.json`;
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, options: o, small, ...large, checks }, null, 2)}\n`,
  );
  process.stdout.write(`\nresults written to ${file}\n`);
}

await main();

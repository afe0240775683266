// npm run test:service-day [-- --minutes N --database postgres|embedded --out file.json]
//
// A day of service, compressed (issue 27, item 6). `weblate-mirror worker` runs in a process of
// its own against the simulator (in this process), which edits 100 units a minute, evenly
// spaced, adds and deletes strings and adds components now and then, and posts a signed
// webhook for every change it records, as Weblate's webhook add-on does. The worker's clock
// runs 60 times as fast where its configuration allows: a minute of wall time is an hour of
// service (incremental sync every 15 s for every 15 min, statistics every minute for every
// hour, discovery every 60 s for every hour), and the daily reconcile runs two or three times
// (reconcileCron).
//
// Every SAMPLE_MS it samples the worker's RSS and open file descriptors (/proc), its database
// connections (PostgreSQL: pg_stat_activity; embedded: none exist, the database is inside the
// process, so the descriptors open in its data folder instead) and its event-loop delay and
// heap (/metrics). After the warm-up it fits a least-squares slope to each series and fails
// when one exceeds its bound. It fails too when an edit did not reach the mirror, when the
// mirror differs from a fresh full sync of the simulator at the end, when a run failed or was
// left `running`, or when the worker died or /healthz was not ok. It reports the time from each
// edit to its row in weblate.units: on PostgreSQL by polling the mirror on a connection of its
// own; the embedded database cannot be read while the worker holds it, so there the worker's
// own webhook freshness histogram (change time to commit) stands in for it.
//
// Without TEST_DATABASE_URL it creates (and drops) its databases on
// postgres://postgres@127.0.0.1:5432; with it, on that URL's server.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
} from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { sql } from 'kysely';
import pg from 'pg';

import { createDb } from '../src/db/client.ts';
import { type RunningSimulator, type SimUnit, startSimulator } from '../src/simulator/index.ts';
import { databaseEnv } from '../test/helpers/cli.ts';
import { adminQuery, databaseUrlOf } from '../test/helpers/database-template.ts';
import { compareMirrors, snapshotMirror } from '../test/helpers/mirror-compare.ts';
import { freePort } from '../test/helpers/ports.ts';
import { subscribedUsers } from '../test/helpers/sync.ts';

const BIN = fileURLToPath(new URL('../bin/weblate-mirror.js', import.meta.url));

const EDITS_PER_MINUTE = 100;
const SAMPLE_MS = 5_000;
const POLL_MS = 200;
/**
 * The first half of the run is warm-up, no slope fitted over it: it holds two reconciles (full
 * syncs), which raise the memory high-water marks a step each while the data grows.
 */
const WARM_UP_FRACTION = 0.5;
/** When reconciles run, as fractions of the run; the last only where the fit spans 10 minutes. */
const RECONCILE_AT = [0.2, 0.45];
const RECONCILE_IN_FIT_AT = 0.75;
/** The shortest fit whose slope is judged against its bound. */
const MIN_FIT_MINUTES = 5;
/** The p95 from edit to row the issue aims at; reported, not asserted (see P95_BOUND_MS). */
const P95_TARGET_MS = 2_000;
/**
 * Asserted on PostgreSQL: five times the target, so a shared, busy machine does not fail it,
 * while a mirror that left webhook edits to the 15-second schedule would.
 */
const P95_BOUND_MS = 10_000;
/** How long after the churn stops every edit has to be in the mirror. */
const DRAIN_MS = 120_000;

/** The worker's schedules: a minute of wall time stands for an hour of service. */
const WORKER_SCHEDULE = {
  WORKER_SYNC_CRON: '*/15 * * * * *',
  WORKER_STATISTICS_CRON: '0 * * * * *',
  WEBLATE_DISCOVERY_INTERVAL_SECONDS: '60',
  WEBHOOK_DEBOUNCE_SECONDS: '0.5',
};

interface SeriesSpec {
  name: string;
  unit: string;
  /** Largest slope allowed after warm-up, per minute; null: reported only. */
  bound: number | null;
  /** Fitted to each window's minimum (else its median), see windowed(). */
  floor: boolean;
  /** The shortest fit judged (default MIN_FIT_MINUTES). */
  minFitMinutes?: number;
  why: string;
}

const SERIES: SeriesSpec[] = [
  {
    name: 'rss_mb',
    floor: true,
    unit: 'MB',
    bound: 1,
    // The allocator keeps pages in steps of 5-15 MB at busy moments: over 6 minutes such a
    // step is a slope over 1 MB/min with no leak (docs/reliability.md#a-day-of-service-compressed).
    minFitMinutes: 10,
    why: 'a leak of 1 MB a minute is 1.4 GB a day; GC and allocator noise averages out far below it over 10 minutes',
  },
  {
    name: 'heap_live_mb',
    floor: true,
    unit: 'MB',
    bound: 1,
    why: 'the V8 heap right after each full collection (live objects); the same bound as RSS, without native memory',
  },
  {
    name: 'heap_used_mb',
    floor: true,
    unit: 'MB',
    bound: null,
    // Read at a scrape, it holds garbage a full collection minutes later frees: a 12-minute CI
    // run failed on a slope of 1.19 MB/min whose end was 0.2 MB above its start.
    why: 'the V8 heap at each scrape, garbage included; reported only',
  },
  {
    name: 'open_fds',
    floor: true,
    unit: 'fds',
    bound: 0.5,
    why: 'a run every few seconds: a descriptor leaked per run or per webhook batch is 10+ a minute',
  },
  {
    name: 'db_connections',
    floor: true,
    unit: 'connections',
    bound: 0.5,
    why: 'PostgreSQL sessions of the worker: a leak of one per run is several a minute; the pool holds at most 10',
  },
  {
    name: 'data_dir_fds',
    // Each window's median: the count dips for a moment when PostgreSQL closes a relation's
    // files (a truncated staging table) and comes back; fitted to those dips' minima, a flat
    // plateau of 164 failed a 12-minute CI run at 0.574/min (its medians: 0.092).
    floor: false,
    unit: 'fds',
    bound: 0.5,
    why: "descriptors open in the embedded database's folder: PostgreSQL keeps a relation's files open once it reads them, so the count steps up to the relations touched and stops; one leaked per run is 10+ a minute",
  },
  {
    name: 'event_loop_p99_ms',
    floor: false,
    unit: 'ms',
    bound: 10,
    why: "p99 event-loop delay over each sample: growth means work per tick grows with uptime (a list never trimmed); the machine's other load moves it by tens of ms, so the bound is wide",
  },
];

interface Sample {
  t: number;
  minute: number;
  rss_mb: number;
  heap_live_mb: number | null;
  heap_used_mb: number | null;
  open_fds: number;
  db_connections: number | null;
  data_dir_fds: number | null;
  event_loop_p99_ms: number | null;
  event_loop_max_ms: number | null;
}

interface EditRecord {
  n: number;
  unitId: number;
  changeId: number;
  marker: string;
  editedAt: number;
  arrivedAt: number | null;
}

interface Failure {
  check: string;
  message: string;
}

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    database: { type: 'string', default: 'postgres' },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const minutes = Number(flags.minutes);
const kind = flags.database;
if (!(minutes > 0) || (kind !== 'postgres' && kind !== 'embedded')) {
  process.stderr.write(
    'usage: service-day [--minutes N (> 0, default 20)] [--database postgres|embedded] [--out file.json] [--keep]\n',
  );
  process.exit(2);
}

function say(text: string): void {
  process.stdout.write(
    `${new Date().toISOString().slice(11, 19)} service-day (${kind}): ${text}\n`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- Databases --------------------------------------------------------------------------

interface MirrorDatabase {
  databaseUrl: string | null;
  dataDir: string;
  /** The database's name on PostgreSQL. */
  name: string | null;
  drop(): Promise<void>;
}

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function createDatabase(label: string): Promise<MirrorDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), `service-day-${label}-`));
  if (kind === 'embedded') {
    return {
      databaseUrl: null,
      dataDir,
      name: null,
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `service_day_${label}_${process.pid}`;
  await adminQuery(ADMIN_URL, `drop database if exists ${name} with (force)`);
  await adminQuery(ADMIN_URL, `create database ${name}`);
  return {
    databaseUrl: databaseUrlOf(ADMIN_URL, name),
    dataDir,
    name,
    drop: async () => {
      await adminQuery(ADMIN_URL, `drop database if exists ${name} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// ---- The worker's process ---------------------------------------------------------------

interface LogLine {
  time?: number;
  level?: number;
  msg?: string;
  job?: string;
  status?: string;
  kind?: string;
  [key: string]: unknown;
}

interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
  /** Jobs started and not yet finished (or failed to run), by name. */
  inFlight: Map<string, number>;
  /** Finished jobs: name → status → count. */
  finished: Map<string, Map<string, number>>;
  /** When each job last started (epoch ms). */
  lastStarted: Map<string, number>;
  /** When each job last finished (epoch ms). */
  lastFinished: Map<string, number>;
  /** Lines at level warn or above, the first few hundred. */
  problems: LogLine[];
  started: Promise<void>;
}

function startWorker(env: Record<string, string>, logPath: string): WorkerProcess {
  // As the shebang of bin/weblate-mirror.js runs it: `npx weblate-mirror worker`.
  const child = spawn(process.execPath, ['--max-old-space-size=256', BIN, 'worker'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    cwd: tmpdir(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logPath);
  const state: Omit<WorkerProcess, 'child' | 'exited' | 'hasExited' | 'started'> = {
    inFlight: new Map(),
    finished: new Map(),
    lastStarted: new Map(),
    lastFinished: new Map(),
    problems: [],
  };
  let resolveStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (resolveStarted = resolve));
  let buffered = '';
  const onLine = (text: string) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      if (state.problems.length < 300) state.problems.push({ msg: text });
      return;
    }
    const job = typeof line.job === 'string' ? line.job : null;
    const at = typeof line.time === 'number' ? line.time : Date.now();
    if (line.msg === 'worker started') resolveStarted();
    if (job !== null && line.msg === 'job started') {
      state.inFlight.set(job, (state.inFlight.get(job) ?? 0) + 1);
      state.lastStarted.set(job, at);
    }
    if (job !== null && (line.msg === 'job finished' || line.msg === 'job could not run')) {
      if ((state.inFlight.get(job) ?? 0) > 0)
        state.inFlight.set(job, (state.inFlight.get(job) ?? 0) - 1);
      const status = line.msg === 'job finished' ? String(line.status) : 'could not run';
      const byStatus = state.finished.get(job) ?? new Map<string, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      state.finished.set(job, byStatus);
      state.lastFinished.set(job, at);
    }
    if ((line.level ?? 0) >= 40 && state.problems.length < 300) state.problems.push(line);
  };
  const onData = (chunk: Buffer) => {
    log.write(chunk);
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const text of lines) if (text.trim() !== '') onLine(text);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exitedFlag = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      exitedFlag = true;
      log.end();
      resolve({ code, signal });
    }),
  );
  return { child, exited, hasExited: () => exitedFlag, started, ...state };
}

/** What bin/weblate-mirror.js decides: its bundle when no source is newer, else the sources. */
function isBuildCurrent(): boolean {
  const built = fileURLToPath(new URL('../dist/src/cli/bundle.js', import.meta.url));
  const newest = (dir: string): number => {
    let latest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) latest = Math.max(latest, newest(path));
      else if (entry.name.endsWith('.ts')) latest = Math.max(latest, statSync(path).mtimeMs);
    }
    return latest;
  };
  if (!existsSync(built)) return false;
  const sources = ['src', 'jobs', 'migrations'].map((d) =>
    newest(fileURLToPath(new URL(`../${d}`, import.meta.url))),
  );
  return statSync(built).mtimeMs >= Math.max(...sources);
}

// ---- Samples ----------------------------------------------------------------------------

function vmRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Open descriptors, and those of them open in `folder`. */
function openFds(pid: number, folder: string): { all: number; inFolder: number } {
  const fds = readdirSync(`/proc/${pid}/fd`);
  let inFolder = 0;
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(folder)) inFolder += 1;
    } catch {
      // Closed since the listing.
    }
  }
  return { all: fds.length, inFolder };
}

/** Values of /metrics, by full series text (name plus labels). */
async function scrape(base: string): Promise<Map<string, number>> {
  const response = await fetch(`${base}metrics`, { signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/** A quantile from a Prometheus histogram's cumulative buckets, interpolated linearly. */
function histogramQuantile(metrics: Map<string, number>, name: string, q: number): number | null {
  const buckets: Array<[number, number]> = [];
  for (const [series, value] of metrics) {
    const match = new RegExp(`^${name}_bucket\\{le="([^"]+)"\\}$`).exec(series);
    if (match) buckets.push([match[1] === '+Inf' ? Infinity : Number(match[1]), value]);
  }
  buckets.sort((a, b) => a[0] - b[0]);
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let [lowerLe, lowerCount] = [0, 0];
  for (const [le, count] of buckets) {
    if (count >= rank) {
      if (le === Infinity) return lowerLe;
      return lowerLe + ((le - lowerLe) * (rank - lowerCount)) / Math.max(count - lowerCount, 1);
    }
    [lowerLe, lowerCount] = [le, count];
  }
  return null;
}

function slopePerMinute(points: Array<[number, number]>): number | null {
  if (points.length < 3) return null;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

/**
 * The points reduced to one a window (a minute in a 20-minute run), at the window's mean time:
 * the window's minimum for `floor` series (memory after collections, not its sawtooth), else
 * its median (one slow tick, or a reconcile, does not tilt the fit).
 */
function windowed(
  points: Array<[number, number]>,
  from: number,
  floor: boolean,
): Array<[number, number]> {
  const width = Math.min(1, Math.max(0.25, minutes / 20));
  const windows = new Map<number, Array<[number, number]>>();
  for (const point of points) {
    const key = Math.floor((point[0] - from) / width);
    windows.set(key, [...(windows.get(key) ?? []), point]);
  }
  return [...windows.values()].map((window) => {
    const values = window.map(([, v]) => v).sort((a, b) => a - b);
    const value = floor ? (values[0] ?? NaN) : (values[Math.floor(values.length / 2)] ?? NaN);
    return [mean(window.map(([m]) => m)) ?? NaN, value];
  });
}

/**
 * Reconciles at fixed points of the run, not of the wall clock: one landing by chance early in
 * the fit raised RSS a step there and failed a 12-minute run on a slope that was no leak.
 */
function reconcileCron(start: Date, runMinutes: number): string {
  const fractions =
    runMinutes * (1 - WARM_UP_FRACTION) >= 2 * MIN_FIT_MINUTES
      ? [...RECONCILE_AT, RECONCILE_IN_FIT_AT]
      : RECONCILE_AT;
  const at = fractions.map((f) => new Date(start.getTime() + f * runMinutes * 60_000));
  const minuteList = [...new Set(at.map((d) => d.getUTCMinutes()))].join(',');
  return `${start.getUTCSeconds()} ${minuteList} * * * *`;
}

function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

// ---- The run ----------------------------------------------------------------------------

async function main(): Promise<number> {
  const failures: Failure[] = [];
  const fail = (check: string, message: string) => {
    failures.push({ check, message });
    say(`FAIL ${check}: ${message}`);
  };
  const cleanups: Array<() => Promise<unknown>> = [];
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const logPath = join(tmpdir(), `service-day-${kind}-${process.pid}-worker.log`);
  let sim: RunningSimulator | null = null;
  let worker: WorkerProcess | null = null;
  const samples: Sample[] = [];
  const edits: EditRecord[] = [];
  const other = { added: 0, deleted: 0, components: 0, translations: 0 };
  const goneChangeIds = new Set<string>();
  let result: Record<string, unknown> = {};
  try {
    sim = await startSimulator({
      seed: 27,
      projects: 3,
      components: 6,
      languages: 4,
      units: 6_000,
      changes: 3_000,
      users: 3,
    });
    const simulator = sim;
    cleanups.push(() => simulator.close());
    const { instance } = sim;
    say(
      `simulator ${sim.url}: ${instance.projects.length} projects, ${instance.components.length} components, ${instance.units.length} units`,
    );
    const mirror = await createDatabase('mirror');
    if (!flags.keep) cleanups.push(() => mirror.drop());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/`;
    const env = {
      ...databaseEnv(mirror),
      WEBLATE_URL: sim.url,
      WEBLATE_USERS: subscribedUsers(sim).join(','),
      LOG_LEVEL: 'info',
      WORKER_HTTP_PORT: String(port),
      WEBLATE_WEBHOOK_SECRET: secret,
      ...WORKER_SCHEDULE,
      WORKER_TIMEZONE: 'UTC',
      WORKER_RECONCILE_CRON: reconcileCron(new Date(), minutes),
    };
    say(`reconcile: ${env.WORKER_RECONCILE_CRON} (UTC)`);
    const workerEntry = isBuildCurrent()
      ? 'the bundle (dist/src/cli/bundle.js)'
      : 'the sources through tsx (dist/ is older than them)';
    say(`worker runs ${workerEntry}`);
    worker = startWorker(env, logPath);
    const running = worker;
    cleanups.push(async () => {
      if (!running.hasExited()) running.child.kill('SIGKILL');
      await running.exited;
    });
    const pid = running.child.pid!;
    say(`worker pid ${pid}, ${base}, log ${logPath}`);
    await Promise.race([
      running.started,
      running.exited.then(() => {
        throw new Error(`the worker exited at start; see ${logPath}`);
      }),
    ]);
    sim.setWebhook({ url: `${base}webhooks/weblate`, secret });
    // The first sync reads everything; webhook events before it would only wait for it.
    const firstSyncBy = Date.now() + 300_000;
    while ((running.finished.get('sync')?.get('succeeded') ?? 0) === 0) {
      if (running.hasExited() || Date.now() > firstSyncBy)
        throw new Error(`the worker's first sync did not succeed; see ${logPath}`);
      await sleep(200);
    }
    say('first sync done; churn starts');

    const reader =
      mirror.databaseUrl === null
        ? null
        : new pg.Client({
            connectionString: mirror.databaseUrl,
            application_name: 'service-day-reader',
          });
    if (reader !== null) {
      await reader.connect();
      cleanups.push(() => reader.end());
    }

    // -- Sampling
    const t0 = Date.now();
    let lastMetrics = new Map<string, number>();
    const takeSample = async () => {
      const metrics = await scrape(base).catch(() => null);
      if (metrics !== null) lastMetrics = metrics;
      const fds = openFds(pid, mirror.dataDir);
      let connections: number | null = null;
      if (reader !== null) {
        const rows = await reader.query<{ n: string }>(
          `select count(*) as n from pg_stat_activity where datname = $1 and application_name = 'weblate-mirror'`,
          [mirror.name],
        );
        connections = Number(rows.rows[0]?.n ?? NaN);
      }
      const get = (name: string) => metrics?.get(`weblate_mirror_${name}`) ?? null;
      const heap = get('nodejs_heap_size_used_bytes');
      const live = get('nodejs_heap_live_bytes');
      const p99 = get('nodejs_eventloop_lag_p99_seconds');
      const max = get('nodejs_eventloop_lag_max_seconds');
      const now = Date.now();
      samples.push({
        t: now,
        minute: (now - t0) / 60_000,
        rss_mb: vmRssMb(pid),
        heap_live_mb: live === null ? null : live / 2 ** 20,
        heap_used_mb: heap === null ? null : heap / 2 ** 20,
        open_fds: fds.all,
        db_connections: connections,
        data_dir_fds: mirror.databaseUrl === null ? fds.inFolder : null,
        event_loop_p99_ms: p99 === null ? null : p99 * 1000,
        event_loop_max_ms: max === null ? null : max * 1000,
      });
    };

    // -- Edit → row, on PostgreSQL
    const pending = new Map<number, EditRecord>();
    const poll = async () => {
      if (reader === null || pending.size === 0) return;
      const rows = await reader.query<{ id: string; target: string | null }>(
        'select id::text as id, target[1] as target from weblate.units where id = any($1::bigint[])',
        [[...pending.keys()]],
      );
      const now = Date.now();
      for (const row of rows.rows) {
        const edit = pending.get(Number(row.id));
        if (edit !== undefined && row.target?.startsWith(edit.marker) === true) {
          edit.arrivedAt = now;
          pending.delete(edit.unitId);
        }
      }
    };

    // -- Churn
    const sourceTranslations = () =>
      new Set(instance.translations.filter((t) => t.isSource).map((t) => t.id));
    // Strings whose source unit id is a multiple of 7 may be deleted; the others are edited,
    // so no edit's unit (or its change) disappears before it is checked.
    const deletable = (unit: SimUnit) => unit.sourceUnitId % 7 === 0;
    const editedUnits = new Set<number>();
    let n = 0;
    const editOne = () => {
      const sources = sourceTranslations();
      const candidates = instance.units.filter(
        (u) => !sources.has(u.translationId) && !deletable(u) && !pending.has(u.id),
      );
      const unit = candidates[Math.floor(Math.random() * candidates.length)];
      if (unit === undefined) return;
      n += 1;
      const marker = `service-day edit ${n} `;
      const { changeIds } = simulator.mutate.editUnits([unit.id], {
        target: `${marker}${randomBytes(3).toString('hex')}`,
      });
      const edit: EditRecord = {
        n,
        unitId: unit.id,
        changeId: changeIds[0] ?? -1,
        marker,
        editedAt: Date.now(),
        arrivedAt: null,
      };
      edits.push(edit);
      editedUnits.add(unit.id);
      if (reader !== null) pending.set(unit.id, edit);
    };
    const otherMutation = (tick: number) => {
      const components = instance.components;
      const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
      // Every 30 s a string is added, every 2 minutes one deleted, every 5 a component added
      // (so discovery has work), every 7 a translation.
      if (tick % 50 === 25) {
        const component = pick(components);
        if (component !== undefined) {
          simulator.mutate.addUnits(component.id, 1);
          other.added += 1;
        }
      }
      if (tick % 200 === 100) {
        const sources = sourceTranslations();
        const unit = pick(
          instance.units.filter(
            (u) => !sources.has(u.translationId) && deletable(u) && !editedUnits.has(u.id),
          ),
        );
        if (unit !== undefined) {
          const removed = simulator.mutate.deleteUnits([unit.id]);
          for (const id of removed.removedChangeIds) goneChangeIds.add(String(id));
          other.deleted += removed.unitIds.length;
        }
      }
      if (tick % 500 === 250) {
        const project = pick(instance.projects);
        const sourceLanguages = new Set(instance.components.map((c) => c.sourceLanguageId));
        const codes = instance.languages
          .filter((l) => !sourceLanguages.has(l.id))
          .slice(0, 2)
          .map((l) => l.code);
        if (project !== undefined) {
          simulator.mutate.addComponent(project.id, `service-day-${tick}`, {
            strings: 4,
            languages: codes,
          });
          other.components += 1;
        }
      }
      if (tick % 700 === 350) {
        const component = pick(components);
        const have = new Set(
          instance.translations
            .filter((t) => t.componentId === component?.id)
            .map((t) => t.languageId),
        );
        const language = instance.languages.find((l) => !have.has(l.id));
        if (component !== undefined && language !== undefined) {
          simulator.mutate.addTranslation(component.id, language.code);
          other.translations += 1;
        }
      }
    };

    const mutationErrors: string[] = [];
    const editEveryMs = 60_000 / EDITS_PER_MINUTE;
    const totalEdits = Math.round(minutes * EDITS_PER_MINUTE);
    let lastMutationAt = Date.now();
    let nextSample = t0;
    let nextPoll = t0;
    let lastReport = t0;
    let pollRunning: Promise<void> | null = null;
    for (let tick = 0; tick < totalEdits; tick++) {
      const due = t0 + tick * editEveryMs;
      while (Date.now() < due) {
        const now = Date.now();
        if (now >= nextSample) {
          nextSample += SAMPLE_MS;
          await takeSample();
        }
        if (now >= nextPoll && pollRunning === null) {
          nextPoll = now + POLL_MS;
          pollRunning = poll().finally(() => (pollRunning = null));
        }
        if (now - lastReport >= 60_000) {
          lastReport = now;
          const s = samples.at(-1);
          say(
            `${Math.round((now - t0) / 60_000)} min: ${edits.length} edits, ${pending.size} pending; rss ${s?.rss_mb.toFixed(1)} MB, fds ${s?.open_fds}, connections ${s?.db_connections ?? 'n/a'}`,
          );
        }
        if (running.hasExited())
          throw new Error(`the worker exited during the run; see ${logPath}`);
        await sleep(Math.min(50, Math.max(0, due - Date.now())));
      }
      editOne();
      try {
        otherMutation(tick);
      } catch (err) {
        // A mistake of this script, not of the mirror: said at the end, the run goes on.
        mutationErrors.push(err instanceof Error ? err.message : String(err));
      }
      lastMutationAt = Date.now();
    }
    const churnEnded = Date.now();
    say(`churn done: ${edits.length} edits in ${((churnEnded - t0) / 60_000).toFixed(2)} min`);

    // -- Drain: every webhook answered, every edit in the mirror, a scheduled sync since.
    await simulator.webhooksIdle();
    const drainBy = Date.now() + DRAIN_MS;
    const syncedSince = () => (running.lastFinished.get('sync') ?? 0) > lastMutationAt + 1_000;
    const isQuiet = () =>
      (lastMetrics.get('weblate_mirror_webhook_queued_events') ?? 1) === 0 &&
      [...running.inFlight.values()].every((count) => count === 0);
    while (Date.now() < drainBy) {
      await pollRunning;
      await poll();
      if (Date.now() >= nextSample) {
        nextSample += SAMPLE_MS;
        await takeSample();
      }
      lastMetrics = (await scrape(base).catch(() => null)) ?? lastMetrics;
      if (pending.size === 0 && syncedSince() && isQuiet()) break;
      await sleep(POLL_MS);
    }
    await takeSample();
    if (pending.size > 0)
      fail(
        'every edit reached the mirror',
        `${pending.size} of ${edits.length} edits not in weblate.units ${DRAIN_MS / 1000} s after the churn stopped (e.g. unit ${[...pending.keys()][0]})`,
      );
    if (!syncedSince())
      fail('drain', 'no scheduled sync finished after the last mutation within the drain time');

    // -- The worker is alive and healthy; then it stops cleanly, between two ticks.
    const health = await fetch(`${base}healthz`, { signal: AbortSignal.timeout(10_000) })
      .then(async (r) => ({ status: r.status, body: (await r.json()) as { status?: string } }))
      .catch((err: unknown) => ({ status: 0, body: { status: String(err) } }));
    if (running.hasExited()) fail('worker alive', 'the worker exited before the end');
    if (health.status !== 200 || health.body.status !== 'ok')
      fail('/healthz', `answered ${health.status} ${JSON.stringify(health.body)}`);
    const stopBy = Date.now() + 60_000;
    for (;;) {
      const second = new Date().getUTCSeconds() % 15;
      if ((isQuiet() && second >= 3 && second <= 11) || Date.now() > stopBy) break;
      await sleep(100);
      lastMetrics = (await scrape(base).catch(() => null)) ?? lastMetrics;
    }
    const finalMetrics = lastMetrics;
    running.child.kill('SIGTERM');
    const exit = await running.exited;
    if (exit.code !== 0) fail('worker stops', `exited ${exit.code ?? exit.signal} on SIGTERM`);

    // -- The mirror: runs, edits, and equality with a fresh full sync.
    const kept = await createDb({ databaseUrl: mirror.databaseUrl, dataDir: mirror.dataDir });
    let runs: Array<{ kind: string; status: string; n: number }> = [];
    let missingChanges: number[] = [];
    try {
      runs = (
        await sql<{ kind: string; status: string; n: string }>`
          select kind, status, count(*)::text as n from weblate.sync_runs group by 1, 2 order by 1, 2`.execute(
          kept.db,
        )
      ).rows.map((r) => ({ ...r, n: Number(r.n) }));
      const ids = edits.map((e) => e.changeId);
      const present = new Set(
        (
          await sql<{ id: string }>`
            select id::text as id from weblate.changes where id = any(${ids}::bigint[])`.execute(
            kept.db,
          )
        ).rows.map((r) => Number(r.id)),
      );
      missingChanges = ids.filter((id) => !present.has(id));
    } finally {
      await kept.close();
    }
    const stuck = runs.filter((r) => r.status === 'running');
    const failedRuns = runs.filter((r) => r.status === 'failed');
    if (stuck.length > 0) fail('no run left running', JSON.stringify(stuck));
    if (failedRuns.length > 0) fail('no run failed', JSON.stringify(failedRuns));
    if (missingChanges.length > 0)
      fail(
        'every edit reached the mirror',
        `${missingChanges.length} edits' changes are not in weblate.changes (e.g. change ${missingChanges[0]})`,
      );

    say('a fresh full sync of the simulator to compare with');
    const fresh = await createDatabase('fresh');
    if (!flags.keep) cleanups.push(() => fresh.drop());
    const sync = spawn(process.execPath, [BIN, 'sync'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...databaseEnv(fresh),
        WEBLATE_URL: simulator.url,
        WEBLATE_USERS: subscribedUsers(sim).join(','),
        LOG_LEVEL: 'warn',
      },
      cwd: tmpdir(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let syncErr = '';
    sync.stderr.on('data', (chunk: Buffer) => (syncErr += chunk.toString('utf8')));
    const syncCode = await new Promise<number | null>((resolve) => sync.on('close', resolve));
    let differences: unknown[] = [];
    if (syncCode !== 0) {
      fail('fresh full sync', `exited ${syncCode}: ${syncErr.slice(-2000)}`);
    } else {
      const a = await createDb({ databaseUrl: mirror.databaseUrl, dataDir: mirror.dataDir });
      const b = await createDb({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
      try {
        differences = compareMirrors(await snapshotMirror(a.db), await snapshotMirror(b.db), (id) =>
          goneChangeIds.has(id),
        );
      } finally {
        await a.close();
        await b.close();
      }
      if (differences.length > 0)
        fail('mirror equals a fresh full sync', JSON.stringify(differences).slice(0, 3000));
    }

    // -- Figures
    const warmUpEnd = WARM_UP_FRACTION * minutes;
    // A slope over a few minutes is noise: shorter runs report their slopes without judging them.
    const fitMinutes = minutes - warmUpEnd;
    const series = SERIES.map((spec) => {
      const judged = fitMinutes >= (spec.minFitMinutes ?? MIN_FIT_MINUTES);
      if (!judged)
        say(
          `${spec.name}: slope reported, not judged: fitted over ${fitMinutes} min, under ${spec.minFitMinutes ?? MIN_FIT_MINUTES}`,
        );
      const points = samples
        .map((s) => [s.minute, s[spec.name as keyof Sample]] as [number, number | null])
        .filter((p): p is [number, number] => p[1] !== null && Number.isFinite(p[1]));
      // Up to the churn's end: the drain after it is not service at the same pace.
      const after = points.filter(([m]) => m >= warmUpEnd && m < minutes);
      if (after.length === 0) return { ...spec, measured: false };
      const slope = slopePerMinute(windowed(after, warmUpEnd, spec.floor));
      const first = after.filter(([m]) => m < warmUpEnd + 1).map(([, v]) => v);
      const last = after.filter(([m]) => m > (after.at(-1)?.[0] ?? 0) - 1).map(([, v]) => v);
      const entry = {
        ...spec,
        measured: true,
        samples: after.length,
        atWarmUp: mean(first),
        atEnd: mean(last),
        max: Math.max(...after.map(([, v]) => v)),
        slopePerMinute: slope,
        judged,
        pass: spec.bound === null || slope === null || !judged || slope <= spec.bound,
      };
      if (!entry.pass)
        fail(
          `${spec.name} does not grow`,
          `slope ${slope?.toFixed(3)} ${spec.unit}/min after warm-up, bound ${spec.bound} (${spec.why})`,
        );
      return entry;
    });
    const latencies = edits
      .filter((e) => e.arrivedAt !== null)
      .map((e) => (e.arrivedAt ?? 0) - e.editedAt)
      .sort((a, b) => a - b);
    const lagName = 'weblate_mirror_webhook_freshness_lag_seconds';
    const workerLag = {
      events: finalMetrics.get(`${lagName}_count`) ?? null,
      p50Ms: (histogramQuantile(finalMetrics, lagName, 0.5) ?? NaN) * 1000,
      p95Ms: (histogramQuantile(finalMetrics, lagName, 0.95) ?? NaN) * 1000,
      meanMs:
        ((finalMetrics.get(`${lagName}_sum`) ?? NaN) /
          (finalMetrics.get(`${lagName}_count`) ?? NaN)) *
        1000,
    };
    const editToRow =
      reader === null
        ? {
            measuredBy:
              'the worker: webhook_freshness_lag_seconds (change time to commit; quantiles interpolated in its buckets)',
            p50Ms: workerLag.p50Ms,
            p95Ms: workerLag.p95Ms,
            maxMs: null,
          }
        : {
            measuredBy: `polling weblate.units every ${POLL_MS} ms on a connection of its own`,
            p50Ms: quantile(latencies, 0.5),
            p95Ms: quantile(latencies, 0.95),
            maxMs: latencies.at(-1) ?? null,
          };
    if ((editToRow.p95Ms ?? Infinity) > P95_BOUND_MS)
      fail('edit to row', `p95 ${editToRow.p95Ms} ms, bound ${P95_BOUND_MS} ms`);
    const webhooks = simulator.webhookDeliveries();
    result = {
      database: kind,
      minutes,
      startedAt: new Date(t0).toISOString(),
      churnMinutes: (churnEnded - t0) / 60_000,
      schedule: { ...WORKER_SCHEDULE, WORKER_RECONCILE_CRON: env.WORKER_RECONCILE_CRON },
      workerRuns: workerEntry,
      instance: {
        projects: instance.projects.length,
        components: instance.components.length,
        units: instance.units.length,
      },
      edits: {
        made: edits.length,
        arrived:
          reader === null
            ? edits.length - missingChanges.length
            : edits.filter((e) => e.arrivedAt !== null).length,
        changesMissing: missingChanges.length,
        perMinute: EDITS_PER_MINUTE,
      },
      otherMutations: { ...other, errors: mutationErrors },
      webhooks: {
        delivered: webhooks.delivered,
        failed: webhooks.failed,
        dropped: webhooks.dropped,
        answerP95Ms: quantile(
          [...webhooks.answerMs].sort((a, b) => a - b),
          0.95,
        ),
      },
      editToRow: { ...editToRow, targetP95Ms: P95_TARGET_MS },
      workerFreshnessLag: workerLag,
      runs,
      jobs: Object.fromEntries(
        [...running.finished].map(([job, byStatus]) => [job, Object.fromEntries(byStatus)]),
      ),
      health,
      workerExit: exit,
      differences,
      warmUpMinutes: warmUpEnd,
      series,
      problems: running.problems.slice(0, 20),
      workerLog: logPath,
      failures,
      samples,
    };
    if (mutationErrors.length > 0)
      fail(
        'mutations',
        `${mutationErrors.length} of the script's own mutations failed: ${mutationErrors[0]}`,
      );
    if (webhooks.failed > 0 || webhooks.dropped > 0)
      fail(
        'webhooks delivered',
        `${webhooks.failed} failed and ${webhooks.dropped} dropped of ${webhooks.delivered + webhooks.failed + webhooks.dropped}`,
      );
    printSummary(result, series, editToRow, edits.length);
  } catch (err) {
    fail('run', err instanceof Error ? err.message : String(err));
    result = { ...result, database: kind, minutes, failures, samples, workerLog: logPath };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
  if (flags.out !== undefined) {
    await writeFile(flags.out, `${JSON.stringify({ ...result, failures }, null, 2)}\n`);
    say(`samples and results in ${flags.out}`);
  }
  if (failures.length > 0) {
    say(`${failures.length} check(s) failed:`);
    for (const f of failures) process.stdout.write(`  - ${f.check}: ${f.message}\n`);
    return 1;
  }
  say('every check passed');
  return 0;
}

function printSummary(
  result: Record<string, unknown>,
  series: Array<Record<string, unknown>>,
  editToRow: {
    p50Ms: number | null;
    p95Ms: number | null;
    maxMs: number | null;
    measuredBy: string;
  },
  made: number,
): void {
  const fmt = (v: unknown, digits = 2) =>
    typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : 'n/a';
  const edits = result.edits as { arrived: number };
  const lines = [
    '',
    `database ${String(result.database)}, ${fmt(result.churnMinutes)} min of churn; edits made ${made}, arrived ${edits.arrived}`,
    `edit → row (${editToRow.measuredBy}): p50 ${fmt(editToRow.p50Ms, 0)} ms, p95 ${fmt(editToRow.p95Ms, 0)} ms, max ${fmt(editToRow.maxMs, 0)} ms (target p95 < ${P95_TARGET_MS} ms)`,
    '',
    'series               after warm-up     at end        max     slope/min      bound  result',
  ];
  for (const s of series) {
    if (s.measured !== true) {
      lines.push(`${String(s.name).padEnd(20)} not measured here`);
      continue;
    }
    lines.push(
      [
        String(s.name).padEnd(20),
        fmt(s.atWarmUp).padStart(13),
        fmt(s.atEnd).padStart(10),
        fmt(s.max).padStart(10),
        fmt(s.slopePerMinute, 3).padStart(13),
        (typeof s.bound === 'number' ? String(s.bound) : '-').padStart(10),
        s.judged === false ? '  not judged' : s.pass === true ? '  pass' : '  FAIL',
      ].join(' '),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

process.exitCode = await main();
// Anything left (a socket of fetch's pool) must not keep the script alive.
setTimeout(() => process.exit(), 1_000).unref();

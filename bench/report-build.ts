import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

import type { ServedInstance } from './report-simulator.ts';

const BIN = fileURLToPath(new URL('../bin/weblate-mirror.js', import.meta.url));
const SIMULATOR = fileURLToPath(new URL('./report-simulator.ts', import.meta.url));

/** The instance bench/report-read.ts reads: the large shape, with categories and labels. */
export interface ReportShape {
  projects: number;
  components: number;
  languages: number;
  units: number;
  changes: number;
}

/** How the mirror was built, stored beside it so that `--reuse` can say what it reads. */
export interface BuiltMirror {
  shape: ReportShape;
  instance: Omit<ServedInstance, 'url' | 'users'>;
  builtAt: string;
  syncMs: number;
  backfillMs: number;
  backfillOutput: string;
}

/** Bounds of the build's steps: generous, but no step waits forever. */
const GENERATE_TIMEOUT_MS = 20 * 60_000;
const SYNC_TIMEOUT_MS = 60 * 60_000;
const BACKFILL_TIMEOUT_MS = 30 * 60_000;

/** Runs the bin with these arguments; resolves with its output and wall time, or throws. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ output: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    let isKilled = false;
    const timer = setTimeout(() => {
      isKilled = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      if (code === 0) resolve({ output, ms });
      else if (isKilled) reject(new Error(`over ${timeoutMs / 1000} s (killed)`));
      else
        reject(
          new Error(`weblate-mirror ${args.join(' ')} exited with ${String(code)}:\n${errors}`),
        );
    });
  });
}

/** The simulator in a child process with a large heap; resolves once it listens. */
async function startServedSimulator(
  shape: ReportShape,
): Promise<{ served: ServedInstance; stop: () => Promise<void> }> {
  const args = Object.entries(shape).flatMap(([key, value]) => [`--${key}`, String(value)]);
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=12000', '--import', 'tsx', SIMULATOR, ...args],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const timer = setTimeout(() => child.kill('SIGKILL'), GENERATE_TIMEOUT_MS);
  try {
    const lines = createInterface({ input: child.stdout });
    for await (const line of lines) {
      clearTimeout(timer);
      const served = JSON.parse(line) as ServedInstance;
      return {
        served,
        stop: async () => {
          child.stdin.end();
          const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          await exited;
          clearTimeout(killer);
        },
      };
    }
    throw new Error('the simulator exited before it listened');
  } catch (err) {
    clearTimeout(timer);
    child.kill('SIGKILL');
    throw err;
  }
}

/**
 * Builds the mirror in `url`'s database: generates the instance, syncs it with the CLI (one
 * full sync, as a user's first), runs `weblate-mirror backfill`, then VACUUM ANALYZE, as
 * autovacuum would in time on a mirror in use, so that plans are those of a settled mirror.
 */
export async function buildMirror(url: string, shape: ReportShape): Promise<BuiltMirror> {
  const log = (message: string) => process.stderr.write(`${new Date().toISOString()} ${message}\n`);
  log('generating the instance');
  const { served, stop } = await startServedSimulator(shape);
  let syncMs: number;
  try {
    log(`syncing ${served.units} units, ${served.changes} changes from ${served.url}`);
    const env = {
      DATABASE_URL: url,
      WEBLATE_URL: served.url,
      WEBLATE_USERS: served.users.join(','),
    };
    syncMs = (await runCli(['sync'], env, SYNC_TIMEOUT_MS)).ms;
  } finally {
    await stop();
  }
  log('backfill');
  const backfill = await runCli(['backfill'], { DATABASE_URL: url }, BACKFILL_TIMEOUT_MS);
  log('vacuum analyze');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum analyze');
    const { projects, components, translations, units, changes, categories, labels } = served;
    const instance = { projects, components, translations, units, changes, categories, labels };
    const built: BuiltMirror = {
      shape,
      instance,
      builtAt: new Date().toISOString(),
      syncMs: Math.round(syncMs),
      backfillMs: Math.round(backfill.ms),
      backfillOutput: backfill.output.trim(),
    };
    await client.query('create table public.bench_report_build (built jsonb not null)');
    await client.query('insert into public.bench_report_build values ($1)', [
      JSON.stringify(built),
    ]);
    return built;
  } finally {
    await client.end();
  }
}

/** The build recorded in the database, or null where there is none (never built, or cut short). */
export async function readBuild(url: string): Promise<BuiltMirror | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ built: BuiltMirror }>(
      'select built from public.bench_report_build',
    );
    return result.rows[0]?.built ?? null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

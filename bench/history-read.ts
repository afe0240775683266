/**
 * How a change history read in an incremental sync uses WEBLATE_CONCURRENCY: a mirror of one
 * project adds a second one (about 50,000 changes) to WEBLATE_PROJECTS, and the sync reads its
 * history in time windows, one at a time and then four side by side. The simulator takes
 * Weblate 5.14.3's measured service times (cost scale 1).
 *
 *   node --import tsx bench/history-read.ts [--database-url postgres://…]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import pg from 'pg';

import {
  prerender,
  rowsTouched,
  type RunningSimulator,
  startSimulator,
  WEBLATE_5_14_COSTS,
} from '../src/simulator/index.ts';

const BIN = fileURLToPath(new URL('../bin/weblate-mirror.js', import.meta.url));

function sync(sim: RunningSimulator, databaseUrl: string, env: Record<string, string>) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(BIN, ['sync'], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl,
        WEBLATE_URL: sim.url,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`sync exited with ${String(code)}`)),
    );
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'database-url': {
        type: 'string',
        default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
    },
  });
  const adminUrl = String(values['database-url']);
  const sim = await startSimulator({
    seed: 9,
    projects: 2,
    components: 4,
    languages: 3,
    units: 6000,
    changes: 100_000,
    users: 1,
    costModel: WEBLATE_5_14_COSTS,
  });
  prerender(sim.instance, sim.url);
  const [first, second] = sim.instance.projects;
  const history = sim.instance.changes.filter((c) => c.projectId === second!.id).length;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const concurrency of ['1', '4']) {
      const name = `weblate_mirror_history_${process.pid}_${concurrency}`;
      await admin.query(`create database ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      try {
        const env = { WEBLATE_CONCURRENCY: concurrency, WEBLATE_PROJECTS: first!.slug };
        await sync(sim, url.href, env);
        sim.requests.reset();
        const started = performance.now();
        await sync(sim, url.href, { ...env, WEBLATE_PROJECTS: `${first!.slug},${second!.slug}` });
        const wallMs = performance.now() - started;
        const walk = sim.requests.entries.filter((e) => e.target.includes('/changes/?'));
        const touched = walk.reduce((sum, e) => sum + rowsTouched(e.work), 0);
        process.stdout.write(
          `WEBLATE_CONCURRENCY=${concurrency}: ${history} changes in ${(wallMs / 1000).toFixed(1)} s ` +
            `(all requests' service time ${(sim.requests.serviceMs / 1000).toFixed(1)} s), ` +
            `${walk.length} change requests, ${(touched / history).toFixed(2)} rows touched per change\n`,
        );
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
      }
    }
  } finally {
    await admin.end();
    await sim.close();
  }
}

void main();

/**
 * What the triggers on weblate.units cost a sync: they keep unit_labels in step with the
 * units' `labels` and note the translations whose label history is due (migrations 0011 and
 * 0012). A full sync of the same simulated instance, with about one source string in four
 * labelled, runs into fresh databases with the triggers enabled and disabled, alternately,
 * and the median of the wall times is compared within this run.
 *
 *   node --import tsx bench/label-triggers.ts [--units 100000] [--pairs 3] [--database-url …]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import pg from 'pg';

import { prerender, type RunningSimulator, startSimulator } from '../src/simulator/index.ts';

const BIN = fileURLToPath(new URL('../bin/weblate-mirror.js', import.meta.url));
const TRIGGERS = ['units_insert_labels', 'units_update_labels'];

function cli(args: string[], databaseUrl: string, sim: RunningSimulator): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl,
        WEBLATE_URL: sim.url,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args[0]} exited with ${String(code)}`)),
    );
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'database-url': {
        type: 'string',
        default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
      units: { type: 'string', default: '100000' },
      pairs: { type: 'string', default: '3' },
    },
  });
  const adminUrl = String(values['database-url']);
  const pairs = Math.min(Number(values.pairs), 10);
  const sim = await startSimulator({
    seed: 4,
    projects: 3,
    components: 20,
    languages: 5,
    units: Number(values.units),
    changes: 10_000,
    users: 2,
    categoriesAndLabels: true,
  });
  prerender(sim.instance, sim.url);
  const labelled = sim.instance.units.filter((u) => (u.labelIds ?? []).length > 0).length;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const times: Record<'enabled' | 'disabled', number[]> = { enabled: [], disabled: [] };
  try {
    for (let pair = 0; pair < pairs; pair += 1) {
      for (const state of ['enabled', 'disabled'] as const) {
        const name = `weblate_mirror_triggers_${process.pid}_${state}`;
        await admin.query(`create database ${name}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        try {
          await cli(['migrate'], url.href, sim);
          if (state === 'disabled') {
            const db = new pg.Client({ connectionString: url.href });
            await db.connect();
            for (const trigger of TRIGGERS)
              await db.query(`alter table weblate.units disable trigger ${trigger}`);
            await db.end();
          }
          const started = performance.now();
          await cli(['sync'], url.href, sim);
          times[state].push(performance.now() - started);
        } finally {
          await admin.query(`drop database if exists ${name} with (force)`);
        }
      }
    }
  } finally {
    await admin.end();
    await sim.close();
  }
  const [on, off] = [median(times.enabled), median(times.disabled)];
  process.stdout.write(
    `${sim.instance.units.length} units (${labelled} labelled source strings), ${pairs} pairs: ` +
      `full sync ${(on / 1000).toFixed(1)} s with the triggers, ${(off / 1000).toFixed(1)} s ` +
      `without (medians); ratio ${(on / off).toFixed(3)}\n`,
  );
}

void main();

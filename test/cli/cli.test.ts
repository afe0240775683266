import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv, runCli, runCliAndSignal } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { TINY_INSTANCE } from '../helpers/simulator-mirror.ts';

const COMMANDS = [
  'sync',
  'check',
  'worker',
  'run',
  'migrate',
  'status',
  'move-instance',
  'query',
  'report',
  'demo',
  'simulate',
];
let sim: RunningSimulator;
let database: TestDatabase;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 3,
    projects: 1,
    components: 2,
    languages: 2,
    units: 150,
    changes: 80,
    users: 2,
  });
  database = await createTestDatabase();
});

afterAll(async () => {
  await sim.close();
  await database.drop();
});

describe('weblate-mirror CLI', () => {
  it('lists its commands with --help and explains each one', async () => {
    const help = await runCli(['--help'], {});
    expect(help.code).toBe(0);
    for (const name of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    for (const name of COMMANDS) {
      const result = await runCliInProcess([name, '--help'], {});
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: weblate-mirror ${name}`);
    }
  });

  it('exits 2 on bad usage', async () => {
    // One through the bin, for the exit code a shell sees; the rest in this process.
    const none = await runCli([], {});
    const unknown = await runCliInProcess(['frobnicate'], {});
    const badFlag = await runCliInProcess(['sync', '--nope'], {});
    expect([none.code, unknown.code, badFlag.code]).toEqual([2, 2, 2]);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect(badFlag.stderr).toMatch(
      /^weblate-mirror: unknown option --nope\n\nUsage: weblate-mirror sync/,
    );
  });

  it('names every bad setting at once, exits 2 and shows no stack trace', async () => {
    const result = await runCliInProcess(['sync'], {
      WEBLATE_URL: 'ftp://x',
      DATABASE_URL: 'mysql://nope',
      WEBLATE_MAX_ATTEMPTS: 'many',
      WEBLATE_TOKEN: 'wlu_hidden secret',
    });
    expect(result.code).toBe(2);
    for (const name of ['WEBLATE_URL', 'DATABASE_URL', 'WEBLATE_MAX_ATTEMPTS', 'WEBLATE_TOKEN'])
      expect(result.stderr).toContain(name);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('hidden secret');
    const missing = await runCliInProcess(['sync'], databaseEnv(database));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('WEBLATE_URL is required');
  });

  it('syncs the simulator, prints a summary and reports it in status', async () => {
    const env = {
      ...databaseEnv(database),
      WEBLATE_URL: sim.url,
      WEBLATE_USERS: sim.instance.users[0]!.username,
      LOG_LEVEL: 'warn',
    };
    const sync = await runCliInProcess(['sync'], env);
    expect(sync.stderr).toBe('');
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(
      /^full sync run 1 of http:\/\/127\.0\.0\.1:\d+\/api\/ into .*: succeeded$/m,
    );
    expect(sync.stdout).toMatch(
      new RegExp(
        `^units\\s+${sim.instance.units.length}\\s+0\\s+${sim.instance.units.length}\\s+\\d+`,
        'm',
      ),
    );
    const status = await runCliInProcess(['status'], databaseEnv(database));
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^1\s+full\s+succeeded/m);
    expect(status.stdout).toMatch(
      new RegExp(`^weblate\\.units\\s+${sim.instance.units.length}$`, 'm'),
    );
    const query = await runCliInProcess(
      ['query', 'select count(*)::int as n from weblate.changes'],
      databaseEnv(database),
    );
    expect(query.stdout).toMatch(new RegExp(`^\\s*${sim.instance.changes.length}$`, 'm'));
  });

  it('exits 1 with a clear message when the server cannot be reached', async () => {
    const closed = await startSimulator({
      ...TINY_INSTANCE,
    });
    const url = closed.url;
    await closed.close();
    // A database of its own: the file's mirrors another instance, which a sync here would be refused.
    const empty = await createTestDatabase();
    const result = await runCliInProcess(['sync'], {
      ...databaseEnv(empty),
      WEBLATE_URL: url,
      WEBLATE_MAX_ATTEMPTS: '1',
      LOG_LEVEL: 'silent',
    }).finally(() => empty.drop());
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/: failed/);
    expect(result.stderr).toMatch(
      /^error: cannot reach Weblate at http:\/\/127\.0\.0\.1:\d+\/ \(connection refused\): is it running, and is WEBLATE_URL right\?\n$/m,
    );
  });

  it('stops cleanly on SIGINT, records the run, and the next sync completes the mirror', async () => {
    const big = await startSimulator({
      seed: 9,
      projects: 1,
      components: 2,
      languages: 3,
      units: 300,
      changes: 100,
      users: 1,
    });
    const other = await createTestDatabase();
    try {
      const env = {
        ...databaseEnv(other),
        WEBLATE_URL: big.url,
        LOG_LEVEL: 'debug',
        WEBLATE_CONCURRENCY: '1',
        // Three pages of units (the smallest page allowed), so that the walk is stopped halfway.
        WEBLATE_MAX_PAGE_SIZE: '100',
      };
      const interrupted = await runCliAndSignal(
        ['sync'],
        env,
        /"resource":"units".*"msg":"page read"/,
        'SIGINT',
      );
      expect(interrupted.signalled).toBe(true);
      expect(interrupted.code).toBe(1);
      expect(interrupted.stderr).toContain('error: interrupted by SIGINT');
      const status = await runCliInProcess(['status'], databaseEnv(other));
      expect(status.stdout).toMatch(/^1\s+full\s+interrupted\s.*interrupted by SIGINT/m);
      const again = await runCliInProcess(['sync'], { ...env, LOG_LEVEL: 'warn' });
      expect(again.code).toBe(0);
      const count = await runCliInProcess(
        ['query', 'select count(*)::int as n from weblate.units'],
        databaseEnv(other),
      );
      expect(count.stdout).toMatch(new RegExp(`^\\s*${big.instance.units.length}$`, 'm'));
    } finally {
      await big.close();
      await other.drop();
    }
  });

  it('runs the demo end to end on the embedded database', async () => {
    const dir = `${database.dataDir}/demo-run`;
    const result = await runCliInProcess(
      [
        'demo',
        '--data-dir',
        dir,
        '--projects',
        '1',
        '--components',
        '2',
        '--languages',
        '2',
        '--units',
        '200',
        '--changes',
        '300',
      ],
      {},
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('What landed:');
    expect(result.stdout).toMatch(/^weblate\.units\s+\d+$/m);
    expect(result.stdout).toContain('How far along is each language?');
    expect(result.stdout).toContain(`npx weblate-mirror query --data-dir ${dir}`);
    const report = /^Report written to (.+)$/m.exec(result.stdout);
    expect(report?.[1]).toBe(join(dir, 'report.html'));
    expect(readFileSync(report![1]!, 'utf8')).toMatch(
      /^<!doctype html>[\s\S]*<svg class="chart line-chart"/,
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { statusCommand } from '../../src/cli/commands/status.ts';
import { withLockSession } from '../../src/db/advisory-lock.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { jobLockName } from '../../src/worker/job-runner.ts';
import { databaseEnv, startCli } from '../helpers/cli.ts';
import { databaseFlags, runCliInProcess, runCommand } from '../helpers/commands.ts';
import { DATABASE_KIND, type TestDatabase, useTestDatabases } from '../helpers/database.ts';

let sim: RunningSimulator;
const databases = useTestDatabases();

beforeAll(async () => {
  sim = await startSimulator({
    seed: 31,
    projects: 1,
    components: 2,
    languages: 3,
    units: 100,
    changes: 40,
    users: 1,
  });
});

afterAll(async () => {
  await sim.close();
});

function database(): Promise<TestDatabase> {
  return databases.create();
}

function env(db: TestDatabase): Record<string, string> {
  return { ...databaseEnv(db), WEBLATE_URL: sim.url, LOG_LEVEL: 'warn' };
}

/** What `weblate-mirror status` prints, run in this process: it only reads what a run left. */
async function statusOf(db: TestDatabase): Promise<string> {
  const status = await runCommand(statusCommand, databaseFlags(db));
  expect(status.code, String(status.error)).toBe(0);
  return status.stdout;
}

describe('weblate-mirror run <job>', () => {
  /**
   * Runs `jobs` one after another into a new database, in this process (the SIGTERM test
   * below runs one as a process); returns each one's first line.
   */
  async function runJobs(db: TestDatabase, jobs: string[]): Promise<string[]> {
    const outputs: string[] = [];
    for (const job of jobs) {
      const result = await runCliInProcess(['run', job], env(db));
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      outputs.push(result.stdout.split('\n')[0]!.replace(/ of .* into .*:/, ':'));
    }
    return outputs;
  }

  it('runs a sync and a statistics snapshot, each recorded with its kind', async () => {
    const db = await database();
    expect(await runJobs(db, ['sync', 'statistics'])).toEqual([
      'full sync run 1: succeeded',
      'statistics snapshot run 2: succeeded',
    ]);
    expect(await statusOf(db)).toMatch(/^2\s+statistics\s+succeeded/m);
  });

  it('runs the reconcile sweep as a full sync, and the next sync is incremental', async () => {
    expect(await runJobs(await database(), ['reconcile', 'sync'])).toEqual([
      'full sync run 1: succeeded',
      'incremental sync run 2: succeeded',
    ]);
  });

  it('refuses an unknown job with exit code 2 and names the jobs', async () => {
    const result = await runCliInProcess(['run', 'everything'], env(await database()));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown job "everything": one of sync, statistics, reconcile');
  });

  it('exits 0 on SIGTERM with the run recorded interrupted', async () => {
    const big = await startSimulator({
      seed: 32,
      projects: 1,
      components: 2,
      languages: 3,
      units: 300,
      changes: 40,
      users: 1,
    });
    try {
      const db = await database();
      const run = startCli(['run', 'sync'], {
        ...databaseEnv(db),
        WEBLATE_URL: big.url,
        WEBLATE_CONCURRENCY: '1',
        // Three pages of units, so that the walk is stopped halfway.
        WEBLATE_MAX_PAGE_SIZE: '100',
        // Time enough for a busy machine: the deadline itself is test/cli/interruption.test.ts's.
        WORKER_SHUTDOWN_TIMEOUT_SECONDS: '100',
        LOG_LEVEL: 'warn',
      });
      const trigger = big.at({ match: /^\/api\/units\//, nth: 1 }, () => run.child.kill('SIGTERM'));
      const result = await run.done;
      expect(trigger.fired).toBe(true);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^full sync run 1 of .*: interrupted$/m);
      expect(result.stderr).toContain('error: interrupted by SIGTERM');
      expect(await statusOf(db)).toMatch(/^1\s+full\s+interrupted\s.*interrupted by SIGTERM/m);
    } finally {
      await big.close();
    }
  });

  it.runIf(DATABASE_KIND === 'postgres')(
    'does not run a job whose lock another process holds, and says so',
    async () => {
      const db = await database();
      const handle = await db.migrated();
      const result = await withLockSession(handle, async (session) => {
        expect(await session.tryLock(jobLockName('sync'))).toBe(true);
        return runCliInProcess(['run', 'sync'], { ...env(db), LOG_LEVEL: 'info' });
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        'sync: not run, another run of it is going (its lock is held)',
      );
      expect(result.stderr).toMatch(/"msg":"job skipped: its lock is held by another run"/);
      const runs = await handle.db.selectFrom('weblate.sync_runs').select('id').execute();
      expect(runs).toEqual([]);
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator, type Trigger } from '../../src/simulator/index.ts';
import { cleanSyncOnce } from '../helpers/clean-sync.ts';
import { databaseEnv, startCli } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { subscribedUsers } from '../helpers/sync.ts';

let sim: RunningSimulator;
const databases = useTestDatabases();
const expectSameAsCleanSync = cleanSyncOnce(databases, () => sim);

beforeAll(async () => {
  // Three pages of units (100 each, WEBLATE_MAX_PAGE_SIZE, its smallest setting) and three
  // pages or so of changes.
  sim = await startSimulator({
    seed: 41,
    projects: 2,
    components: 4,
    languages: 3,
    units: 240,
    changes: 260,
    users: 1,
  });
});

afterAll(async () => {
  await sim.close();
});

/**
 * Kills successive sync processes, each when the nth matching request of that process
 * reaches the server and resuming what the one before left; then one more sync finishes the
 * work, and the mirror equals a clean sync's.
 */
async function killAtEachThenFinish(points: Trigger[]): Promise<void> {
  const crashed = await databases.create();
  const users = subscribedUsers(sim);
  const env = {
    ...databaseEnv(crashed),
    WEBLATE_URL: sim.url,
    WEBLATE_USERS: users.join(','),
    WEBLATE_MAX_PAGE_SIZE: '100',
    LOG_LEVEL: 'silent',
  };
  for (const point of points) {
    const run = startCli(['sync'], env);
    const trigger = sim.at(point, () => run.child.kill('SIGKILL'));
    const result = await run.done;
    expect(
      [trigger.fired, result.signal],
      `killed at ${String(point.match)} #${point.nth ?? 1}`,
    ).toEqual([true, 'SIGKILL']);
  }
  // The killed runs are processes; the one that finishes their work need not be.
  const finished = await runCliInProcess(['sync'], env);
  expect(finished.code, finished.stdout + finished.stderr).toBe(0);
  const handle = await crashed.open();
  try {
    await expectSameAsCleanSync(handle.db);
  } finally {
    await handle.close();
  }
}

describe('a sync killed with SIGKILL', () => {
  it('resumes after kills in discovery and in a change window, with nothing lost or doubled', async () => {
    await killAtEachThenFinish([
      { match: /^\/api\/translations\//, nth: 1 }, // during discovery
      { match: /\/changes\/\?/, nth: 2 }, // inside a change window
    ]);
  });

  it('resumes after kills in the unit walk and between statistics, with nothing lost or doubled', async () => {
    // Each run that reads units asks the capability probe first (units/?q=id:<=0 …).
    await killAtEachThenFinish([
      { match: /^\/api\/units\/\?/, nth: 3 }, // while page 1 of the unit walk is being written
      { match: /^\/api\/units\/\?/, nth: 2 }, // as the resumed walk starts
      { match: /\/statistics\//, nth: 2 }, // between statistics snapshots
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator, type Trigger } from '../../src/simulator/index.ts';
import { expectSameAsCleanSync } from '../helpers/clean-sync.ts';
import { databaseEnv, runCli, startCli } from '../helpers/cli.ts';
import { type TestDatabase, useTestDatabases } from '../helpers/database.ts';

let sim: RunningSimulator;
const databases = useTestDatabases();

beforeAll(async () => {
  // Three pages of units (1,000 each, WEBLATE_MAX_PAGE_SIZE) and two pages of changes per project.
  sim = await startSimulator({
    seed: 41,
    projects: 2,
    components: 4,
    languages: 3,
    units: 2_400,
    changes: 2600,
    users: 1,
  });
});

afterAll(async () => {
  await sim.close();
});

function database(): Promise<TestDatabase> {
  return databases.create();
}

/**
 * Moments at which successive sync processes are killed: when the nth matching request of
 * that process reaches the server. Each process resumes from what the previous one left.
 */
const KILL_POINTS: Trigger[] = [
  { match: /^\/api\/translations\//, nth: 1 }, // during discovery
  { match: /\/changes\/\?/, nth: 2 }, // inside a change window
  // Each run that reads units asks the capability probe first (units/?q=id:<=0 …).
  { match: /^\/api\/units\/\?/, nth: 3 }, // while page 1 of the unit walk is being written
  { match: /^\/api\/units\/\?/, nth: 2 }, // as the resumed walk starts
  { match: /\/statistics\//, nth: 2 }, // between statistics snapshots
];

describe('a sync killed with SIGKILL', () => {
  it('resumes each time and ends identical to a clean sync, with nothing lost or doubled', async () => {
    const crashed = await database();
    const users = sim.instance.users
      .filter((u) => u.subscriptions.length > 0)
      .map((u) => u.username);
    const env = {
      ...databaseEnv(crashed),
      WEBLATE_URL: sim.url,
      WEBLATE_USERS: users.join(','),
      WEBLATE_MAX_PAGE_SIZE: '1000',
      LOG_LEVEL: 'silent',
    };
    for (const point of KILL_POINTS) {
      const run = startCli(['sync'], env);
      const trigger = sim.at(point, () => run.child.kill('SIGKILL'));
      const result = await run.done;
      expect(
        [trigger.fired, result.signal],
        `killed at ${String(point.match)} #${point.nth ?? 1}`,
      ).toEqual([true, 'SIGKILL']);
    }
    const finished = await runCli(['sync'], env);
    expect(finished.code, finished.stdout + finished.stderr).toBe(0);

    await expectSameAsCleanSync(databases, sim, (await crashed.open()).db);
  });
});

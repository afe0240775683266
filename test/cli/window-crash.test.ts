import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readCursor } from '../../src/db/queries/sync-state.ts';
import { type RunningSimulator, startSimulator, type Trigger } from '../../src/simulator/index.ts';
import { databaseEnv, runCli, startCli } from '../helpers/cli.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { syncSimulator } from '../helpers/sync.ts';

/** Units per window (WEBLATE_MAX_PAGE_SIZE): the walk takes about 24 windows, 4 at a time. */
const PAGE = 500;
const UNIT_WALK = /^\/api\/units\/\?(?!.*[?&]page_size=1(&|$))/;

let sim: RunningSimulator;
const databases = useTestDatabases();

beforeAll(async () => {
  // A little latency, so that windows really are in flight side by side when a run dies.
  sim = await startSimulator({
    seed: 47,
    projects: 2,
    components: 4,
    languages: 3,
    units: 12_000,
    changes: 300,
    users: 1,
    latencyMs: LATENCY_MS,
  });
});

afterAll(async () => {
  await sim.close();
});

/**
 * Kill points inside the unit walk, each in a run that resumes what the one before left:
 * early, with the first windows in flight; in the resumed walk's first windows; deep in it.
 * In each run the walk's first window answers late, so the windows above it commit first.
 */
const KILL_POINTS: Trigger[] = [
  { match: UNIT_WALK, nth: 6 },
  { match: UNIT_WALK, nth: 3 },
  { match: UNIT_WALK, nth: 9 },
  { match: UNIT_WALK, nth: 4 },
];
const SLOW_MS = 600;
const LATENCY_MS = 15;

describe('a unit walk read in concurrent windows, killed with SIGKILL', () => {
  it('leaves a cursor with no gap below it each time, and ends identical to a clean sync', async () => {
    const crashed = await databases.create();
    const users = sim.instance.users.filter((u) => u.subscriptions.length > 0);
    const env = {
      ...databaseEnv(crashed),
      WEBLATE_URL: sim.url,
      WEBLATE_USERS: users.map((u) => u.username).join(','),
      WEBLATE_MAX_PAGE_SIZE: String(PAGE),
      WEBLATE_CONCURRENCY: '4',
      LOG_LEVEL: 'silent',
    };
    const liveIds = sim.instance.units.map((u) => BigInt(u.id));
    let sawConcurrentWindows = false;
    for (const point of KILL_POINTS) {
      sim.requests.reset();
      sim.at({ match: UNIT_WALK, nth: 1 }, () => sim.setLatency(SLOW_MS));
      sim.at({ match: UNIT_WALK, nth: 2 }, () => sim.setLatency(LATENCY_MS));
      const run = startCli(['sync'], env);
      const trigger = sim.at(point, () => run.child.kill('SIGKILL'));
      const result = await run.done;
      expect([trigger.fired, result.signal], `killed at #${point.nth ?? 1}`).toEqual([
        true,
        'SIGKILL',
      ]);
      sawConcurrentWindows ||= sim.requests.entries.some(
        (e) => UNIT_WALK.test(e.target) && e.inFlight > 1,
      );
      // Every unit at or below the cursor's claim is stored: nothing is skipped on resume.
      const handle = await crashed.open();
      try {
        const cursor = await readCursor(handle.db, 'units', '');
        const through = cursor?.walk?.after ?? null;
        if (through === null) continue;
        const stored = await handle.db
          .selectFrom('weblate.units')
          .select('id')
          .where('id', '<=', through)
          .execute();
        const storedIds = new Set(stored.map((r) => BigInt(r.id)));
        const missing = liveIds.filter((id) => id <= BigInt(through) && !storedIds.has(id));
        expect(missing, `units at or below ${through} after the kill at #${point.nth}`).toEqual([]);
      } finally {
        await handle.close();
      }
    }
    expect(sawConcurrentWindows).toBe(true);
    const finished = await runCli(['sync'], env);
    expect(finished.code, finished.stdout + finished.stderr).toBe(0);

    const clean = await databases.create();
    const cleanHandle = await clean.migrated();
    expect((await syncSimulator(sim, cleanHandle)).status).toBe('succeeded');
    const crashedHandle = await crashed.open();
    expect(
      compareMirrors(
        await snapshotMirror(crashedHandle.db),
        await snapshotMirror(cleanHandle.db),
        () => false,
      ),
    ).toEqual([]);
  });
});

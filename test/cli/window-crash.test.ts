import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readCursor } from '../../src/db/queries/sync-state.ts';
import { toEpochMicros } from '../../src/lib/timestamps.ts';
import { type RunningSimulator, startSimulator, type Trigger } from '../../src/simulator/index.ts';
import { databaseEnv, runCli, startCli } from '../helpers/cli.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { syncSimulator } from '../helpers/sync.ts';

/** Units per window (WEBLATE_MAX_PAGE_SIZE): the walk takes about 24 windows, 4 at a time. */
const PAGE = 500;
const UNIT_WALK = /^\/api\/units\/\?(?!.*[?&]page_size=1(&|$))/;

let sim: RunningSimulator;
let changesSim: RunningSimulator;
const databases = useTestDatabases();

/** Changes per page (WEBLATE_MAX_PAGE_SIZE) for the change walk: about 20 windows a project. */
const CHANGE_PAGE = 200;
const NOW = Date.now();

beforeAll(async () => {
  changesSim = await startSimulator({
    seed: 48,
    projects: 2,
    components: 3,
    languages: 2,
    units: 300,
    changes: 8000,
    users: 1,
    latencyMs: LATENCY_MS,
    historyEndsAt: NOW - 3_600_000,
  });
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
  await changesSim.close();
});

/**
 * Kill points inside the unit walk, each in a run that resumes what the one before left:
 * early, with the first windows in flight; in the resumed walk's first windows; deep in it.
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
    const sawConcurrentWindows = await killAt(
      sim,
      env,
      UNIT_WALK,
      { points: KILL_POINTS, slow: 2 },
      async () => {
        // Every unit at or below the cursor's claim is stored: nothing is skipped on resume.
        const handle = await crashed.open();
        try {
          const cursor = await readCursor(handle.db, 'units', '');
          const through = cursor?.walk?.after ?? null;
          if (through === null) return;
          const stored = await handle.db
            .selectFrom('weblate.units')
            .select('id')
            .where('id', '<=', through)
            .execute();
          const storedIds = new Set(stored.map((r) => BigInt(r.id)));
          const missing = liveIds.filter((id) => id <= BigInt(through) && !storedIds.has(id));
          expect(missing, `units at or below ${through}`).toEqual([]);
        } finally {
          await handle.close();
        }
      },
    );
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

/** A sync killed at each point in turn, each resuming what the one before left; then checks. */
async function killAt(
  server: RunningSimulator,
  env: Record<string, string>,
  walk: RegExp,
  { points, slow }: { points: Trigger[]; slow: number },
  afterKill: () => Promise<void>,
): Promise<boolean> {
  let sawConcurrentWindows = false;
  for (const point of points) {
    server.requests.reset();
    // One window read beside others answers late, so the windows past it commit first.
    server.at({ match: walk, nth: slow }, () => server.setLatency(SLOW_MS));
    server.at({ match: walk, nth: slow + 1 }, () => server.setLatency(LATENCY_MS));
    const run = startCli(['sync'], env);
    const trigger = server.at(point, () => run.child.kill('SIGKILL'));
    const result = await run.done;
    expect([trigger.fired, result.signal], `killed at #${point.nth ?? 1}`).toEqual([
      true,
      'SIGKILL',
    ]);
    sawConcurrentWindows ||= server.requests.entries.some(
      (e) => walk.test(e.target) && e.inFlight > 1,
    );
    await afterKill();
  }
  return sawConcurrentWindows;
}

describe('a change history read in concurrent time windows, killed with SIGKILL', () => {
  it('leaves a cursor with no gap above it each time, and ends identical to a clean sync', async () => {
    const crashed = await databases.create();
    const [first, second] = changesSim.instance.projects.map((p) => p.slug);
    const users = changesSim.instance.users.filter((u) => u.subscriptions.length > 0);
    const env = {
      ...databaseEnv(crashed),
      WEBLATE_URL: changesSim.url,
      WEBLATE_USERS: users.map((u) => u.username).join(','),
      WEBLATE_MAX_PAGE_SIZE: String(CHANGE_PAGE),
      WEBLATE_CONCURRENCY: '4',
      WEBLATE_PROJECTS: first!,
      LOG_LEVEL: 'silent',
    };
    // A full sync reads the change windows one at a time (the unit walk runs beside them);
    // an incremental one reads a project's history side by side: the second project, added to
    // the scope after the first sync.
    const initial = await runCli(['sync'], env);
    expect(initial.code, initial.stdout + initial.stderr).toBe(0);
    env.WEBLATE_PROJECTS = `${first},${second}`;
    const walk = new RegExp(`^/api/projects/${second}/changes/\\?`);
    // The first request counts the history and the windows go side by side from the second.
    const points = [8, 5, 7].map((nth) => ({ match: walk, nth }));
    const plan = { points, slow: 3 };
    const sawConcurrentWindows = await killAt(changesSim, env, walk, plan, async () => {
      // Every change newer than the cursor's claim is stored: nothing is skipped on resume.
      const handle = await crashed.open();
      try {
        const cursor = await readCursor(handle.db, 'changes', second!);
        const before = cursor?.window?.before ?? null;
        if (before === null) return;
        const projectId = changesSim.instance.projects.find((p) => p.slug === second)!.id;
        const stored = await handle.db.selectFrom('weblate.changes').select('id').execute();
        const storedIds = new Set(stored.map((r) => Number(r.id)));
        const missing = changesSim.instance.changes.filter(
          (c) =>
            c.projectId === projectId &&
            BigInt(c.timestampUs) > toEpochMicros(before) &&
            !storedIds.has(c.id),
        );
        expect(
          missing.map((c) => c.id),
          `changes newer than ${before}`,
        ).toEqual([]);
      } finally {
        await handle.close();
      }
    });
    expect(sawConcurrentWindows).toBe(true);
    const finished = await runCli(['sync'], env);
    expect(finished.code, finished.stdout + finished.stderr).toBe(0);

    const clean = await databases.create();
    const cleanHandle = await clean.migrated();
    const cleanRun = await syncSimulator(changesSim, cleanHandle, {
      projects: [first!, second!],
      client: { maxPageSize: CHANGE_PAGE },
    });
    expect(cleanRun.status).toBe('succeeded');
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

import { rm } from 'node:fs/promises';
import { join } from 'node:path';

import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { readCursor } from '../../src/db/queries/sync-state.ts';
import { toEpochMicros } from '../../src/lib/timestamps.ts';
import { type RunningSimulator, startSimulator, type Trigger } from '../../src/simulator/index.ts';
import { cleanSyncOnce } from '../helpers/clean-sync.ts';
import { databaseEnv, startCli } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { TEST_DATABASE_URL, type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import { adminQuery, copyFolder } from '../helpers/database-template.ts';
import { subscribedUsers } from '../helpers/sync.ts';

/**
 * Units per window (WEBLATE_MAX_PAGE_SIZE, its smallest setting): the walk of the 2,400
 * units takes about 24 windows, 4 at a time.
 */
const PAGE = 100;
const UNIT_WALK = /^\/api\/units\/\?(?!.*[?&]page_size=1(&|$))/;
/**
 * Changes per page (WEBLATE_MAX_PAGE_SIZE, its smallest setting) for the change walk: about
 * 15 windows for the second project's 1,500 changes.
 */
const CHANGE_PAGE = 100;
/** A little latency, so that windows really are in flight side by side when a run dies. */
const LATENCY_MS = 15;
/** The latency of the one window that answers late in each run. */
const SLOW_MS = 600;
const NOW = Date.now();

let sim: RunningSimulator;
let changesSim: RunningSimulator;
const databases = useTestDatabases();
const expectSameAsCleanSync = cleanSyncOnce(databases, () => sim);
// Both projects in scope, as WEBLATE_PROJECTS names them at the end.
const expectSameAsCleanChangesSync = cleanSyncOnce(
  databases,
  () => changesSim,
  () => ({
    projects: changesSim.instance.projects.map((p) => p.slug),
    client: { maxPageSize: CHANGE_PAGE },
  }),
);

beforeAll(async () => {
  // Of the 2,000 changes, about 1,500 are the second project's (three of the four
  // components): the first project, which the initial sync reads, has about 500.
  changesSim = await startSimulator({
    seed: 48,
    projects: 2,
    components: 4,
    languages: 2,
    units: 100,
    changes: 2000,
    users: 1,
    latencyMs: LATENCY_MS,
    historyEndsAt: NOW - 3_600_000,
  });
  sim = await startSimulator({
    seed: 47,
    projects: 2,
    components: 4,
    languages: 3,
    units: 2_400,
    changes: 100,
    users: 1,
    latencyMs: LATENCY_MS,
  });
});

afterAll(async () => {
  await sim.close();
  await changesSim.close();
});

/** The CLI's environment for a sync of `server` into `crashed`, 4 requests at a time. */
function cliEnv(
  server: RunningSimulator,
  crashed: TestDatabase,
  settings: Record<string, string>,
): Record<string, string> {
  return {
    ...databaseEnv(crashed),
    WEBLATE_URL: server.url,
    WEBLATE_USERS: subscribedUsers(server).join(','),
    WEBLATE_CONCURRENCY: '4',
    LOG_LEVEL: 'silent',
    ...settings,
  };
}

/**
 * A sync killed at each point in turn, each resuming what the one before left, with the
 * `slow`th request of the walk answering late (so the windows past it commit first); after
 * each kill, `check` looks at the crashed database. Returns whether any request of the walk
 * reached the server while another was being answered.
 */
async function killAt(
  server: RunningSimulator,
  crashed: TestDatabase,
  env: Record<string, string>,
  walk: RegExp,
  { points, slow }: { points: Trigger[]; slow: number },
  check: (db: Kysely<Database>) => Promise<void>,
): Promise<boolean> {
  let sawConcurrentWindows = false;
  for (const point of points) {
    server.requests.reset();
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
    const handle = await crashed.open();
    try {
      await check(handle.db);
    } finally {
      await handle.close();
    }
  }
  return sawConcurrentWindows;
}

/** One more sync finishes the work, and the mirror equals a clean sync's. */
async function finishAndCompare(
  crashed: TestDatabase,
  env: Record<string, string>,
  compare: (db: Kysely<Database>) => Promise<void>,
): Promise<void> {
  // The killed runs are processes; the one that finishes their work need not be.
  const finished = await runCliInProcess(['sync'], env);
  expect(finished.code, finished.stdout + finished.stderr).toBe(0);
  const handle = await crashed.open();
  try {
    await compare(handle.db);
  } finally {
    await handle.close();
  }
}

/** A unit walk killed at each of `kills` in turn (the nth request of the walk). */
async function killUnitWalk(kills: number[]): Promise<void> {
  const crashed = await databases.create();
  const env = cliEnv(sim, crashed, { WEBLATE_MAX_PAGE_SIZE: String(PAGE) });
  const liveIds = sim.instance.units.map((u) => BigInt(u.id));
  const points = kills.map((nth) => ({ match: UNIT_WALK, nth }));
  const plan = { points, slow: 2 };
  const sawConcurrentWindows = await killAt(sim, crashed, env, UNIT_WALK, plan, async (db) => {
    // Every unit at or below the cursor's claim is stored: nothing is skipped on resume.
    const cursor = await readCursor(db, 'units', '');
    const through = cursor?.walk?.after ?? null;
    if (through === null) return;
    const stored = await db
      .selectFrom('weblate.units')
      .select('id')
      .where('id', '<=', through)
      .execute();
    const storedIds = new Set(stored.map((r) => BigInt(r.id)));
    const missing = liveIds.filter((id) => id <= BigInt(through) && !storedIds.has(id));
    expect(missing, `units at or below ${through}`).toEqual([]);
  });
  expect(sawConcurrentWindows).toBe(true);
  await finishAndCompare(crashed, env, expectSameAsCleanSync);
}

describe('a unit walk read in concurrent windows, killed with SIGKILL', () => {
  it('leaves no gap below its cursor when killed early and as the resumed walk starts', async () => {
    // Early, with the first windows in flight; then in the resumed walk's first windows.
    await killUnitWalk([6, 3]);
  });

  it('leaves no gap below its cursor when killed deep in the walk and as it resumes', async () => {
    await killUnitWalk([9, 4]);
  });
});

/** Replaces the (unopened) database `to` with a copy of `from`, which nothing holds open. */
async function copyDatabase(from: TestDatabase, to: TestDatabase): Promise<void> {
  if (TEST_DATABASE_URL === null) {
    await rm(join(to.dataDir, 'pgdata'), { recursive: true, force: true });
    await copyFolder(join(from.dataDir, 'pgdata'), join(to.dataDir, 'pgdata'));
    return;
  }
  const name = (database: TestDatabase) => new URL(database.databaseUrl!).pathname.slice(1);
  await adminQuery(TEST_DATABASE_URL, `drop database ${name(to)} with (force)`);
  // The server may not have noticed yet that the CLI that synced `from` disconnected (55006).
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(TEST_DATABASE_URL, `create database ${name(to)} template ${name(from)}`);
      break;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // As createTestDatabase sets it: a database's settings are not copied with it.
  await adminQuery(TEST_DATABASE_URL, `alter database ${name(to)} set synchronous_commit = off`);
}

/** The mirror of the first project alone, by a first sync that succeeded; made once. */
let firstProjectSynced: Promise<TestDatabase> | null = null;

/**
 * A new database holding the mirror of the first project alone, as a first sync left it:
 * that sync runs once, by the first test that asks, and each test gets a copy of its result.
 */
async function withFirstProjectSynced(first: string): Promise<TestDatabase> {
  firstProjectSynced ??= (async () => {
    const synced = await databases.create();
    const env = cliEnv(changesSim, synced, {
      WEBLATE_MAX_PAGE_SIZE: String(CHANGE_PAGE),
      WEBLATE_PROJECTS: first,
    });
    const initial = await runCliInProcess(['sync'], env);
    expect(initial.code, initial.stdout + initial.stderr).toBe(0);
    return synced;
  })();
  const synced = await firstProjectSynced;
  const crashed = await databases.create();
  await copyDatabase(synced, crashed);
  return crashed;
}

/**
 * The second project's change history, read side by side by an incremental sync (it joins
 * the scope after a first sync of the first project), killed at each of `kills` in turn.
 */
async function killChangeWalk(kills: number[]): Promise<void> {
  const [first, second] = changesSim.instance.projects.map((p) => p.slug);
  // A full sync reads the change windows one at a time (the unit walk runs beside them);
  // an incremental one reads a project's history side by side.
  const crashed = await withFirstProjectSynced(first!);
  const env = cliEnv(changesSim, crashed, {
    WEBLATE_MAX_PAGE_SIZE: String(CHANGE_PAGE),
    WEBLATE_PROJECTS: `${first},${second}`,
  });
  const walk = new RegExp(`^/api/projects/${second}/changes/\\?`);
  const projectId = changesSim.instance.projects.find((p) => p.slug === second)!.id;
  // The first request counts the history and the windows go side by side from the second.
  const points = kills.map((nth) => ({ match: walk, nth }));
  const plan = { points, slow: 3 };
  const sawConcurrentWindows = await killAt(changesSim, crashed, env, walk, plan, async (db) => {
    // The killed run followed the first sync, which succeeded: it was incremental.
    const runs = await db
      .selectFrom('weblate.sync_runs')
      .select(['kind', 'status'])
      .orderBy('id')
      .execute();
    expect([runs[0], runs.at(-1)?.kind]).toEqual([
      { kind: 'full', status: 'succeeded' },
      'incremental',
    ]);
    // Every change newer than the cursor's claim is stored: nothing is skipped on resume.
    const cursor = await readCursor(db, 'changes', second!);
    const before = cursor?.window?.before ?? null;
    if (before === null) return;
    const stored = await db.selectFrom('weblate.changes').select('id').execute();
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
  });
  expect(sawConcurrentWindows).toBe(true);
  await finishAndCompare(crashed, env, expectSameAsCleanChangesSync);
}

describe('a change history read in concurrent time windows, killed with SIGKILL', () => {
  it('leaves no gap above its cursor when killed in the first windows and again', async () => {
    await killChangeWalk([8, 5]);
  });

  it('leaves no gap above its cursor when killed once and resumed to the end', async () => {
    await killChangeWalk([7]);
  });
});

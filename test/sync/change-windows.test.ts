import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { type RequestLogEntry, rowsTouched } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { servedOnce, syncSimulator } from '../helpers/sync.ts';

/** Changes per page (WEBLATE_MAX_PAGE_SIZE). */
const PAGE = 50;
/**
 * Changes per page of the `grown` instance's walk, whose windows read side by side overflow
 * in proportion to its sessions (about 8 changes each): kept at its own size.
 */
const GROWN_PAGE = 100;
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
let clock = NOW;

const mirror = useSimulatorMirror({
  seed: 57,
  projects: 1,
  components: 2,
  languages: 3,
  units: 200,
  changes: 1250,
  users: 1,
  // The history ends an hour before the server's clock: its newest day is busy.
  historyEndsAt: NOW - 3_600_000,
  now: () => clock,
});

// A small history, of less than a page, that ended a year before the server's clock.
const small = useSimulatorMirror({
  seed: 58,
  projects: 1,
  components: 2,
  languages: 3,
  units: 200,
  changes: 40,
  users: 1,
  historyEndsAt: NOW - 365 * 86_400_000,
  now: () => NOW,
});

// Two projects, the second added to the scope later: its history is read in an incremental sync.
const grown = useSimulatorMirror({
  seed: 59,
  projects: 2,
  components: 2,
  languages: 2,
  units: 300,
  changes: 5000,
  users: 1,
  // Quiet for half a year: the newest page spans far more than the busy stretch below it.
  historyEndsAt: NOW - 180 * 86_400_000,
  now: () => NOW,
});

const databases = useTestDatabases();

function changeRequests(sim = mirror.sim): RequestLogEntry[] {
  return servedOnce(sim, /\/changes\/\?/);
}

function sync(options: { full?: boolean } = {}) {
  return syncSimulator(mirror.sim, mirror.handle, { ...options, client: { maxPageSize: PAGE } });
}

async function mirroredChangeIds(): Promise<Set<string>> {
  const result = await sql<{ id: string }>`select id::text as id from weblate.changes`.execute(
    mirror.handle.db,
  );
  return new Set(result.rows.map((r) => r.id));
}

/**
 * A time window holds about a page of the stretch it was fitted to. One that enters a burst (a
 * translator's session, several times denser than the hours before it) counts the burst once,
 * and the windows after it are fitted to the burst: one or two windows of a history may.
 */
function expectFittedWindows(counts: number[], page = PAGE): void {
  const over = counts.filter((n) => n > 2.5 * page);
  expect(over.length, JSON.stringify(counts)).toBeLessThanOrEqual(2);
  expect(Math.max(...counts), JSON.stringify(counts)).toBeLessThanOrEqual(5 * page);
}

describe('the change history read in time windows', () => {
  it('of every project starts at its newest activity, and no request counts more than about two pages', async () => {
    const { sim } = mirror;
    sim.requests.reset();
    const result = await sync();
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const mirrored = await mirroredChangeIds();
    expect(sim.instance.changes.filter((c) => !mirrored.has(String(c.id)))).toEqual([]);

    const requests = changeRequests();
    expect(requests.every((e) => e.target.startsWith('/api/changes/?'))).toBe(true);
    for (const entry of requests)
      expect(entry.work.counted, entry.target).toBeLessThanOrEqual(2.5 * PAGE);
    // Served once and counted by the windows about once: the history is never counted whole.
    const touched = requests.reduce((sum, e) => sum + rowsTouched(e.work), 0);
    expect(touched / sim.instance.changes.length).toBeLessThanOrEqual(2.5);
    // About a page per window, a few more to reach the density from the newest hour and to
    // find the end of the history.
    expect(requests.length).toBeLessThanOrEqual(
      Math.ceil((sim.instance.changes.length / PAGE) * 1.2) + 8,
    );
  });

  it('of a project (WEBLATE_PROJECTS) counts it once, then no request counts more than about two pages', async () => {
    const { sim } = mirror;
    const fresh = await databases.migrated();
    sim.requests.reset();
    const result = await syncSimulator(sim, fresh, {
      projects: sim.instance.projects.map((p) => p.slug),
      client: { maxPageSize: PAGE },
    });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const [first, ...windows] = changeRequests();
    // The first request reads down to the walk's bound: it counts the project's whole history.
    expect(first!.work.counted).toBe(sim.instance.changes.length);
    expectFittedWindows(windows.map((e) => e.work.counted));
    // Served once, counted by the windows about once more, and once by the first request.
    const touched = [first!, ...windows].reduce((sum, e) => sum + rowsTouched(e.work), 0);
    expect(touched / sim.instance.changes.length).toBeLessThanOrEqual(3.5);
    expect(windows.length + 1).toBeLessThanOrEqual(
      Math.ceil((sim.instance.changes.length / PAGE) * 1.2) + 2,
    );
  });

  it("reads a project's history of less than a page with one request", async () => {
    const { sim, handle } = small;
    sim.requests.reset();
    const result = await syncSimulator(sim, handle, {
      projects: sim.instance.projects.map((p) => p.slug),
      client: { maxPageSize: PAGE },
    });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    expect(changeRequests(sim)).toHaveLength(sim.instance.projects.length);
  });

  it('loses none of many changes that share one timestamp, in a full and an incremental sync', async () => {
    const { sim } = mirror;
    const translation = sim.instance.translations.find((t) => !t.isSource)!;
    // The server's clock stands still: all of them carry the same microsecond.
    clock = NOW + 60_000;
    const first = sim.mutate.addChanges(translation.id, 3 * PAGE + 17).changeIds;
    clock = NOW + 120_000;
    const incremental = await sync();
    expect([incremental.mode, incremental.status]).toEqual(['incremental', 'succeeded']);
    let mirrored = await mirroredChangeIds();
    expect(first.filter((id) => !mirrored.has(String(id)))).toEqual([]);

    clock = NOW + 180_000;
    const second = sim.mutate.addChanges(translation.id, 2 * PAGE + 5).changeIds;
    clock = NOW + 240_000;
    const full = await sync({ full: true });
    expect([full.mode, full.status]).toEqual(['full', 'succeeded']);
    mirrored = await mirroredChangeIds();
    expect([...first, ...second].filter((id) => !mirrored.has(String(id)))).toEqual([]);
    expect(sim.instance.changes.filter((c) => !mirrored.has(String(c.id)))).toEqual([]);
  });
});

describe('a history read in an incremental sync', () => {
  it('reads its time windows side by side, none counting more than about two pages, and loses nothing', async () => {
    const { sim, handle } = grown;
    const [first, second] = sim.instance.projects;
    const options = { client: { maxPageSize: GROWN_PAGE } };
    const initial = await syncSimulator(sim, handle, { ...options, projects: [first!.slug] });
    expect([initial.mode, initial.status]).toEqual(['full', 'succeeded']);
    sim.requests.reset();
    // A little latency, as over a network: the windows' requests overlap at the server.
    sim.setLatency(10);
    const grownScope = [first!.slug, second!.slug];
    const result = await syncSimulator(sim, handle, { ...options, projects: grownScope }).finally(
      () => sim.setLatency(0),
    );
    expect([result.mode, result.status, result.error]).toEqual(['incremental', 'succeeded', null]);

    const history = sim.instance.changes.filter((c) => c.projectId === second!.id);
    expect(history.length).toBeGreaterThan(15 * GROWN_PAGE);
    const stored = await sql<{ id: string }>`select id::text as id from weblate.changes`.execute(
      handle.db,
    );
    const storedIds = new Set(stored.rows.map((r) => r.id));
    expect(history.filter((c) => !storedIds.has(String(c.id)))).toEqual([]);

    const walk = servedOnce(sim, new RegExp(`^/api/projects/${second!.slug}/changes/\\?`));
    expect(walk.some((e) => e.inFlight > 1)).toBe(true);
    const [counting, ...windows] = walk;
    // The first request reads down to the walk's bound: it counts the history once.
    expect(counting!.work.counted).toBe(history.length);
    expectFittedWindows(
      windows.map((e) => e.work.counted),
      GROWN_PAGE,
    );
    const touched = walk.reduce((sum, e) => sum + rowsTouched(e.work), 0);
    expect(touched / history.length).toBeLessThanOrEqual(3.5);
    // Windows planned side by side overflow more often than windows read one after another.
    expect(walk.length).toBeLessThanOrEqual(Math.ceil((history.length / GROWN_PAGE) * 1.5) + 4);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type RequestLogEntry,
  type RunningSimulator,
  startSimulator,
} from '../../src/simulator/index.ts';
import { handleOf, useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { compareMirrors, type MirrorSnapshot, snapshotMirror } from '../helpers/mirror-compare.ts';
import { syncSimulator } from '../helpers/sync.ts';

// Enough units for several pages at the size the proxy lets through. A walk starts at 1,000
// a page and grows (twofold or fourfold, by how quickly the page came): its second page is
// too slow, and so is that page at half the size (2,000 units), while two more pages of
// 1,000 follow the one answered.
const SIZE = { projects: 2, components: 4, languages: 3, units: 4000, changes: 400, users: 1 };
const MAX_RESULTS = 1500;
let sim: RunningSimulator;
let clean: MirrorSnapshot;
const databases = useTestDatabases();

async function freshDb() {
  return (await databases.migrated()).db;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 91, ...SIZE });
  expect(sim.instance.units.length).toBeGreaterThan(2 * MAX_RESULTS);
  const db = await freshDb();
  expect((await syncSimulator(sim, handleOf(db))).status).toBe('succeeded');
  clean = await snapshotMirror(db);
});

afterAll(async () => {
  await sim.close();
});

/** Requests of the global unit walk (not the capability probe, which asks page_size=1). */
function walkRequests(entries: RequestLogEntry[]): RequestLogEntry[] {
  return entries.filter((e) => e.target.startsWith('/api/units/?') && pageSizeOf(e) !== 1);
}

const pageSizeOf = (entry: RequestLogEntry) =>
  Number(new URL(entry.target, 'http://x/').searchParams.get('page_size'));

/**
 * The client's clock, on which a page seems to take a few milliseconds whatever the machine's
 * load: the walk grows fourfold after its first page (under a 32nd of the timeout), every
 * time. Timeouts stay real: a hang still fails when the timeout passes.
 */
function quickClock(): () => number {
  let now = Date.now();
  return () => (now += 1);
}

// A timeout that an answered page never reaches on a busy machine; a hang always does.
describe.each([
  { failure: '504' as const, timeoutMs: 10_000, failed: 504 },
  { failure: 'hang' as const, timeoutMs: 10_000, failed: null },
])('unit pages too slow for the proxy ($failure)', ({ failure, timeoutMs, failed }) => {
  it('are asked again at half the size, later pages never grow past it, and the mirror is the same', async () => {
    const db = await freshDb();
    sim.setSlowUnitPages({ maxResults: MAX_RESULTS, failure, hangMs: 60_000 });
    sim.requests.reset();
    const { log, lines } = captureLogger('warn');
    try {
      const result = await syncSimulator(sim, handleOf(db), {
        log,
        client: { timeoutMs, maxAttempts: 3, log, now: quickClock() },
      });
      expect([result.status, result.error]).toEqual(['succeeded', null]);
      const units = result.summary.resources.find((r) => r.resource === 'units')!;
      expect(units.retries).toBeGreaterThanOrEqual(2);
    } finally {
      sim.setSlowUnitPages(null);
    }
    const walk = walkRequests(sim.requests.entries);
    const asked = walk.map((e) => [pageSizeOf(e), e.status] as const);
    // 1,000 is answered quickly and the walk grows to 4,000, which fails and is asked again
    // at half the size until 1,000, under the proxy's 1,500; every page after keeps 1,000.
    const failures = asked.findIndex(([, status], i) => i > 0 && status === 200) - 1;
    expect(failures).toBe(2);
    expect(asked.slice(0, failures + 2)).toEqual([
      [1000, 200],
      ...Array.from({ length: failures }, (_, i) => [1000 * 2 ** (failures - i), failed]),
      [1000, 200],
    ]);
    // At least two pages follow the one answered: a walk that grew again would show it.
    expect(asked.length).toBeGreaterThanOrEqual(failures + 4);
    expect(
      asked.slice(failures + 2).every(([size, status]) => size === 1000 && status === 200),
    ).toBe(true);
    expect(walk.length).toBeLessThanOrEqual(
      3 + failures + Math.ceil(sim.instance.units.length / 1000),
    );
    expect(sim.requests.entries.filter((e) => e.status !== 200)).toHaveLength(failures);
    // The retries that asked a smaller page (any other is a busy machine's reset connection).
    const retried = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request failed, retrying' && l.nextUrl !== undefined)
      .map((l) => [pageSizeOf({ target: String(l.url) } as RequestLogEntry), l.nextUrl]);
    expect(retried).toEqual(
      asked
        .slice(1, failures + 1)
        .map(([size]): unknown[] => [
          size,
          expect.stringMatching(new RegExp(`[?&]page_size=${size / 2}(&|$)`)),
        ]),
    );
    expect(compareMirrors(await snapshotMirror(db), clean, () => false)).toEqual([]);
  });
});

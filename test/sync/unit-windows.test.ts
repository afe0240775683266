import { describe, expect, it } from 'vitest';

import { type RequestLogEntry, rowsTouched } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { servedOnce, syncSimulator } from '../helpers/sync.ts';

/** Units per page (WEBLATE_MAX_PAGE_SIZE). */
const PAGE = 100;

const mirror = useSimulatorMirror({
  seed: 93,
  projects: 2,
  components: 4,
  languages: 3,
  units: 1200,
  changes: 120,
  users: 1,
});
const databases = useTestDatabases();

/** The requests of the global unit walk (not the capability probe, which asks page_size=1). */
function walkRequests(): RequestLogEntry[] {
  return servedOnce(mirror.sim, /^\/api\/units\/\?/).filter(
    (e) => !/[?&]page_size=1(&|$)/.test(e.target),
  );
}

function sync(options: { full?: boolean } = {}) {
  return syncSimulator(mirror.sim, mirror.handle, { ...options, client: { maxPageSize: PAGE } });
}

async function mirroredLiveUnits(): Promise<number> {
  const row = await mirror.handle.db
    .selectFrom('weblate.units')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('a full unit walk in id windows', () => {
  it('makes no request count more than about two pages, and touches about two rows per unit', async () => {
    const { sim } = mirror;
    // A gap in the ids: a whole component's units are gone before the first sync.
    const component = sim.instance.components[1]!;
    sim.mutate.deleteComponent(component.id);
    sim.requests.reset();
    const result = await sync();
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    expect(await mirroredLiveUnits()).toBe(sim.instance.units.length);

    const walk = walkRequests();
    for (const entry of walk)
      expect(entry.work.counted, entry.target).toBeLessThanOrEqual(2 * PAGE);
    const touched = walk.reduce((sum, e) => sum + rowsTouched(e.work), 0);
    expect(touched / sim.instance.units.length).toBeLessThanOrEqual(2.5);
    // Windows of about a page: not many more requests than pages.
    expect(walk.length).toBeLessThanOrEqual(Math.ceil(sim.instance.units.length / PAGE) * 1.5 + 3);
    // Every request but the last is bounded from above; the last reads what is left.
    expect(walk.slice(0, -1).every((e) => /id%3A%3C%3D\d+/.test(e.target))).toBe(true);
    expect(walk.at(-1)!.target).not.toMatch(/id%3A%3C%3D/);
  });

  it('reads the units added beyond the largest id it knew in windows too', async () => {
    const { sim } = mirror;
    const added = sim.mutate.addUnits(sim.instance.components[0]!.id, 280).unitIds;
    expect(added.length).toBeGreaterThan(PAGE);
    sim.requests.reset();
    const result = await sync({ full: true });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    expect(await mirroredLiveUnits()).toBe(sim.instance.units.length);
    const walk = walkRequests();
    // Only the last request is unbounded: the new units were read in windows too.
    expect(walk.filter((e) => !/id%3A%3C%3D/.test(e.target))).toEqual([walk.at(-1)]);
    for (const entry of walk)
      expect(entry.work.counted, entry.target).toBeLessThanOrEqual(2 * PAGE);
    const touched = walk.reduce((sum, e) => sum + rowsTouched(e.work), 0);
    expect(touched / sim.instance.units.length).toBeLessThanOrEqual(2.5);
  });
});

describe('a full unit walk in windows read side by side', () => {
  it('loses no unit to strings added and removed while windows are in flight', async () => {
    const { sim } = mirror;
    const sources = sim.instance.units.filter((u) => u.sourceUnitId === u.id);
    // Sources spread over the ids: in windows already read, in flight and not yet asked.
    const doomed = [0.05, 0.3, 0.55, 0.95].map((at) => sources[Math.floor(sources.length * at)]!);
    const added: number[] = [];
    const trigger = sim.at({ match: /^\/api\/units\/\?q=id%3A%3E/, nth: 4 }, () => {
      sim.mutate.deleteUnits(doomed.map((s) => s.id));
      added.push(...sim.mutate.addUnits(sim.instance.components[0]!.id, 30).unitIds);
    });
    sim.requests.reset();
    // A little latency, as over a network: the windows' requests overlap at the server.
    sim.setLatency(10);
    const during = await sync({ full: true }).finally(() => sim.setLatency(0));
    expect([during.status, during.error, trigger.fired]).toEqual(['succeeded', null, true]);
    expect(walkRequests().some((e) => e.inFlight > 1)).toBe(true);
    // Every unit the server holds now is mirrored and live: none fell between two windows.
    const live = await mirror.handle.db
      .selectFrom('weblate.units')
      .select('id')
      .where('deleted_at', 'is', null)
      .execute();
    const liveIds = new Set(live.map((r) => Number(r.id)));
    expect(sim.instance.units.filter((u) => !liveIds.has(u.id))).toEqual([]);
    expect(added.every((id) => liveIds.has(id))).toBe(true);

    // What was removed from windows already read is marked by the next sync.
    expect((await sync()).status).toBe('succeeded');
    const fresh = await databases.migrated();
    expect((await syncSimulator(sim, fresh, { client: { maxPageSize: PAGE } })).status).toBe(
      'succeeded',
    );
    expect(
      compareMirrors(
        await snapshotMirror(mirror.handle.db),
        await snapshotMirror(fresh.db),
        // The history of the strings removed stays in the mirror; Weblate deleted it.
        (id) => !sim.instance.index.changeById.has(Number(id)),
      ),
    ).toEqual([]);
  });
});

describe('a full unit walk beside the change history', () => {
  const beside = useSimulatorMirror({
    seed: 94,
    projects: 2,
    components: 4,
    languages: 3,
    units: 2400,
    changes: 1600,
    users: 1,
    // A little latency, as over a network: the requests overlap at the server.
    latencyMs: 20,
  });

  it('leaves one of the client places to the change walk, and still reads windows side by side', async () => {
    const result = await syncSimulator(beside.sim, beside.handle, {
      client: { maxPageSize: PAGE },
    });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const entries = beside.sim.requests.entries;
    const isUnitWindow = (e: RequestLogEntry) =>
      e.target.startsWith('/api/units/?') && !/[?&]page_size=1(&|$)/.test(e.target);
    const isChange = (e: RequestLogEntry) => e.target.startsWith('/api/changes/?');
    expect(entries.filter(isChange).length).toBeGreaterThan(3);
    // The most requests of each kind open at once, from when they arrived to when they closed.
    const mostAtOnce = (of: RequestLogEntry[]) =>
      Math.max(
        ...of.map(
          (e) => of.filter((o) => o.arrivedAt <= e.arrivedAt && e.arrivedAt < o.closedAt!).length,
        ),
      );
    const windows = entries.filter(isUnitWindow);
    // The client's concurrency is 4: three windows at most, so a change request never
    // waits behind four unit pages.
    expect(mostAtOnce(windows)).toBeLessThanOrEqual(3);
    expect(mostAtOnce(windows)).toBeGreaterThan(1);
    // And the change history was read beside them.
    const open = (a: RequestLogEntry, b: RequestLogEntry) =>
      a.arrivedAt < b.closedAt! && b.arrivedAt < a.closedAt!;
    expect(entries.filter(isChange).some((c) => windows.some((w) => open(c, w)))).toBe(true);
  });
});

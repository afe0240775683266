import { describe, expect, it } from 'vitest';

import { type RequestLogEntry, rowsTouched } from '../../src/simulator/index.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

/** Units per page (WEBLATE_MAX_PAGE_SIZE). */
const PAGE = 500;

const mirror = useSimulatorMirror({
  seed: 93,
  projects: 2,
  components: 4,
  languages: 3,
  units: 6000,
  changes: 300,
  users: 1,
});

/** The requests of the global unit walk (not the capability probe, which asks page_size=1). */
function walkRequests(): RequestLogEntry[] {
  return mirror.sim.requests.entries.filter(
    (e) => e.target.startsWith('/api/units/?') && !/[?&]page_size=1(&|$)/.test(e.target),
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
    const added = sim.mutate.addUnits(sim.instance.components[0]!.id, 700).unitIds;
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

import { describe, expect, it } from 'vitest';

import { useTestDatabases } from '../helpers/database.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { servedOnce, syncSimulator } from '../helpers/sync.ts';

/** Units per page (WEBLATE_MAX_PAGE_SIZE). */
const PAGE = 250;

const mirror = useSimulatorMirror({
  seed: 94,
  projects: 2,
  components: 4,
  languages: 3,
  units: 3000,
  changes: 300,
  users: 1,
  unitIds: 'sparse-clustered',
});
useTestDatabases();

describe('a full unit walk over sparse-clustered ids', () => {
  it('mirrors every unit, ids past 2^31 kept exact, crossing gaps of millions with empty windows', async () => {
    const { sim } = mirror;
    expect(sim.instance.units[0]!.id).toBeGreaterThan(2 ** 31);
    sim.requests.reset();
    const result = await syncSimulator(sim, mirror.handle, { client: { maxPageSize: PAGE } });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const rows = await mirror.handle.db
      .selectFrom('weblate.units')
      .select('id')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => String(r.id))).toEqual(sim.instance.units.map((u) => String(u.id)));
    const walk = servedOnce(sim, /^\/api\/units\/\?/).filter(
      (e) => !/[?&]page_size=1(&|$)/.test(e.target),
    );
    // Only the last request is unbounded: gaps are crossed by windows, not by counting the rest.
    expect(walk.filter((e) => !/id%3A%3C%3D/.test(e.target))).toEqual([walk.at(-1)]);
    const counted = walk.reduce((sum, e) => sum + e.work.counted, 0);
    const served = walk.reduce((sum, e) => sum + e.work.units, 0);
    expect(served).toBe(sim.instance.units.length);
    // The unit walk waits for the change history's unit ids (300 changes: all of it) and
    // jumps each gap to the next id they name; without them the window that found the first
    // cluster, millions of ids up, counted every unit. A cluster whose first named unit lies
    // far into it is still counted up to there before it is read (1.68 in all, here).
    expect(counted / served).toBeLessThanOrEqual(2);
  });
});

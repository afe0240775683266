import { it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.ts';
import { UnitStrategyMemo } from '../../src/sync/streams/unit-strategy.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';

const dbs = useTestDatabases();
it('cost of targeted syncs', async () => {
  const sim = await startSimulator({ seed: 7, projects: 3, components: 40, languages: 10, units: 20000, changes: 10000 });
  const handle = await dbs.migrated();
  await syncSimulator(sim, handle, { discoveryIntervalSeconds: 3600 });
  const memo = new UnitStrategyMemo(3600_000);
  const candidates = sim.instance.units.filter((u) => sim.instance.index.translationById.get(u.translationId)?.isSource === false);
  for (let made = 0; made < 4; made++) {
    const unit = candidates[(made * 7919) % candidates.length]!;
    sim.mutate.editUnits([unit.id]);
    sim.requests.reset();
    const r = await syncSimulator(sim, handle, { targeted: { projects: null, unitStrategy: memo } });
    console.log(r.status, r.summary.requests, sim.requests.entries.map((e) => e.target).join('\n  '));
  }
  await sim.close();
});

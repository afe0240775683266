import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { SyncError } from '../../src/errors.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { UnitStrategyMemo } from '../../src/sync/streams/unit-strategy.ts';
import { expectSameAsCleanSync } from '../helpers/clean-sync.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { servedTargets, syncSimulator } from '../helpers/sync.ts';

/**
 * The sync webhooks start (TargetedSync): what the events named, no discovery lists, no
 * statistics (owed to the next scheduled sync), the unit strategy learned before.
 */
const databases = useTestDatabases();
let sim: RunningSimulator;
let handle: DbHandle;
let slugs: string[];

beforeAll(async () => {
  sim = await startSimulator({
    seed: 41,
    projects: 3,
    components: 6,
    languages: 2,
    units: 900,
    changes: 600,
    users: 1,
  });
  slugs = sim.instance.projects.map((p) => p.slug);
});
afterAll(async () => {
  await sim?.close();
});

function editIn(project: string, count: number): number[] {
  const { index } = sim.instance;
  const projectId = index.projectBySlug.get(project)!.id;
  const units = sim.instance.units
    .filter((u) => {
      const translation = index.translationById.get(u.translationId)!;
      return (
        !translation.isSource &&
        index.componentById.get(translation.componentId)!.projectId === projectId
      );
    })
    .slice(0, count)
    .map((u) => u.id);
  sim.mutate.editUnits(units);
  return units;
}

const paths = () => servedTargets(sim).map((target) => target.replace(/\?.*/, ''));

describe('a sync started by webhooks', () => {
  it('is never the first sync', async () => {
    handle = await databases.migrated();
    const memo = new UnitStrategyMemo(3_600_000);
    await expect(
      syncSimulator(sim, handle, { targeted: { projects: null, unitStrategy: memo } }),
    ).rejects.toThrow(SyncError);
    expect(await handle.db.selectFrom('weblate.sync_runs').select('id').execute()).toEqual([]);
  });

  it('reads only the change lists of the projects named, and owes the statistics', async () => {
    expect(
      (await syncSimulator(sim, handle, { projects: slugs, discoveryIntervalSeconds: 3600 }))
        .status,
    ).toBe('succeeded');
    const memo = new UnitStrategyMemo(3_600_000);
    editIn(slugs[1]!, 3);
    sim.requests.reset();
    const result = await syncSimulator(sim, handle, {
      projects: slugs,
      targeted: { projects: new Set([slugs[1]!]), unitStrategy: memo },
    });
    expect([result.kind, result.mode, result.status]).toEqual([
      'webhook',
      'incremental',
      'succeeded',
    ]);
    const read = paths();
    expect(read.filter((p) => p.endsWith('/changes/'))).toEqual([
      `/api/projects/${slugs[1]}/changes/`,
    ]);
    // No discovery lists, no statistics.
    expect(read.filter((p) => /^\/api\/(projects|components|languages)\/$/.test(p))).toEqual([]);
    expect(read.filter((p) => p.includes('statistics'))).toEqual([]);
    const owed = await handle.db
      .selectFrom('weblate.sync_pending')
      .select('kind')
      .where('kind', '=', 'snapshot')
      .execute();
    expect(owed.length).toBeGreaterThan(0);

    // The next sync that reads statistics pays what was owed; the mirror is then whole.
    const scheduled = await syncSimulator(sim, handle, {
      projects: slugs,
      discoveryIntervalSeconds: 3600,
    });
    expect([scheduled.kind, scheduled.status]).toEqual(['incremental', 'succeeded']);
    expect(await handle.db.selectFrom('weblate.sync_pending').select('kind').execute()).toEqual([]);
    await expectSameAsCleanSync(databases, sim, handle.db, { projects: slugs });
  });

  it('probes the unit list once for all the syncs that share its memory', async () => {
    const memo = new UnitStrategyMemo(3_600_000);
    let probes = 0;
    for (const project of slugs.slice(0, 2)) {
      editIn(project, 1);
      sim.requests.reset();
      const result = await syncSimulator(sim, handle, {
        projects: slugs,
        targeted: { projects: new Set([project]), unitStrategy: memo },
      });
      expect(result.status).toBe('succeeded');
      probes += servedTargets(sim, /id%3A%3C%3D0/).length;
    }
    expect(probes).toBe(1);
  });
});

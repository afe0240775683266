import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { syncSimulator } from '../helpers/sync.ts';

let sim: RunningSimulator;
const databases = useTestDatabases();
let handle: DbHandle;

/** Units per page (WEBLATE_MAX_PAGE_SIZE): the instance's units take three. */
const PAGE = 300;

function sync(into: DbHandle, options: { full?: boolean } = {}) {
  return syncSimulator(sim, into, { ...options, client: { maxPageSize: PAGE } });
}

beforeAll(async () => {
  // Three pages of units in the global walk, more than one page of changes per project.
  sim = await startSimulator({
    seed: 51,
    projects: 2,
    components: 4,
    languages: 3,
    units: 720,
    changes: 900,
    users: 1,
  });
  handle = await databases.migrated();
  expect((await sync(handle)).status).toBe('succeeded');
});

afterAll(async () => {
  await sim.close();
});

async function liveUnits(ids: number[]): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from weblate.units where deleted_at is null and id = any(${`{${ids.join(',')}}`}::bigint[])`.execute(
    handle.db,
  );
  return result.rows[0]!.n;
}

describe('data that moves while a sync reads it', () => {
  it('is all present, or marked deleted, after the next sync', async () => {
    const units = sim.instance.units;
    const unitsOf = (sourceId: number) =>
      units.filter((u) => u.sourceUnitId === sourceId).map((u) => u.id);
    // The trigger fires as the walk asks its second window: most of the first PAGE ids are
    // walked before the deletion (a window spans ids, not a count of them).
    const boundary = units[PAGE - 1]!.id;
    const sources = units.filter((u) => u.state === 100);
    const early = sources.find((s) => unitsOf(s.id).every((id) => id <= boundary))!;
    const late = [...sources].reverse().find((s) => unitsOf(s.id).every((id) => id > boundary))!;
    const walkedIds = unitsOf(early.id);
    const unwalkedIds = unitsOf(late.id);
    const doomed = sim.instance.translations.find((t) => !t.isSource)!;
    // The changes and the units are read side by side, so either trigger may fire first: what
    // they add stays clear of the translation that goes (its changes and units would go too).
    const [growing, edited, busy] = sim.instance.translations.filter(
      (t) => t.componentId !== doomed.componentId,
    );
    const added: number[] = [];
    const insertedChanges: number[] = [];
    // The walk's pages, not the probe of what /api/units/ answers (page_size=1).
    const walkPage = /^\/api\/units\/\?(?!.*[?&]page_size=1(&|$))/;
    const duringUnits = sim.at({ match: walkPage, nth: 2 }, () => {
      sim.mutate.deleteUnits([early.id, late.id]);
      added.push(...sim.mutate.addUnits(growing!.componentId, 2).unitIds);
      insertedChanges.push(...sim.mutate.addChanges(edited!.id, 3).changeIds);
    });
    const duringChanges = sim.at({ match: /\/changes\/\?/, nth: 2 }, () => {
      insertedChanges.push(...sim.mutate.addChanges(busy!.id, 4).changeIds);
      sim.mutate.deleteTranslation(doomed.id);
    });
    const during = await sync(handle, { full: true });
    expect(during.error?.message).toBeUndefined();
    expect([during.status, duringUnits.fired, duringChanges.fired]).toEqual([
      'succeeded',
      true,
      true,
    ]);
    // The walk reached the last page after the deletion: those units are marked at once.
    expect(await liveUnits(unwalkedIds)).toBe(0);

    const next = await sync(handle);
    expect([next.status, next.mode]).toEqual(['succeeded', 'incremental']);
    expect(await liveUnits(walkedIds)).toBe(0);
    expect(await liveUnits(added)).toBe(added.length);
    const changes = await sql<{ n: number }>`
      select count(*)::int as n from weblate.changes where id = any(${`{${insertedChanges.join(',')}}`}::bigint[])`.execute(
      handle.db,
    );
    expect(changes.rows[0]!.n).toBe(insertedChanges.length);
    const translation = await sql<{ deleted: boolean }>`
      select deleted_at is not null as deleted from weblate.translations where id = ${doomed.id}`.execute(
      handle.db,
    );
    expect(translation.rows[0]!.deleted).toBe(true);

    const freshHandle = await databases.migrated();
    expect((await sync(freshHandle)).status).toBe('succeeded');
    const differences = compareMirrors(
      await snapshotMirror(handle.db),
      await snapshotMirror(freshHandle.db),
      (id) => !sim.instance.index.changeById.has(Number(id)),
    );
    expect(differences).toEqual([]);

    // Every list was asked in pages of at most WEBLATE_MAX_PAGE_SIZE, the unit walk at that size.
    const sizes = sim.requests.entries.map((e) =>
      Number(new URL(e.target, sim.url).searchParams.get('page_size') ?? 0),
    );
    expect(Math.max(...sizes)).toBe(PAGE);
    expect(
      sim.requests.entries.some(
        (e) => e.target.startsWith('/api/units/?') && e.target.includes(`page_size=${PAGE}`),
      ),
    ).toBe(true);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { readCursor } from '../../src/db/queries/sync-state.ts';
import { toEpochMicros } from '../../src/lib/timestamps.ts';
import {
  renderTranslation,
  type RunningSimulator,
  type SimInstance,
  siteLinks,
  startSimulator,
  toJsonText,
} from '../../src/simulator/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { requestsByResource, syncSimulator } from '../helpers/sync.ts';

const LOOKBACK_SECONDS = 300;
let sim: RunningSimulator;
let kept: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 21,
    projects: 3,
    components: 6,
    languages: 4,
    units: 3000,
    changes: 1500,
    users: 2,
  });
  kept = await createTestDatabase();
  handle = await kept.migrated();
  const first = await syncSimulator(sim, handle);
  expect([first.mode, first.status, first.summary.rejected]).toEqual(['full', 'succeeded', 0]);
});

afterAll(async () => {
  await sim.close();
  await kept.drop();
});

type Records = Map<number, { text: string; componentId: number; language: string; total: number }>;

/** The translation list records as the server renders them now. */
function translationRecords(instance: SimInstance): Records {
  return new Map(
    instance.translations.map((t) => {
      const record = renderTranslation(instance, siteLinks(sim.url), t);
      const language = instance.index.languageById.get(t.languageId)!.code;
      return [
        t.id,
        {
          text: toJsonText(record),
          componentId: t.componentId,
          language,
          total: record.total as number,
        },
      ];
    }),
  );
}

/**
 * What an incremental sync must request, worked out from the simulator's state before and
 * after the mutations and the mirror's cursors: discovery lists, one change page per
 * project, units only when something moved, statistics only for what moved.
 */
async function expectedRequests(before: Records): Promise<Record<string, number>> {
  const { instance } = sim;
  const after = translationRecords(instance);
  const moved = [...after].filter(([id, r]) => before.get(id)?.text !== r.text);
  const deleted = [...before].filter(([id]) => !after.has(id));
  const cursor = (await readCursor(handle.db, 'units', ''))!;
  const since = toEpochMicros(cursor.mark!) - BigInt(LOOKBACK_SECONDS * 1_000_000);
  const maxId = BigInt(cursor.maxId!);
  // Changes re-read within the lookback that the mirror already holds name nothing new.
  const held = await sql<{ id: string }>`select id::text as id from weblate.changes`.execute(
    handle.db,
  );
  const mirrored = new Set(held.rows.map((r) => Number(r.id)));
  const named = new Set(
    instance.changes
      .filter((c) => c.unitId !== null && BigInt(c.timestampUs) >= since && !mirrored.has(c.id))
      .map((c) => c.unitId!),
  );
  const walked = new Set(
    instance.units
      .filter((u) => BigInt(u.lastUpdatedUs) >= since || BigInt(u.id) > maxId)
      .map((u) => u.id),
  );
  const leftover = [...named].filter((id) => !walked.has(id));
  // People new to the mirror, named by the changes it is about to write: one read each.
  const known = await sql<{ username: string }>`select username from weblate.users`.execute(
    handle.db,
  );
  const people = new Set(
    instance.changes
      .filter((c) => !mirrored.has(c.id))
      .flatMap((c) => [c.user, c.author])
      .filter((name): name is string => name !== null),
  );
  for (const { username } of known.rows) people.delete(username);
  const shrunk = [...after].filter(([id, r]) => before.has(id) && r.total < before.get(id)!.total);
  const hasWork = moved.length > 0 || named.size > 0;
  return {
    languages: 1,
    projects: 1,
    components: 1,
    // Every project is in scope: one page of the global category list, each project's labels.
    categories: 1,
    labels: instance.projects.length,
    translations: 1,
    // Every project is in scope: one page of the global change list.
    changes: 1,
    // With work: the capability probe (once per run) and one page of changed units.
    units: (hasWork ? 2 : 0) + Math.ceil(leftover.length / 100) + shrunk.length,
    translation_statistics: new Set(moved.map(([, r]) => r.componentId)).size,
    language_statistics: new Set([...moved, ...deleted].map(([, r]) => r.language)).size,
    notification_subscriptions: instance.users.filter((u) => u.subscriptions.length > 0).length,
    users: people.size,
  };
}

async function syncRound(mutate: () => void) {
  const before = translationRecords(sim.instance);
  mutate();
  const expected = await expectedRequests(before);
  const result = await syncSimulator(sim, handle, { lookbackSeconds: LOOKBACK_SECONDS });
  expect([result.mode, result.status, result.error, result.summary.rejected]).toEqual([
    'incremental',
    'succeeded',
    null,
    0,
  ]);
  expect(requestsByResource(result)).toEqual(expected);
  return result;
}

const targetUnits = (translationId: number, count: number, state = 20) =>
  (sim.instance.index.unitsByTranslation.get(translationId) ?? [])
    .filter((u) => u.state === state)
    .slice(0, count)
    .map((u) => u.id);
const targetTranslations = () => sim.instance.translations.filter((t) => !t.isSource);

describe('an incremental sync', () => {
  it('reads only what changed, round after round', async () => {
    const [a, b, c, d] = targetTranslations();
    await syncRound(() => {
      sim.mutate.editUnits([
        ...targetUnits(a!.id, 5),
        ...targetUnits(b!.id, 5),
        ...targetUnits(c!.id, 5, 0),
      ]);
      sim.mutate.bulkEditStates(targetUnits(d!.id, 6), 10);
      sim.mutate.addUnits(sim.instance.components[1]!.id, 2);
      sim.mutate.addChanges(a!.id, 3, { backdate: 120 });
    });
    const component = sim.instance.components[2]!;
    const sourceUnits = sim.instance.index.unitsByTranslation.get(
      sim.instance.translations.find((t) => t.componentId === component.id && t.isSource)!.id,
    )!;
    const doomed = targetTranslations().find(
      (t) => t.componentId === sim.instance.components[3]!.id,
    )!;
    await syncRound(() => {
      sim.mutate.deleteUnits(sourceUnits.slice(0, 2).map((u) => u.id));
      sim.mutate.deleteTranslation(doomed.id);
      const missing = sim.instance.languages.find(
        (l) =>
          l.code !== 'en' &&
          !sim.instance.translations.some(
            (t) => t.componentId === component.id && t.languageId === l.id,
          ),
      );
      if (missing) sim.mutate.addTranslation(component.id, missing.code);
    });
    await syncRound(() => {
      sim.mutate.deleteComponent(sim.instance.components[4]!.id);
      sim.mutate.deleteProject(sim.instance.projects[2]!.id);
      sim.mutate.editUnits(targetUnits(targetTranslations()[0]!.id, 3, 0));
    });
    // Nothing moved: discovery and one page of the global change list only.
    const quiet = await syncRound(() => undefined);
    expect(quiet.summary.rowsWritten).toBe(0);
  });

  it('ends equal to a fresh full sync of the final state, keeping history Weblate deleted', async () => {
    const fresh = await createTestDatabase();
    try {
      const freshHandle = await fresh.migrated();
      const full = await syncSimulator(sim, freshHandle);
      expect(full.mode).toBe('full');
      const kept = await snapshotMirror(handle.db);
      const differences = compareMirrors(
        kept,
        await snapshotMirror(freshHandle.db),
        (id) => !sim.instance.index.changeById.has(Number(id)),
      );
      expect(differences).toEqual([]);
      // Deleted objects keep their rows, marked; their change history stays.
      const deleted = await sql<{ table: string; n: number }>`
        select 'projects' as table, count(*)::int as n from weblate.projects where deleted_at is not null
        union all select 'components', count(*)::int from weblate.components where deleted_at is not null
        union all select 'translations', count(*)::int from weblate.translations where deleted_at is not null
        union all select 'units', count(*)::int from weblate.units where deleted_at is not null`.execute(
        handle.db,
      );
      const counts = Object.fromEntries(deleted.rows.map((r) => [r.table, r.n]));
      expect(counts.projects).toBe(1);
      expect(counts.components).toBeGreaterThanOrEqual(2);
      expect(counts.translations).toBeGreaterThan(1);
      expect(counts.units).toBeGreaterThan(2);
      const orphaned = await sql<{ n: number }>`
        select count(*)::int as n from weblate.changes c join weblate.projects p on p.slug = c.project_slug
        where p.deleted_at is not null`.execute(handle.db);
      expect(orphaned.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await fresh.drop();
    }
  });
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { UnitStrategyMemo } from '../../src/sync/streams/unit-strategy.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { requestsByResource, syncSimulator } from '../helpers/sync.ts';

/**
 * Weblate 5.14.3 queues a change's webhooks before it recounts the change's translation (both
 * run when the transaction commits, the webhooks first; docs/weblate-compatibility.md). A
 * sync a webhook starts may read the change, and the translation's counts and `last_change`
 * as they were before it.
 */
const databases = useTestDatabases();
/** Discovery follows the changes between complete reads, as in the CLI and the worker. */
const INCREMENTAL = { discoveryIntervalSeconds: 3600 } as const;

async function setUp() {
  const sim = await startSimulator({
    seed: 41,
    projects: 2,
    components: 3,
    languages: 3,
    units: 150,
    changes: 60,
  });
  const kept = await databases.migrated();
  const first = await syncSimulator(sim, kept, INCREMENTAL);
  expect([first.mode, first.status]).toEqual(['full', 'succeeded']);
  return { sim, kept };
}

/** Edits one unit of each of two translations of one project; returns their ids, ascending. */
function editTwoTranslations(sim: RunningSimulator): number[] {
  const { index } = sim.instance;
  const [first, second] = sim.instance.translations.filter(
    (t) => !t.isSource && index.componentById.get(t.componentId)!.projectId === 1,
  );
  const translations = [first!, second!];
  sim.mutate.editUnits(translations.map((t) => index.unitsByTranslation.get(t.id)![0]!.id));
  return translations.map((t) => t.id).sort((a, b) => a - b);
}

const rechecks = async (db: DbHandle['db']) =>
  (
    await sql<{ id: string }>`
      select id::text as id from weblate.sync_pending where kind = 'recheck' order by id`.execute(
      db,
    )
  ).rows.map((r) => Number(r.id));

/** Mirrored translations whose `last_change` differs from the server's now (to the millisecond). */
async function behind(sim: RunningSimulator, db: DbHandle['db'], ids: number[]) {
  const rows = await sql<{ id: string; last_change: string | null }>`
    select id::text as id,
      to_char(last_change at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_change
    from weblate.translations where id in (${sql.join(ids)})`.execute(db);
  return rows.rows
    .filter((r) => {
      const changes = sim.instance.index.changesByTranslation.get(Number(r.id)) ?? [];
      const newest = changes[0]?.timestamp;
      return newest === undefined || r.last_change === null
        ? newest !== r.last_change
        : Date.parse(r.last_change) !== Date.parse(newest);
    })
    .map((r) => Number(r.id));
}

async function expectEqualToFullSync(sim: RunningSimulator, kept: DbHandle): Promise<void> {
  const fresh = await databases.migrated();
  expect((await syncSimulator(sim, fresh)).status).toBe('succeeded');
  expect(
    compareMirrors(await snapshotMirror(kept.db), await snapshotMirror(fresh.db), () => false),
  ).toEqual([]);
}

describe('a sync started by webhooks before Weblate recounted the translations', () => {
  it.each([
    ['every project', false],
    ['WEBLATE_PROJECTS', true],
  ])(
    'leaves their records to be read again by the next scheduled sync, which then equals a full sync (%s)',
    async (_, scoped) => {
      const { sim, kept } = await setUp();
      try {
        sim.setCompat({ staleTranslationStatistics: true });
        const edited = editTwoTranslations(sim);
        const projects = scoped ? [sim.instance.index.projectById.get(1)!.slug] : null;
        const webhook = await syncSimulator(sim, kept, {
          projects,
          targeted: { projects: null, unitStrategy: new UnitStrategyMemo(3_600_000) },
        });
        expect(webhook.status).toBe('succeeded');
        // The units are current; the translations answered their counts from before the edits.
        expect(await behind(sim, kept.db, edited)).toEqual(edited);
        expect(await rechecks(kept.db)).toEqual(edited);

        sim.setCompat({});
        const scheduled = await syncSimulator(sim, kept, { ...INCREMENTAL, projects });
        expect(scheduled.status).toBe('succeeded');
        // One component holds both translations: one list read again.
        expect(requestsByResource(scheduled).translations).toBe(1);
        expect(await behind(sim, kept.db, edited)).toEqual([]);
        expect(await rechecks(kept.db)).toEqual([]);
        if (!scoped) await expectEqualToFullSync(sim, kept);

        // A scheduled sync reads the translations once Weblate recounted them: nothing to recheck.
        const again = editTwoTranslations(sim);
        expect((await syncSimulator(sim, kept, { ...INCREMENTAL, projects })).status).toBe(
          'succeeded',
        );
        expect(await behind(sim, kept.db, again)).toEqual([]);
        expect(await rechecks(kept.db)).toEqual([]);
        const quiet = await syncSimulator(sim, kept, { ...INCREMENTAL, projects });
        expect(requestsByResource(quiet).translations ?? 0).toBe(0);
      } finally {
        await sim.close();
      }
    },
  );

  it('has nothing left to recheck after a full sync', async () => {
    const { sim, kept } = await setUp();
    try {
      sim.setCompat({ staleTranslationStatistics: true });
      const edited = editTwoTranslations(sim);
      const targeted = { projects: null, unitStrategy: new UnitStrategyMemo(3_600_000) };
      expect((await syncSimulator(sim, kept, { targeted })).status).toBe('succeeded');
      expect(await rechecks(kept.db)).toEqual(edited);
      sim.setCompat({});
      expect((await syncSimulator(sim, kept, { full: true })).status).toBe('succeeded');
      expect(await rechecks(kept.db)).toEqual([]);
      expect(await behind(sim, kept.db, edited)).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});

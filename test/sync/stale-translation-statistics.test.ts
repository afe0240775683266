import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import {
  type CompatOptions,
  type RunningSimulator,
  startSimulator,
} from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { requestsByResource, syncSimulator } from '../helpers/sync.ts';

/**
 * Weblate 5.14.3 lists a change before it updates the statistics of its translation: the
 * update runs when the change's transaction commits, after its webhooks were queued
 * (docs/weblate-compatibility.md). A sync in that moment reads the change, and the
 * translation's counts and `last_change` as they were before it.
 */
const databases = useTestDatabases();
/** Discovery follows the changes between complete reads, as in the CLI and the worker. */
const INCREMENTAL = { discoveryIntervalSeconds: 3600 } as const;

async function setUp(stale: NonNullable<CompatOptions['staleTranslationStatistics']>) {
  const sim = await startSimulator({
    seed: 41,
    projects: 2,
    components: 3,
    languages: 3,
    units: 600,
    changes: 200,
    compat: { staleTranslationStatistics: stale },
  });
  const kept = await databases.migrated();
  const first = await syncSimulator(sim, kept, INCREMENTAL);
  expect([first.mode, first.status]).toEqual(['full', 'succeeded']);
  return { sim, kept };
}

/** Edits one unit of each of two translations; returns their ids. */
function editTwoTranslations(sim: RunningSimulator): number[] {
  const translations = sim.instance.translations.filter((t) => !t.isSource).slice(0, 2);
  const units = translations.map((t) => sim.instance.index.unitsByTranslation.get(t.id)![0]!);
  sim.mutate.editUnits(units.map((u) => u.id));
  return translations.map((t) => t.id);
}

const pendingOf = async (db: DbHandle['db'], kind: string) =>
  (
    await sql<{ id: string }>`
      select id::text as id from weblate.sync_pending where kind = ${kind} order by id`.execute(db)
  ).rows.map((r) => Number(r.id));

const statisticsRows = async (db: DbHandle['db'], ids: number[]) =>
  Number(
    (
      await sql<{ n: string }>`
        select count(*)::text as n from weblate.translation_statistics
        where translation_id in (${sql.join(ids)})`.execute(db)
    ).rows[0]!.n,
  );

async function expectEqualToFullSync(sim: RunningSimulator, kept: DbHandle): Promise<void> {
  const fresh = await databases.migrated();
  expect((await syncSimulator(sim, fresh)).status).toBe('succeeded');
  expect(
    compareMirrors(await snapshotMirror(kept.db), await snapshotMirror(fresh.db), () => false),
  ).toEqual([]);
}

/** Ages the pending entries of `kind` by an hour, as if the runs between had taken that long. */
async function agePending(db: DbHandle['db'], kind: string): Promise<void> {
  await sql`update weblate.sync_pending set noted_at = noted_at - interval '1 hour'
            where kind = ${kind}`.execute(db);
}

/** The slug of the project of a simulated translation. */
function projectOf(sim: RunningSimulator, translationId: number): string {
  const { index } = sim.instance;
  const component = index.componentById.get(index.translationById.get(translationId)!.componentId)!;
  return index.projectById.get(component.projectId)!.slug;
}

describe('translation records that lag their changes', () => {
  it.each([
    ['every project', false],
    ['WEBLATE_PROJECTS', true],
  ])('are read again by the next run, which then equals a full sync (%s)', async (_, scoped) => {
    const { sim, kept } = await setUp({ records: true, statistics: true });
    try {
      const edited = editTwoTranslations(sim);
      const projects = scoped ? [...new Set(edited.map((id) => projectOf(sim, id)))] : null;
      const options = { ...INCREMENTAL, projects };
      const before = await statisticsRows(kept.db, edited);
      const lagging = await syncSimulator(sim, kept, options);
      expect(lagging.status).toBe('succeeded');
      // The units are current; the translations answered as before the edits.
      expect(await pendingOf(kept.db, 'lagging')).toEqual([...edited].sort((a, b) => a - b));
      expect(await statisticsRows(kept.db, edited)).toBe(before);

      sim.setCompat({});
      const caughtUp = await syncSimulator(sim, kept, options);
      expect(caughtUp.status).toBe('succeeded');
      expect(requestsByResource(caughtUp).translations).toBeGreaterThan(0);
      expect(await pendingOf(kept.db, 'lagging')).toEqual([]);
      expect(await statisticsRows(kept.db, edited)).toBe(before + edited.length);
      if (!scoped) await expectEqualToFullSync(sim, kept);

      // Nothing lags any more: the next run reads no translation.
      const quiet = await syncSimulator(sim, kept, options);
      expect(requestsByResource(quiet).translations ?? 0).toBe(0);
    } finally {
      await sim.close();
    }
  });

  it('are taken as the server gives them, with a warning, once they lagged for long', async () => {
    const { sim, kept } = await setUp({ records: true, statistics: true });
    try {
      const edited = editTwoTranslations(sim);
      expect((await syncSimulator(sim, kept, INCREMENTAL)).status).toBe('succeeded');
      const again = await syncSimulator(sim, kept, INCREMENTAL);
      expect(requestsByResource(again).translations).toBeGreaterThan(0);
      expect(again.summary.warnings).toEqual([]);
      expect(await pendingOf(kept.db, 'lagging')).toHaveLength(edited.length);

      await agePending(kept.db, 'lagging');
      const given = await syncSimulator(sim, kept, INCREMENTAL);
      expect(given.status).toBe('succeeded');
      expect(
        given.summary.warnings.filter((w) => /older than its newest change/.test(w)),
      ).toHaveLength(edited.length);
      expect(await pendingOf(kept.db, 'lagging')).toEqual([]);
      const quiet = await syncSimulator(sim, kept, INCREMENTAL);
      expect(requestsByResource(quiet).translations ?? 0).toBe(0);
    } finally {
      await sim.close();
    }
  });
});

describe('translation statistics that lag their changes', () => {
  it('are not recorded; the translation owes the next run its snapshot, which then equals a full sync', async () => {
    const { sim, kept } = await setUp({ records: false, statistics: true });
    try {
      const edited = editTwoTranslations(sim);
      const before = await statisticsRows(kept.db, edited);
      expect((await syncSimulator(sim, kept, INCREMENTAL)).status).toBe('succeeded');
      expect(await statisticsRows(kept.db, edited)).toBe(before);
      expect(await pendingOf(kept.db, 'snapshot')).toEqual([...edited].sort((a, b) => a - b));
      expect(await pendingOf(kept.db, 'translation')).toEqual([]);

      sim.setCompat({});
      expect((await syncSimulator(sim, kept, INCREMENTAL)).status).toBe('succeeded');
      expect(await statisticsRows(kept.db, edited)).toBe(before + edited.length);
      expect(await pendingOf(kept.db, 'snapshot')).toEqual([]);
      await expectEqualToFullSync(sim, kept);
    } finally {
      await sim.close();
    }
  });

  it('are recorded as given, with a warning, once they lagged for long', async () => {
    const { sim, kept } = await setUp({ records: false, statistics: true });
    try {
      const edited = editTwoTranslations(sim);
      const before = await statisticsRows(kept.db, edited);
      expect((await syncSimulator(sim, kept, INCREMENTAL)).status).toBe('succeeded');
      expect((await syncSimulator(sim, kept, INCREMENTAL)).summary.warnings).toEqual([]);
      expect(await statisticsRows(kept.db, edited)).toBe(before);

      await agePending(kept.db, 'snapshot');
      const given = await syncSimulator(sim, kept, INCREMENTAL);
      expect(
        given.summary.warnings.filter((w) => /older than its newest change/.test(w)),
      ).toHaveLength(edited.length);
      expect(await pendingOf(kept.db, 'snapshot')).toEqual([]);
      // What the server gave equals what was recorded before: no new history row.
      expect(await statisticsRows(kept.db, edited)).toBe(before);
    } finally {
      await sim.close();
    }
  });
});

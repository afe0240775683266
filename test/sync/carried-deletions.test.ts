import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { up as carryDeletions } from '../../migrations/0009_carry_deletions.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { SMALL_INSTANCE, useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * Whatever sync notices that a project, component or translation is gone, what it contains
 * is marked deleted in the same transaction: no state of the mirror shows a live row under a
 * deleted one.
 */
const mirror = useSimulatorMirror({ ...SMALL_INSTANCE, seed: 73, projects: 3 });
const databases = useTestDatabases();
/** Discovery follows the changes between complete reads, as in the CLI and the worker. */
const HOURLY = { discoveryIntervalSeconds: 3600 } as const;

/** Live rows under a deleted container, by table. */
async function liveUnderDeleted(handle: DbHandle): Promise<Record<string, number>> {
  const result = await sql<{ components: number; translations: number; units: number }>`
    select
      (select count(*)::int from weblate.components c join weblate.projects p on p.id = c.project_id
        where p.deleted_at is not null and c.deleted_at is null) as components,
      (select count(*)::int from weblate.translations t join weblate.components c on c.id = t.component_id
        where c.deleted_at is not null and t.deleted_at is null) as translations,
      (select count(*)::int from weblate.units u join weblate.translations t on t.id = u.translation_id
        where t.deleted_at is not null and u.deleted_at is null) as units`.execute(handle.db);
  return result.rows[0]!;
}

async function deletedAt(handle: DbHandle, table: string, id: number): Promise<string | null> {
  const result = await sql<{ deleted_at: string | null }>`
    select deleted_at from ${sql.table(`weblate.${table}`)} where id = ${id}`.execute(handle.db);
  return result.rows[0]!.deleted_at;
}

describe('a deletion noticed by any sync', () => {
  it('carries to the units of a translation that an incremental sync found removed', async () => {
    const { sim, handle } = mirror;
    expect((await syncSimulator(sim, handle, HOURLY)).status).toBe('succeeded');
    const doomed = sim.instance.translations.find(
      (t) => !t.isSource && (sim.instance.index.unitsByTranslation.get(t.id)?.length ?? 0) > 0,
    )!;
    const units = sim.instance.index.unitsByTranslation.get(doomed.id)!.map((u) => u.id);
    sim.mutate.deleteTranslation(doomed.id);
    // Within the discovery interval: the change that names the component makes the sync read
    // its translation list again, which no longer has the translation.
    const result = await syncSimulator(sim, handle, HOURLY);
    expect([result.mode, result.status]).toEqual(['incremental', 'succeeded']);
    const translationDeletedAt = await deletedAt(handle, 'translations', doomed.id);
    expect(translationDeletedAt).not.toBeNull();
    const marked = await sql<{ id: string; deleted_at: string | null }>`
      select id::text, deleted_at from weblate.units where translation_id = ${doomed.id}`.execute(
      handle.db,
    );
    expect(marked.rows.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(
      [...units].sort((a, b) => a - b),
    );
    // In the transaction that marked the translation.
    expect(new Set(marked.rows.map((r) => r.deleted_at))).toEqual(new Set([translationDeletedAt]));
    expect(await liveUnderDeleted(handle)).toEqual({ components: 0, translations: 0, units: 0 });
    // A deletion is a change: whoever copies the mirror by updated_at sees it.
    const stale = await sql<{ n: number }>`
      select count(*)::int as n from weblate.units
      where translation_id = ${doomed.id} and updated_at < deleted_at`.execute(handle.db);
    expect(stale.rows[0]!.n).toBe(0);
  });

  it('carries to everything a project held when a complete discovery finds it gone', async () => {
    const { sim, handle } = mirror;
    const doomed = sim.instance.projects.at(-1)!;
    sim.mutate.deleteProject(doomed.id);
    const result = await syncSimulator(sim, handle, { discoveryIntervalSeconds: 0 });
    expect(result.status).toBe('succeeded');
    const projectDeletedAt = await deletedAt(handle, 'projects', doomed.id);
    expect(projectDeletedAt).not.toBeNull();
    const held = await sql<{ deleted_at: string | null }>`
      select distinct u.deleted_at from weblate.units u
      join weblate.translations t on t.id = u.translation_id
      join weblate.components c on c.id = t.component_id where c.project_id = ${doomed.id}`.execute(
      handle.db,
    );
    expect(held.rows).toEqual([{ deleted_at: projectDeletedAt }]);
    expect(await liveUnderDeleted(handle)).toEqual({ components: 0, translations: 0, units: 0 });
  });
});

describe('migration 0009_carry_deletions', () => {
  it('marks the live rows that an older release left under deleted objects', async () => {
    const handle = await databases.migrated();
    expect((await syncSimulator(mirror.sim, handle)).status).toBe('succeeded');
    // What an older release left: a translation marked deleted, its units still live.
    const translation = await sql<{ id: number }>`
      update weblate.translations set deleted_at = now()
      where id = (select translation_id from weblate.units where deleted_at is null limit 1)
      returning id`.execute(handle.db);
    const id = translation.rows[0]!.id;
    expect((await liveUnderDeleted(handle)).units).toBeGreaterThan(0);
    await carryDeletions(handle.db as unknown as Kysely<unknown>);
    expect(await liveUnderDeleted(handle)).toEqual({ components: 0, translations: 0, units: 0 });
    const units = await sql<{ deleted_at: string | null }>`
      select distinct deleted_at from weblate.units where translation_id = ${id}`.execute(
      handle.db,
    );
    expect(units.rows).toEqual([{ deleted_at: await deletedAt(handle, 'translations', id) }]);
  });
});

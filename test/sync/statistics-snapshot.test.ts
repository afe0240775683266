import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import {
  applyTransitions,
  pending as pendingSteps,
  transition,
} from '../../src/db/queries/sync-state.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { runStatisticsSnapshot } from '../../src/sync/run-statistics.ts';
import { createTestClient } from '../helpers/client.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { asWriter, syncSimulator } from '../helpers/sync.ts';

let sim: RunningSimulator;
const databases = useTestDatabases();

beforeAll(async () => {
  // The snapshot reads statistics only: strings and changes are incidental (each test's sync
  // writes them all).
  sim = await startSimulator({
    seed: 17,
    projects: 2,
    components: 3,
    languages: 3,
    units: 120,
    changes: 60,
    users: 1,
  });
});

afterAll(async () => {
  await sim.close();
});

function migrated(): Promise<DbHandle> {
  return databases.migrated();
}

async function snapshot(handle: DbHandle, projects: string[] | null = null) {
  const log = captureLogger('warn').log;
  const run = {
    log,
    scope: { projects, users: [] },
    client: () => createTestClient(sim.url, { log }),
  };
  return asWriter(handle, run, (deps) => runStatisticsSnapshot(deps));
}

async function count(handle: DbHandle, table: string, where = sql`true`): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from ${sql.table(`weblate.${table}`)} where ${where}`.execute(
    handle.db,
  );
  return result.rows[0]!.n;
}

/** Translations (or languages) whose latest statistics row was seen at or after `since`. */
async function seenSince(handle: DbHandle, since: string) {
  const result = await sql<{ translations: number; languages: number }>`
    select
      (select count(distinct translation_id) from weblate.translation_statistics
        where last_seen_at >= ${since}::timestamptz)::int as translations,
      (select count(distinct language_code) from weblate.language_statistics
        where last_seen_at >= ${since}::timestamptz)::int as languages`.execute(handle.db);
  return result.rows[0]!;
}

function liveTranslations(projects: string[] | null = null): number {
  return sim.instance.translations.filter((t) => {
    const component = sim.instance.index.componentById.get(t.componentId)!;
    const project = sim.instance.index.projectById.get(component.projectId)!;
    return projects === null || projects.includes(project.slug);
  }).length;
}

describe('a statistics snapshot', () => {
  it('sees every translation and language again, and appends rows only where a value changed', async () => {
    const handle = await migrated();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    const rowsBefore = await count(handle, 'translation_statistics');
    const languageRowsBefore = await count(handle, 'language_statistics');
    const since = new Date().toISOString();

    const quiet = await snapshot(handle);
    expect([quiet.kind, quiet.status, quiet.summary.rowsWritten]).toEqual([
      'statistics',
      'succeeded',
      0,
    ]);
    expect(await count(handle, 'translation_statistics')).toBe(rowsBefore);
    expect(await count(handle, 'language_statistics')).toBe(languageRowsBefore);
    const seen = await seenSince(handle, since);
    expect(seen.translations).toBe(liveTranslations());
    expect(seen.languages).toBe(
      await count(
        handle,
        'languages',
        sql`code in (
      select coalesce(l.code, t.language_code) from weblate.translations t
      left join weblate.languages l on l.id = t.language_id where t.deleted_at is null)`,
      ),
    );

    // Upstream edits that no sync has read yet: only their translations get a new row.
    const target = sim.instance.translations.find((t) => !t.isSource)!;
    const units = sim.instance.units.filter((u) => u.translationId === target.id).slice(0, 2);
    sim.mutate.editUnits(units.map((u) => u.id));
    const changed = await snapshot(handle);
    expect(changed.status).toBe('succeeded');
    const appended = await sql<{ translation_id: number }>`
      select translation_id from weblate.translation_statistics where run_id = ${changed.runId}`.execute(
      handle.db,
    );
    expect(appended.rows.map((r) => r.translation_id)).toEqual([target.id]);
    const row = await handle.db
      .selectFrom('weblate.sync_runs')
      .select(['kind', 'status', 'rows_written'])
      .where('id', '=', changed.runId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'statistics', status: 'succeeded' });
    expect(Number(row.rows_written)).toBeGreaterThanOrEqual(1);
  });

  it("leaves the sync's pending work alone and keeps to the scope", async () => {
    const handle = await migrated();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    const [first] = sim.instance.projects;
    const pending = sim.instance.translations.slice(0, 3).map((t) => t.id);
    await applyTransitions(handle.db, [transition.note('movedTranslations', pending)]);
    const since = new Date().toISOString();
    const result = await snapshot(handle, [first!.slug]);
    expect(result.status).toBe('succeeded');
    expect((await pendingSteps.movedTranslations.list(handle.db)).map(Number)).toEqual(pending);
    expect((await seenSince(handle, since)).translations).toBe(liveTranslations([first!.slug]));
  });

  it('is not a sync: the first sync after it is still full', async () => {
    const handle = await migrated();
    expect((await snapshot(handle)).status).toBe('succeeded');
    const first = await syncSimulator(sim, handle);
    expect([first.mode, first.status]).toEqual(['full', 'succeeded']);
  });
});

import { sql } from 'kysely';
import { expect, it } from 'vitest';

import { runDbt } from '../helpers/dbt.ts';
import { syncSimulator } from '../helpers/sync.ts';
import { describeDbtPackage, type PackageFixture, PG_SCHEMA } from './package-suite.ts';

const HOUR_MS = 3_600_000;

/**
 * Deletes a project, a component, a translation and source strings upstream, edits others,
 * then syncs completely: the mirror marks what went (deleted_at) and keeps its rows and
 * changes, which the answer functions read and the marts must read alike.
 */
async function deleteUpstream({ sim, handle }: PackageFixture): Promise<void> {
  const { instance } = sim;
  const [kept, other, , doomedProject] = instance.projects;
  const components = (projectId: number) =>
    instance.components.filter((c) => c.projectId === projectId);
  const targets = (componentId: number) =>
    instance.translations.filter((t) => t.componentId === componentId && !t.isSource);
  const [keptComponent, doomedComponent] = components(kept!.id);
  const [thinned] = components(other!.id);
  const [, doomedTranslation] = targets(thinned!.id);
  const [edited] = targets(keptComponent!.id);
  const units = (translationId: number) =>
    instance.index.unitsByTranslation.get(translationId) ?? [];
  sim.mutate.editUnits(
    units(edited!.id)
      .slice(0, 5)
      .map((u) => u.id),
  );
  sim.mutate.deleteUnits(
    units(targets(thinned!.id)[0]!.id)
      .slice(0, 3)
      .map((u) => u.id),
  );
  sim.mutate.deleteTranslation(doomedTranslation!.id);
  sim.mutate.deleteComponent(doomedComponent!.id);
  sim.mutate.deleteProject(doomedProject!.id);
  const second = await syncSimulator(sim, handle, { full: true });
  expect([second.status, second.summary.rejected]).toEqual(['succeeded', 0]);
  const marked = await sql<{ table: string; deleted: number }>`
    select 'projects' as table, count(*) filter (where deleted_at is not null)::int as deleted from weblate.projects
    union all select 'components', count(*) filter (where deleted_at is not null)::int from weblate.components
    union all select 'translations', count(*) filter (where deleted_at is not null)::int from weblate.translations
    union all select 'units', count(*) filter (where deleted_at is not null)::int from weblate.units`.execute(
    handle.db,
  );
  for (const row of marked.rows) expect(row.deleted, row.table).toBeGreaterThan(0);
}

async function countRows(f: PackageFixture, relation: string): Promise<number> {
  const result = await sql<{
    n: number;
  }>`select count(*)::int as n from ${sql.raw(relation)}`.execute(f.handle.db);
  return result.rows[0]!.n;
}

const SOFT_DELETED = ['projects', 'components', 'translations', 'units'] as const;

describeDbtPackage({
  instance: {
    seed: 61,
    projects: 4,
    components: 9,
    languages: 3,
    units: 1200,
    changes: 800,
    users: 1,
    categoriesAndLabels: true,
    historyEndsAt: Date.now() - HOUR_MS,
  },
  afterFirstSync: deleteUpstream,
  onPostgres: (fixture) => {
    it('hides deleted rows in staging, and shows them with weblate_mirror_include_deleted', async () => {
      const f = fixture();
      for (const table of SOFT_DELETED) {
        const live = await countRows(f, `weblate.${table} where deleted_at is null`);
        expect(await countRows(f, `${PG_SCHEMA}.stg_weblate__${table}`), table).toBe(live);
      }
      const models = SOFT_DELETED.map((t) => `stg_weblate__${t}`);
      const run = await runDbt(f.tools, f.dir, ['run', '--target', 'pg', '--select', ...models], {
        vars: { weblate_mirror_include_deleted: true },
      });
      expect(run.code, run.output).toBe(0);
      for (const table of SOFT_DELETED)
        expect(await countRows(f, `${PG_SCHEMA}.stg_weblate__${table}`), table).toBe(
          await countRows(f, `weblate.${table}`),
        );
    });

    it('fails freshness once the newest succeeded sync is older than 48 hours', async () => {
      const f = fixture();
      const shift = (by: string) =>
        sql`update weblate.sync_runs set finished_at = finished_at + ${by}::interval,
                                         started_at = started_at + ${by}::interval`.execute(
          f.handle.db,
        );
      await shift('-49 hours');
      try {
        const result = await runDbt(f.tools, f.dir, ['source', 'freshness', '--target', 'pg']);
        expect(result.output).toMatch(/ERROR STALE freshness of weblate\.sync_runs/);
        expect(result.code).toBe(1);
      } finally {
        await shift('49 hours');
      }
    });
  },
});

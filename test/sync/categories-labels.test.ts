import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { SMALL_INSTANCE, useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { requestsAsked, syncSimulator } from '../helpers/sync.ts';

const HOUR = 3600;
// Fewer strings than SMALL_INSTANCE (about 120, some 25 of them labelled): the categories and
// labels are the projects' and components', and every sync below reads every unit again.
const mirror = useSimulatorMirror({
  ...SMALL_INSTANCE,
  seed: 83,
  units: 120,
  changes: 50,
  categoriesAndLabels: true,
});
const scoped = useTestDatabases();

/** A sync whose discovery lists are due hourly, as the worker's; `projects`: WEBLATE_PROJECTS. */
function syncHourly(
  sim: RunningSimulator,
  handle: DbHandle,
  full = false,
  projects: string[] | null = null,
) {
  return syncSimulator(sim, handle, { discoveryIntervalSeconds: HOUR, full, projects });
}

function expectedCategories(sim: RunningSimulator) {
  return sim.instance.categories.map((c) => ({
    id: c.id,
    project_id: c.projectId,
    project_slug: sim.instance.index.projectById.get(c.projectId)!.slug,
    slug: c.slug,
    name: c.name,
    parent_id: c.parentId,
    url: `${sim.url}api/categories/${c.id}/`,
  }));
}

function expectedLabels(sim: RunningSimulator) {
  return sim.instance.labels.map((l) => ({
    id: l.id,
    project_id: l.projectId,
    project_slug: sim.instance.index.projectById.get(l.projectId)!.slug,
    name: l.name,
    color: l.color,
    description: l.description,
  }));
}

/** Every unit's labels as [unit id, label id], ascending. */
function expectedUnitLabels(sim: RunningSimulator): Array<[string, number]> {
  return sim.instance.units.flatMap((u) =>
    (u.labelIds ?? []).map((id): [string, number] => [String(u.id), id]),
  );
}

async function liveCategories(handle: DbHandle) {
  return handle.db
    .selectFrom('weblate.categories')
    .select(['id', 'project_id', 'project_slug', 'slug', 'name', 'parent_id', 'url'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

async function liveLabels(handle: DbHandle) {
  return handle.db
    .selectFrom('weblate.labels')
    .select(['id', 'project_id', 'project_slug', 'name', 'color', 'description'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

/**
 * Links of live units, live ones or those a unit no longer carries, but for the units of
 * components `except`.
 */
async function unitLabels(
  handle: DbHandle,
  live: boolean,
  except: readonly number[] = [],
): Promise<Array<[string, number]>> {
  const result = await sql<{ unit: string; label_id: number }>`
    select ul.unit_id::text as unit, ul.label_id from weblate.unit_labels ul
    join weblate.units u on u.id = ul.unit_id and u.deleted_at is null
    join weblate.translations t on t.id = u.translation_id
    where (ul.deleted_at is null) = ${live}
      and not (t.component_id = any(${`{${except.join(',')}}`}::integer[]))
    order by ul.unit_id, ul.label_id`.execute(handle.db);
  return result.rows.map((r) => [r.unit, r.label_id]);
}

async function deletedCategories(handle: DbHandle): Promise<number[]> {
  const rows = await handle.db
    .selectFrom('weblate.categories')
    .select('id')
    .where('deleted_at', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

describe('categories and labels', () => {
  it('are mirrored exactly by a full sync, with the labels of every unit', async () => {
    const { sim, handle } = mirror;
    const first = await syncHourly(sim, handle);
    expect([first.mode, first.status, first.summary.rejected]).toEqual(['full', 'succeeded', 0]);
    expect(sim.instance.categories.some((c) => c.parentId !== null)).toBe(true);
    expect(await liveCategories(handle)).toEqual(expectedCategories(sim));
    expect(await liveLabels(handle)).toEqual(expectedLabels(sim));
    const links = expectedUnitLabels(sim);
    expect(links.length).toBeGreaterThan(5);
    expect(await unitLabels(handle, true)).toEqual(links);
    // Every project is in scope: one page of the global category list, each project's labels.
    expect(sim.requests.byPath.get('/api/categories/')).toBe(1);
    for (const project of sim.instance.projects)
      expect(sim.requests.byPath.get(`/api/projects/${project.slug}/labels/`)).toBe(1);
  });

  it('write no row in a second full sync, and cost one request in a quiet one', async () => {
    const { sim, handle } = mirror;
    const again = await syncHourly(sim, handle, true);
    expect([again.mode, again.status, again.summary.rowsWritten]).toEqual(['full', 'succeeded', 0]);
    const quiet = await syncHourly(sim, handle);
    expect([quiet.mode, requestsAsked(quiet), quiet.summary.rowsWritten]).toEqual([
      'incremental',
      1,
      0,
    ]);
  });

  it('follow labels added and removed and categories removed, from the changes between discoveries', async () => {
    const { sim, handle } = mirror;
    const labelled = sim.instance.units.find((u) => (u.labelIds ?? []).length > 0)!;
    const removed = labelled.labelIds![0]!;
    const plain = sim.instance.units.find(
      (u) =>
        u.labelIds === undefined &&
        sim.instance.index.translationById.get(u.translationId)!.isSource,
    )!;
    const projectId = sim.instance.index.componentById.get(
      sim.instance.index.translationById.get(plain.translationId)!.componentId,
    )!.projectId;
    const added = sim.instance.labels.find((l) => l.projectId === projectId)!.id;
    // A category with another inside it, and components in one of them.
    const parent = sim.instance.categories.find((c) => {
      const children = sim.instance.categories.filter((child) => child.parentId === c.id);
      const held = new Set([c.id, ...children.map((child) => child.id)]);
      return (
        children.length > 0 &&
        sim.instance.components.some((k) => k.categoryId != null && held.has(k.categoryId))
      );
    })!;
    sim.mutate.setUnitLabel(labelled.id, removed, false);
    sim.mutate.setUnitLabel(plain.id, added, true);
    const { categoryIds, componentIds } = sim.mutate.deleteCategory(parent.id);
    expect(categoryIds.length).toBeGreaterThan(1);
    expect(componentIds.length).toBeGreaterThan(0);
    const result = await syncHourly(sim, handle);
    expect([result.mode, result.status, result.summary.rejected]).toEqual([
      'incremental',
      'succeeded',
      0,
    ]);
    // The components removed with the categories are found by the next complete discovery.
    expect(await unitLabels(handle, true, componentIds)).toEqual(expectedUnitLabels(sim));
    expect(await unitLabels(handle, false)).toEqual([[String(labelled.id), removed]]);
    // Removed with the categories inside it, kept and marked.
    expect(await deletedCategories(handle)).toEqual([...categoryIds].sort((a, b) => a - b));
    expect(await liveCategories(handle)).toEqual(expectedCategories(sim));
    // Their components went with them (Weblate's category_removal), noticed by the next
    // complete discovery, and the live ones sit in the categories the server names.
    expect((await syncHourly(sim, handle, true)).status).toBe('succeeded');
    expect(await unitLabels(handle, true)).toEqual(expectedUnitLabels(sim));
    const components = await handle.db
      .selectFrom('weblate.components')
      .select(['id', 'category_id', 'deleted_at'])
      .orderBy('id')
      .execute();
    expect(components.filter((c) => c.deleted_at !== null).map((c) => c.id)).toEqual(
      [...componentIds].sort((a, b) => a - b),
    );
    expect(
      components.filter((c) => c.deleted_at === null).map((c) => [c.id, c.category_id]),
    ).toEqual(sim.instance.components.map((c) => [c.id, c.categoryId ?? null]));
    const kept = await handle.db
      .selectFrom('weblate.categories')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(kept.n)).toBe(sim.instance.categories.length + categoryIds.length);
  });

  it('marks the link of a label that comes back live again', async () => {
    const { sim, handle } = mirror;
    const [unitId, labelId] = (await unitLabels(handle, false))[0]!;
    sim.mutate.setUnitLabel(Number(unitId), labelId, true);
    const result = await syncHourly(sim, handle);
    expect(result.status).toBe('succeeded');
    expect(await unitLabels(handle, false)).toEqual([]);
    expect(await unitLabels(handle, true)).toEqual(expectedUnitLabels(sim));
  });
});

describe('categories and labels with WEBLATE_PROJECTS', () => {
  it('are read from each project in scope, and a removed category from its project again', async () => {
    const { sim } = mirror;
    const handle = await scoped.migrated();
    const project = sim.instance.projects[0]!;
    const inProject = (c: { projectId: number }) => c.projectId === project.id;
    const ofProject = (row: { project_id: number }) => row.project_id === project.id;
    const first = await syncHourly(sim, handle, false, [project.slug]);
    expect([first.mode, first.status, first.summary.rejected]).toEqual(['full', 'succeeded', 0]);
    expect(await liveCategories(handle)).toEqual(expectedCategories(sim).filter(ofProject));
    expect(await liveLabels(handle)).toEqual(expectedLabels(sim).filter(ofProject));
    const doomed = sim.instance.categories.find(inProject)!;
    const { categoryIds } = sim.mutate.deleteCategory(doomed.id);
    sim.requests.reset();
    const next = await syncHourly(sim, handle, false, [project.slug]);
    expect([next.mode, next.status]).toEqual(['incremental', 'succeeded']);
    // The project's change list names the project: only its category list is read again.
    expect(sim.requests.byPath.get(`/api/projects/${project.slug}/categories/`)).toBe(1);
    expect(sim.requests.byPath.has('/api/categories/')).toBe(false);
    const gone = await deletedCategories(handle);
    expect(gone).toEqual(expect.arrayContaining(categoryIds));
    expect(await liveCategories(handle)).toEqual(expectedCategories(sim).filter(ofProject));
  });

  it('are read from a Weblate 2026 server, its whole category record kept in raw', async () => {
    const { sim } = mirror;
    const handle = await scoped.migrated();
    sim.setCompat({ release: '2026' });
    try {
      const result = await syncHourly(sim, handle);
      expect([result.status, result.summary.rejected]).toEqual(['succeeded', 0]);
      expect(await liveCategories(handle)).toEqual(expectedCategories(sim));
      expect(await unitLabels(handle, true)).toEqual(expectedUnitLabels(sim));
      const raw = await sql<{ n: number }>`
        select count(*)::int as n from weblate.categories where raw ? 'effective_license'`.execute(
        handle.db,
      );
      expect(raw.rows[0]?.n).toBe(sim.instance.categories.length);
    } finally {
      sim.setCompat({});
    }
  });
});

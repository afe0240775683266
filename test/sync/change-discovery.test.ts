import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import type { SyncResult } from '../../src/sync/run-sync.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { requestsAsked, servedTargets, syncSimulator } from '../helpers/sync.ts';

// Between complete reads of the discovery lists (every WEBLATE_DISCOVERY_INTERVAL_SECONDS),
// an incremental sync discovers from the changes new to the mirror.

const HOUR = 3600;
const INSTANCE = {
  projects: 3,
  components: 3,
  languages: 3,
  units: 300,
  changes: 160,
  users: 1,
} as const;

const everything = useSimulatorMirror({ seed: 83, ...INSTANCE });
const scoped = useSimulatorMirror({ seed: 84, ...INSTANCE });
const databases = useTestDatabases();

interface SyncAt {
  projects?: string[] | null;
  /** Hours after now the run believes it is (a later run has its discovery due). */
  hoursLater?: number;
}

function syncHourly(sim: RunningSimulator, handle: DbHandle, at: SyncAt = {}): Promise<SyncResult> {
  const offsetMs = (at.hoursLater ?? 0) * HOUR * 1000;
  return syncSimulator(sim, handle, {
    discoveryIntervalSeconds: HOUR,
    projects: at.projects ?? null,
    now: () => new Date(Date.now() + offsetMs),
  });
}

function expectSucceeded(result: SyncResult, mode: SyncResult['mode']): void {
  expect([result.mode, result.status, result.error, result.summary.rejected]).toEqual([
    mode,
    'succeeded',
    null,
    0,
  ]);
}

async function liveness(handle: DbHandle, table: string, id: number): Promise<string> {
  const row = await sql<{ deleted: boolean }>`
    select deleted_at is not null as deleted from ${sql.table(`weblate.${table}`)} where id = ${id}`.execute(
    handle.db,
  );
  const found = row.rows[0];
  return found === undefined ? 'missing' : found.deleted ? 'deleted' : 'live';
}

/** The paths of the discovery lists a run read, with their request counts. */
function listsRead(sim: RunningSimulator): Record<string, number> {
  const lists = ['/api/languages/', '/api/projects/', '/api/components/', '/api/translations/'];
  return Object.fromEntries(
    lists.flatMap((p) => (sim.requests.byPath.has(p) ? [[p, sim.requests.byPath.get(p)!]] : [])),
  );
}

/** A mirror kept by incremental syncs equals a fresh full sync of the same scope. */
async function expectEqualToFresh(
  sim: RunningSimulator,
  kept: DbHandle,
  projects: string[] | null,
): Promise<void> {
  const fresh = await databases.migrated();
  const full = await syncSimulator(sim, fresh, { projects });
  expectSucceeded(full, 'full');
  const differences = compareMirrors(
    await snapshotMirror(kept.db),
    await snapshotMirror(fresh.db),
    (id) => !sim.instance.index.changeById.has(Number(id)),
  );
  expect(differences).toEqual([]);
}

describe('an incremental sync between discoveries, every project in scope', () => {
  it('costs one request on a quiet instance: the global change list', async () => {
    const { sim, handle } = everything;
    expectSucceeded(await syncHourly(sim, handle), 'full');
    sim.requests.reset();
    const quiet = await syncHourly(sim, handle);
    expectSucceeded(quiet, 'incremental');
    expect([requestsAsked(quiet), quiet.summary.rowsWritten]).toEqual([1, 0]);
    expect(servedTargets(sim, /^\/api\/changes\/(\?|$)/)).toHaveLength(1);
  });

  it('notices a new component, a new translation and a new language from the changes they log', async () => {
    const { sim, handle } = everything;
    const { instance } = sim;
    const project = instance.projects[0]!;
    const component = instance.components.find((c) => c.projectId === project.id)!;
    const { languageId } = sim.mutate.addLanguage('tlh', { name: 'Klingon' });
    const translation = sim.mutate.addTranslation(component.id, 'tlh');
    const added = sim.mutate.addComponent(project.id, 'fresh-docs', {
      strings: 4,
      languages: [instance.languages[1]!.code],
    });
    sim.requests.reset();
    const result = await syncHourly(sim, handle);
    expectSucceeded(result, 'incremental');
    // No complete list but the languages, which a translation in an unknown language asked for.
    expect(listsRead(sim)).toEqual({ '/api/languages/': 1 });
    expect(await liveness(handle, 'components', added.componentId)).toBe('live');
    for (const id of [...added.translationIds, translation.translationId])
      expect(await liveness(handle, 'translations', id)).toBe('live');
    const language = await sql<{ code: string }>`
      select code from weblate.languages where id = ${languageId}`.execute(handle.db);
    expect(language.rows).toEqual([{ code: 'tlh' }]);
    const units = await sql<{ n: number }>`
      select count(*)::int as n from weblate.units
      where deleted_at is null and id = any(${[...added.unitIds, ...translation.unitIds].map(String)}::bigint[])`.execute(
      handle.db,
    );
    expect(units.rows[0]!.n).toBe(added.unitIds.length + translation.unitIds.length);
    await expectEqualToFresh(sim, handle, null);
  });

  it('reads the project of a component created in a project new to the mirror', async () => {
    const { sim, handle } = everything;
    const { projectId } = sim.mutate.addProject('brand-new');
    const added = sim.mutate.addComponent(projectId, 'app', {
      strings: 3,
      languages: [sim.instance.languages[1]!.code],
    });
    sim.requests.reset();
    const result = await syncHourly(sim, handle);
    expectSucceeded(result, 'incremental');
    expect(listsRead(sim)).toEqual({});
    expect(servedTargets(sim, /^\/api\/projects\/brand-new\/(\?|$)/)).toHaveLength(1);
    expect(await liveness(handle, 'projects', projectId)).toBe('live');
    expect(await liveness(handle, 'components', added.componentId)).toBe('live');
    await expectEqualToFresh(sim, handle, null);
  });

  it('marks a removed translation at once, a removed component or project at the next scheduled discovery', async () => {
    const { sim, handle } = everything;
    const { instance } = sim;
    const doomedProject = instance.projects[2]!;
    const doomedComponent = instance.components.find(
      (c) => c.projectId === instance.projects[1]!.id,
    )!;
    const doomedTranslation = instance.translations.find(
      (t) =>
        !t.isSource &&
        t.componentId !== doomedComponent.id &&
        instance.index.componentById.get(t.componentId)?.projectId === instance.projects[0]!.id,
    )!;
    sim.mutate.deleteTranslation(doomedTranslation.id);
    sim.mutate.deleteComponent(doomedComponent.id);
    sim.mutate.deleteProject(doomedProject.id);
    sim.requests.reset();
    const soon = await syncHourly(sim, handle);
    expectSucceeded(soon, 'incremental');
    expect(listsRead(sim)).toEqual({});
    // Action 25 names the component: its translation list is read again.
    expect(await liveness(handle, 'translations', doomedTranslation.id)).toBe('deleted');
    // A component's removal is logged on its project, a project's nowhere: no change names them.
    expect(await liveness(handle, 'components', doomedComponent.id)).toBe('live');
    expect(await liveness(handle, 'projects', doomedProject.id)).toBe('live');
    sim.requests.reset();
    const later = await syncHourly(sim, handle, { hoursLater: 1.1 });
    expectSucceeded(later, 'incremental');
    expect(Object.keys(listsRead(sim))).toEqual([
      '/api/languages/',
      '/api/projects/',
      '/api/components/',
      '/api/translations/',
    ]);
    expect(await liveness(handle, 'components', doomedComponent.id)).toBe('deleted');
    expect(await liveness(handle, 'projects', doomedProject.id)).toBe('deleted');
    await expectEqualToFresh(sim, handle, null);
    // The discovery is recorded: the next sync, within the hour, lists nothing.
    sim.requests.reset();
    expectSucceeded(await syncHourly(sim, handle, { hoursLater: 1.2 }), 'incremental');
    expect(servedTargets(sim)).toHaveLength(1);
  });

  it('keeps what changes named pending through a failed run, and the next run discovers it', async () => {
    const { sim, handle } = everything;
    const project = sim.instance.projects[0]!;
    const added = sim.mutate.addComponent(project.id, 'crash-docs', {
      strings: 2,
      languages: [sim.instance.languages[1]!.code],
    });
    const list = new RegExp(`/api/components/${project.slug}/crash-docs/translations/`);
    // Every attempt the test client makes (3) at that component's translation list fails.
    const failing = sim.failNext(3, '500', list);
    const failed = await syncHourly(sim, handle, { hoursLater: 1.25 });
    expect([failed.mode, failed.status, failing.remaining]).toEqual(['incremental', 'failed', 0]);
    const pendingChanges = await sql<{ n: number }>`
      select count(*)::int as n from weblate.sync_pending where kind = 'change'`.execute(handle.db);
    expect(pendingChanges.rows[0]!.n).toBe(added.changeIds.length);
    // The changes are mirrored now: only the pending list says what is left to discover.
    const next = await syncHourly(sim, handle, { hoursLater: 1.25 });
    expectSucceeded(next, 'incremental');
    expect(await liveness(handle, 'components', added.componentId)).toBe('live');
    for (const id of added.translationIds)
      expect(await liveness(handle, 'translations', id)).toBe('live');
    await expectEqualToFresh(sim, handle, null);
  });

  it('ends equal to a fresh full sync after edits, additions and removals of strings', async () => {
    const { sim, handle } = everything;
    const { instance } = sim;
    const translated = instance.units.filter((u) => u.state === 20).slice(0, 12);
    sim.mutate.editUnits(translated.map((u) => u.id));
    sim.mutate.bulkEditStates(
      instance.units
        .filter((u) => u.state === 0)
        .slice(0, 5)
        .map((u) => u.id),
      10,
    );
    sim.mutate.addUnits(instance.components[0]!.id, 3);
    const source = instance.translations.find((t) => t.isSource)!;
    sim.mutate.deleteUnits(
      (instance.index.unitsByTranslation.get(source.id) ?? []).slice(0, 1).map((u) => u.id),
    );
    sim.requests.reset();
    expectSucceeded(await syncHourly(sim, handle, { hoursLater: 1.3 }), 'incremental');
    expect(listsRead(sim)).toEqual({});
    await expectEqualToFresh(sim, handle, null);
  });
});

describe('an incremental sync between discoveries, with WEBLATE_PROJECTS', () => {
  it('reads one change list per project when quiet, and ends equal to a fresh full sync after changes', async () => {
    const { sim, handle } = scoped;
    const { instance } = sim;
    const slugs = instance.projects.slice(0, 2).map((p) => p.slug);
    expectSucceeded(await syncHourly(sim, handle, { projects: slugs }), 'full');
    sim.requests.reset();
    const quiet = await syncHourly(sim, handle, { projects: slugs });
    expectSucceeded(quiet, 'incremental');
    expect(requestsAsked(quiet)).toBe(slugs.length);
    const inScope = instance.projects[0]!;
    const component = instance.components.find((c) => c.projectId === inScope.id)!;
    sim.mutate.addLanguage('tlh');
    sim.mutate.addTranslation(component.id, 'tlh');
    sim.mutate.addComponent(inScope.id, 'scoped-new', {
      strings: 2,
      languages: [instance.languages[1]!.code],
    });
    sim.mutate.editUnits(
      instance.units
        .filter((u) => u.state === 20)
        .slice(0, 20)
        .map((u) => u.id),
    );
    sim.requests.reset();
    expectSucceeded(await syncHourly(sim, handle, { projects: slugs }), 'incremental');
    expect(sim.requests.byPath.has('/api/projects/')).toBe(false);
    await expectEqualToFresh(sim, handle, slugs);
    // A scope that changed reads the lists again at once.
    sim.requests.reset();
    expectSucceeded(await syncHourly(sim, handle, { projects: slugs.slice(0, 1) }), 'incremental');
    expect(servedTargets(sim, new RegExp(`^/api/projects/${slugs[0]}/(\\?|$)`))).toHaveLength(1);
  });

  it('moves to the global change list from the earliest mark of its projects when the scope opens up', async () => {
    const { sim, handle } = scoped;
    const every = sim.instance.projects.map((p) => p.slug);
    expectSucceeded(await syncHourly(sim, handle, { projects: every }), 'incremental');
    sim.requests.reset();
    const opened = await syncHourly(sim, handle);
    expectSucceeded(opened, 'incremental');
    // One page, bounded below: the history every project's list already gave is not read again.
    const reads = servedTargets(sim, /^\/api\/changes\/\?/);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain('timestamp_after=');
    // Equal to a fresh sync of every project, except that the changes a project's list gave
    // keep their project where the global list names none (a user added to a project, …).
    const fresh = await databases.migrated();
    expectSucceeded(await syncSimulator(sim, fresh), 'full');
    const kept = await snapshotMirror(handle.db);
    const projectLevel = await sql<{ id: string; slug: string }>`
      select id::text as id, project_slug as slug from weblate.changes
      where component_url is null and translation_url is null`.execute(handle.db);
    expect(projectLevel.rows.length).toBeGreaterThan(0);
    for (const { id, slug } of projectLevel.rows) {
      expect(slug).not.toBeNull();
      const row = kept.changes.get(id)!;
      kept.changes.set(
        id,
        row.replace(`"project_slug": ${JSON.stringify(slug)}`, '"project_slug": null'),
      );
    }
    expect(
      compareMirrors(
        kept,
        await snapshotMirror(fresh.db),
        (id) => !sim.instance.index.changeById.has(Number(id)),
      ),
    ).toEqual([]);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { parseJsonLossless } from '../../src/lib/json.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import type { SyncResult } from '../../src/sync/run-sync.ts';
import { createTestClient } from '../helpers/client.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { startRewritingProxy } from '../helpers/proxy.ts';
import { servedAt, subscribedUsers, syncAsWriter, syncSimulator } from '../helpers/sync.ts';

let sim: RunningSimulator;
const databases = useTestDatabases();
let handle: DbHandle;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 61,
    projects: 4,
    components: 9,
    languages: 3,
    units: 360,
    changes: 160,
    users: 1,
  });
  handle = await databases.migrated();
  const first = await syncSimulator(sim, handle);
  expect([first.status, first.summary.rejected]).toEqual(['succeeded', 0]);
});

afterAll(async () => {
  await sim.close();
});

type Json = { [key: string]: unknown };

/** Rewrites the record with `id` in a list body (found by its parsed id, not its text). */
function rewriteRecord(body: string, id: number, edit: (record: Json) => Json): string {
  const texts = parseJsonLossless(body).resultTexts ?? [];
  const text = texts.find((t) => (JSON.parse(t) as Json).id === id);
  return text === undefined
    ? body
    : body.replace(text, JSON.stringify(edit(JSON.parse(text) as Json)));
}

/** Edits, per list (`projects`, `components`, `translations`), of records by id. */
type Edits = Partial<Record<string, Array<[number, (record: Json) => Json]>>>;

/** One sync of every project through a proxy that applies `edits` to the global lists. */
async function syncEditing(edits: Edits): Promise<SyncResult> {
  const proxy = await startRewritingProxy(sim.url, (path, body) => {
    const list = /^\/api\/(projects|components|translations)\/\?/.exec(path)?.[1];
    const forList = list === undefined ? [] : (edits[list] ?? []);
    return forList.reduce((text, [id, edit]) => rewriteRecord(text, id, edit), body);
  });
  try {
    await servedAt(handle, proxy.url);
    return await syncAsWriter(handle, {
      log: captureLogger().log,
      scope: { projects: null, users: subscribedUsers(sim) },
      client: () => createTestClient(proxy.url),
    });
  } finally {
    await servedAt(handle, sim.url);
    await proxy.close();
  }
}

function withoutId(record: Json): Json {
  const copy = { ...record };
  delete copy.id;
  return copy;
}

async function deletedIds(table: string, db = handle.db): Promise<number[]> {
  const result = await sql<{ id: string }>`
    select id from ${sql.table(`weblate.${table}`)} where deleted_at is not null order by id`.execute(
    db,
  );
  return result.rows.map((r) => Number(r.id));
}

async function isDeleted(table: string, id: number, db = handle.db): Promise<boolean | null> {
  const result = await sql<{ deleted: boolean }>`
    select deleted_at is not null as deleted from ${sql.table(`weblate.${table}`)} where id = ${id}`.execute(
    db,
  );
  return result.rows[0]?.deleted ?? null;
}

async function rejectedOf(runId: number): Promise<Array<{ resource: string; reason: string }>> {
  const result = await sql<{ resource: string; reason: string }>`
    select resource, reason from weblate.rejected_records where run_id = ${runId} order by id`.execute(
    handle.db,
  );
  return result.rows;
}

/** Live and deleted units of these translations in the mirror. */
async function unitStates(translationIds: number[]): Promise<{ live: number; deleted: number }> {
  const result = await sql<{ live: number; deleted: number }>`
    select count(*) filter (where deleted_at is null)::int as live,
      count(*) filter (where deleted_at is not null)::int as deleted
    from weblate.units where translation_id = any(${`{${translationIds.join(',')}}`}::bigint[])`.execute(
    handle.db,
  );
  return result.rows[0]!;
}

function simUnitsOf(translationIds: number[]): number {
  return translationIds.reduce(
    (n, id) => n + (sim.instance.index.unitsByTranslation.get(id)?.length ?? 0),
    0,
  );
}

async function expectCleanSync(): Promise<SyncResult> {
  const next = await syncSimulator(sim, handle);
  expect([next.status, next.error, next.summary.rejected, next.summary.warnings]).toEqual([
    'succeeded',
    null,
    0,
    [],
  ]);
  return next;
}

describe('a record of a discovery list that the mirror rejects', () => {
  it('never marks its object, or what the object contains, deleted', async () => {
    const { instance } = sim;
    const project = instance.projects[0]!;
    const component = instance.components.find((c) => c.projectId !== project.id)!;
    const projectOf = (componentId: number) =>
      instance.index.componentById.get(componentId)!.projectId;
    const translation = instance.translations.find(
      (t) =>
        !t.isSource && t.componentId !== component.id && projectOf(t.componentId) !== project.id,
    )!;
    const result = await syncEditing({
      projects: [[project.id, (r) => ({ ...r, name: 42 })]],
      components: [[component.id, (r) => ({ ...r, name: 42 })]],
      translations: [[translation.id, (r) => ({ ...r, last_change: 'yesterday' })]],
    });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const rejected = await rejectedOf(result.runId);
    expect(rejected.map((r) => r.resource)).toEqual(['projects', 'components', 'translations']);
    expect(rejected[0]!.reason).toContain(`(id ${project.id}): field "name"`);
    // Nothing was deleted upstream: nothing is marked, not even below the rejected objects.
    for (const table of ['projects', 'components', 'translations', 'units'])
      expect(await deletedIds(table), table).toEqual([]);
    await expectCleanSync();
  });

  it('without a usable id stops its list from marking anything deleted in that run', async () => {
    const { instance } = sim;
    const [, kept, doomed] = instance.projects;
    const component = instance.components.find(
      (c) => c.projectId !== kept!.id && c.projectId !== doomed!.id,
    )!;
    const [keptTranslation, doomedTranslation] = instance.translations.filter(
      (t) => !t.isSource && t.componentId === component.id,
    );
    sim.mutate.deleteProject(doomed!.id);
    sim.mutate.deleteTranslation(doomedTranslation!.id);
    const result = await syncEditing({
      projects: [[kept!.id, withoutId]],
      translations: [[keptTranslation!.id, withoutId]],
    });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    expect(await deletedIds('projects')).toEqual([]);
    expect(result.summary.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^record \d+ of http:\/\/127\.0\.0\.1:\d+\/api\/projects\/\?page_size=1000 has no usable id: nothing that list lacks is marked deleted in this run$/,
        ),
        expect.stringMatching(/\/api\/translations\/\?page_size=1000 has no usable id: /),
      ]),
    );
    expect(await isDeleted('translations', keptTranslation!.id)).toBe(false);
    expect(await isDeleted('translations', doomedTranslation!.id)).toBe(false);
    // A complete list without such a record marks what went away.
    await expectCleanSync();
    expect(await deletedIds('projects')).toEqual([doomed!.id]);
    expect(await isDeleted('translations', doomedTranslation!.id)).toBe(true);
    expect(await isDeleted('translations', keptTranslation!.id)).toBe(false);
  });
});

describe('a discovery list that changes while it is read', () => {
  it('marks nothing it lacks deleted in that run; the next complete read does', async () => {
    const { instance } = sim;
    const live = instance.translations.filter((t) => !t.isSource);
    // The first translation goes once the list's first page has been served: every record
    // after it moves up a place, and the record at each page's start falls onto the page before.
    const doomed = live[0]!;
    const shifted = live.slice(1).map((t) => t.id);
    let deleted = false;
    const proxy = await startRewritingProxy(sim.url, (path, body) => {
      if (!deleted && /^\/api\/translations\/\?/.test(path) && !path.includes('page=')) {
        sim.mutate.deleteTranslation(doomed.id);
        deleted = true;
      }
      return body;
    });
    let result: SyncResult;
    try {
      await servedAt(handle, proxy.url);
      result = await syncAsWriter(handle, {
        log: captureLogger().log,
        scope: { projects: null, users: [] },
        client: () => createTestClient(proxy.url, { maxPageSize: 4 }),
      });
    } finally {
      await servedAt(handle, sim.url);
      await proxy.close();
    }
    expect([result.status, result.error, deleted]).toEqual(['succeeded', null, true]);
    expect(result.summary.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^the list changed while it was read \(http:\/\/127\.0\.0\.1:\d+\/api\/translations\/\?\S*page=\d+\S* counted \d+ records where http:\/\/127\.0\.0\.1:\d+\/api\/translations\/\?page_size=4 counted \d+\): nothing that list lacks is marked deleted in this run$/,
        ),
      ]),
    );
    // Read by links or by numbers, a record that moved onto a page already read was not
    // seen: no translation is marked deleted on such a list's word (the doomed one may be,
    // on its own 404).
    for (const id of shifted)
      expect(await isDeleted('translations', id), `translation ${id}`).toBe(false);
    await expectCleanSync();
    expect(await isDeleted('translations', doomed.id)).toBe(true);
    for (const id of shifted) expect(await isDeleted('translations', id)).toBe(false);
  });
});

describe('an object created again under the natural key of a deleted one', () => {
  it('is mirrored in the same sync, and the old one is marked deleted keeping its history', async () => {
    const { instance } = sim;
    const old = instance.projects[1]!;
    const oldComponents = instance.components.filter((c) => c.projectId === old.id);
    const oldTranslations = instance.translations.filter((t) =>
      oldComponents.some((c) => c.id === t.componentId),
    );
    const history = await sql<{ id: string }>`
      select id from weblate.changes where project_slug = ${old.slug}`.execute(handle.db);
    expect(history.rows.length).toBeGreaterThan(0);
    const codeOf = (languageId: number) => instance.index.languageById.get(languageId)!.code;
    const targets = instance.languages.slice(1, 3).map((l) => l.code);

    sim.mutate.deleteProject(old.id);
    const project = sim.mutate.addProject(old.slug, { name: old.name });
    const inProject = sim.mutate.addComponent(project.projectId, oldComponents[0]!.slug, {
      strings: 4,
      languages: targets,
    });
    // A component of another project, and a translation of a third component, likewise.
    const other = instance.projects[0]!;
    const [replacedComponent, keptComponent] = instance.components.filter(
      (c) => c.projectId === other.id,
    );
    const replacedTranslations = instance.translations
      .filter((t) => t.componentId === replacedComponent!.id)
      .map((t) => t.id);
    sim.mutate.deleteComponent(replacedComponent!.id);
    const component = sim.mutate.addComponent(other.id, replacedComponent!.slug, {
      strings: 3,
      languages: targets,
    });
    const replacedTranslation = instance.translations.find(
      (t) => !t.isSource && t.componentId === keptComponent!.id,
    )!;
    sim.mutate.deleteTranslation(replacedTranslation.id);
    const translation = sim.mutate.addTranslation(
      keptComponent!.id,
      codeOf(replacedTranslation.languageId),
    );

    const result = await syncSimulator(sim, handle);
    expect([result.mode, result.status, result.error]).toEqual(['incremental', 'succeeded', null]);
    expect(await rejectedOf(result.runId)).toEqual([]);
    expect(result.summary.warnings).toEqual([]);
    // The new objects are live, with their units.
    expect(await isDeleted('projects', project.projectId)).toBe(false);
    for (const id of [inProject.componentId, component.componentId])
      expect(await isDeleted('components', id)).toBe(false);
    const created = [...inProject.translationIds, ...component.translationIds];
    created.push(translation.translationId);
    for (const id of created) expect(await isDeleted('translations', id)).toBe(false);
    expect(await unitStates(created)).toEqual({ live: simUnitsOf(created), deleted: 0 });
    // The old ones are marked deleted, with everything in them; their history stays.
    expect(await isDeleted('projects', old.id)).toBe(true);
    for (const { id } of [...oldComponents, replacedComponent!])
      expect(await isDeleted('components', id)).toBe(true);
    const gone = [...oldTranslations.map((t) => t.id), ...replacedTranslations];
    gone.push(replacedTranslation.id);
    for (const id of gone) expect(await isDeleted('translations', id)).toBe(true);
    expect((await unitStates(gone)).live).toBe(0);
    const kept = await sql<{ n: number }>`
      select count(*)::int as n from weblate.changes
      where id = any(${`{${history.rows.map((r) => r.id).join(',')}}`}::bigint[])`.execute(
      handle.db,
    );
    expect(kept.rows[0]!.n).toBe(history.rows.length);

    await expectCleanSync();
    const fresh = await databases.migrated();
    expect((await syncSimulator(sim, fresh)).status).toBe('succeeded');
    const differences = compareMirrors(
      await snapshotMirror(handle.db),
      await snapshotMirror(fresh.db),
      (id) => !instance.index.changeById.has(Number(id)),
    );
    expect(differences).toEqual([]);
  });
});

describe('an object deleted while a sync limited to some projects walks', () => {
  let scoped: DbHandle;

  beforeAll(async () => {
    scoped = await databases.migrated();
  });

  function listPath(path: string): RegExp {
    return new RegExp(`^/api/${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?`);
  }

  it('is marked deleted when its component list answers 404, and the next sync is clean', async () => {
    const { instance } = sim;
    const project = instance.projects[0]!;
    const component = instance.components.find((c) => c.projectId === project.id)!;
    const trigger = sim.at(
      { match: listPath(`components/${project.slug}/${component.slug}/translations/`) },
      () => sim.mutate.deleteComponent(component.id),
    );
    const result = await syncSimulator(sim, scoped, { projects: [project.slug] });
    expect(trigger.fired).toBe(true);
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    expect(result.summary.warnings).toContain(
      `component ${project.slug}/${component.slug} answers 404: marked deleted (its history stays in the mirror)`,
    );
    // The component list of this run wrote it; its translation list found it gone.
    expect(await isDeleted('components', component.id, scoped.db)).toBe(true);
    const next = await syncSimulator(sim, scoped, { projects: [project.slug] });
    expect([next.status, next.error, next.summary.rejected, next.summary.warnings]).toEqual([
      'succeeded',
      null,
      0,
      [],
    ]);
  });

  it('is marked deleted, with its components, when its project list answers 404', async () => {
    const { instance } = sim;
    const [kept, doomed] = instance.projects;
    const trigger = sim.at({ match: listPath(`projects/${doomed!.slug}/components/`) }, () =>
      sim.mutate.deleteProject(doomed!.id),
    );
    const result = await syncSimulator(sim, scoped, { projects: [kept!.slug, doomed!.slug] });
    expect(trigger.fired).toBe(true);
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    expect(result.summary.warnings).toContain(
      `project ${doomed!.slug} answers 404: marked deleted (its history stays in the mirror)`,
    );
    expect(await isDeleted('projects', doomed!.id, scoped.db)).toBe(true);
    expect(await isDeleted('projects', kept!.id, scoped.db)).toBe(false);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';

import {
  ACTION_NAMES,
  createMutator,
  DEFAULT_SIZE,
  formatInstant,
  generateInstance,
  hashToChecksum,
  type Mutator,
  parseInstant,
  type SimInstance,
  type SimUnit,
} from '../../src/simulator/index.ts';
import { fillAutomatically } from '../../src/simulator/machine-fills.ts';
import { BASE, expectConsistent, get, type Json, translationKey, walk } from './consistency.ts';

const START = Date.UTC(2026, 10, 22, 11, 0, 0);
// The default shape at a tenth of its strings and history: every mechanism shows as well,
// and each test's consistency check (which serves the whole instance) costs a tenth.
const pristine = generateInstance({ ...DEFAULT_SIZE, units: 2000, changes: 1000, seed: 5 });

let instance: SimInstance;
let mutate: Mutator;
let clock: number;

beforeEach(() => {
  // A fresh copy per test: structuredClone keeps Maps, bigint and shared references.
  instance = structuredClone(pristine);
  clock = START;
  mutate = createMutator(instance, () => clock);
});

function tick(seconds = 1): void {
  clock += seconds * 1000;
}

function targetUnits(predicate: (unit: SimUnit) => boolean, count: number): SimUnit[] {
  const sources = new Set(instance.translations.filter((t) => t.isSource).map((t) => t.id));
  return instance.units
    .filter((u) => !sources.has(u.translationId) && predicate(u))
    .slice(0, count);
}

function changesOf(path: string): Json[] {
  return walk(instance, `${path}?page_size=1000`).results;
}

function usOf(ms: number): number {
  return ms * 1000;
}

describe('editUnits', () => {
  it('saves targets, moves last_updated and records 2 or 5 with the new target', () => {
    const [translated, empty] = [
      targetUnits((u) => u.state === 20, 1)[0]!,
      targetUnits((u) => u.state === 0, 1)[0]!,
    ];
    const translation = instance.index.translationById.get(translated.translationId)!;
    const revision = translation.revision;
    tick();
    const result = mutate.editUnits([translated.id, empty.id], { target: 'Nový text' });
    expect(result.unitIds).toEqual([translated.id, empty.id]);
    const changes = result.changeIds.map((id) => get(instance, `api/changes/${id}/`).body);
    expect(changes.map((c) => c.action)).toEqual([2, 5]);
    expect(changes[0]).toMatchObject({
      target: 'Nový text',
      unit: `${BASE}api/units/${translated.id}/`,
      user: `${BASE}api/users/alice/`,
    });
    const unit = get(instance, `api/units/${translated.id}/`).body;
    expect(unit).toMatchObject({
      state: 20,
      translated: true,
      last_updated: changes[0]!.timestamp,
    });
    expect(translated.lastUpdatedUs).toBe(usOf(clock));
    expect(String(unit.last_updated)).toMatch(/\.000000(Z|[+-]\d\d:\d\d)$/);
    expect(translation.revision).not.toBe(revision);
    expect(translation.revision).toMatch(/^[0-9a-f]{40}(,[0-9a-f]{40})?$/);
    const record = get(instance, `api/translations/${translationKey(instance, translation)}/`);
    // Both changes share the instant (the clock stands still); the later id wins the tie.
    expect(parseInstant(String(record.body.last_change))).toBe(usOf(clock));
    const q = encodeURIComponent(`last_changed:>=${formatInstant(usOf(clock), null)}`);
    const found = walk(instance, `api/units/?q=${q}`).results.map((u) => u.id);
    expect(found).toEqual([translated.id, empty.id].sort((a, b) => a - b));
    expectConsistent(instance);
  });

  it('refuses source strings and unknown ids', () => {
    const source = instance.units.find((u) => u.state === 100)!;
    expect(() => mutate.editUnits([source.id])).toThrow(/source string/);
    expect(() => mutate.editUnits([999_999_999])).toThrow(/unknown unit/);
  });
});

describe('fillAutomatically', () => {
  it('fills six empty strings per translation, then edits two, approves one and leaves three', () => {
    const filled = fillAutomatically({ instance, mutate }, 3);
    const units = filled.map((id) => instance.units.find((u) => u.id === id)!);
    const byTranslation = new Map<number, SimUnit[]>();
    for (const u of units)
      byTranslation.set(u.translationId, [...(byTranslation.get(u.translationId) ?? []), u]);
    expect([...byTranslation.values()].map((group) => group.length)).toEqual([6, 6, 6]);
    for (const group of byTranslation.values()) {
      expect(group.map((u) => [u.state, u.target[0]])).toEqual([
        [20, 'Übersetzung von Hand'],
        [20, 'Übersetzung von Hand'],
        [30, 'Maschinelle Übersetzung'],
        [10, 'Maschinelle Übersetzung'],
        [10, 'Maschinelle Übersetzung'],
        [10, 'Maschinelle Übersetzung'],
      ]);
      const fills = instance.changes.filter(
        (c) => c.action === 6 && group.some((u) => u.id === c.unitId),
      );
      expect(fills).toHaveLength(6);
    }
    expectConsistent(instance);
  });
});

describe('bulkEditStates', () => {
  it('changes states without moving last_updated and records action 32 per unit', () => {
    const units = targetUnits((u) => u.state === 20, 5);
    const empty = targetUnits((u) => u.state === 0, 1)[0]!;
    const before = units.map((u) => u.lastUpdated);
    tick();
    const result = mutate.bulkEditStates([...units.map((u) => u.id), empty.id], 10);
    expect(result.unitIds).toEqual(units.map((u) => u.id));
    expect(result.skippedUnitIds).toEqual([empty.id]);
    for (const [i, unit] of units.entries()) {
      const body = get(instance, `api/units/${unit.id}/`).body;
      expect(body).toMatchObject({ state: 10, fuzzy: true, last_updated: before[i] });
    }
    const changes = result.changeIds.map((id) => get(instance, `api/changes/${id}/`).body);
    expect(changes.map((c) => [c.action, c.action_name, c.unit])).toEqual(
      units.map((u) => [32, 'Bulk status changed', `${BASE}api/units/${u.id}/`]),
    );
    // Invisible to last_changed, visible in the changes feed.
    const q = encodeURIComponent(`last_changed:>=${formatInstant(usOf(clock), null)}`);
    expect(get(instance, `api/units/?q=${q}`).body.count).toBe(0);
    const after = encodeURIComponent(String(changes[0]!.timestamp));
    const feed = get(instance, `api/changes/?action=32&timestamp_after=${after}`);
    expect(feed.body.count).toBe(5);
    expectConsistent(instance);
  });
});

describe('renameTemplate and updateUnitsSilently', () => {
  it('turn fuzzy strings translated and renumber positions without a change or a new last_updated', () => {
    const component = instance.components.find(
      (c) =>
        c.template !== '' &&
        instance.index.translationsByComponent
          .get(c.id)!
          .some((t) => instance.index.unitsByTranslation.get(t.id)!.some((u) => u.state === 10)),
    )!;
    const translations = instance.index.translationsByComponent.get(component.id)!;
    const unitsOf = (id: number) => instance.index.unitsByTranslation.get(id)!;
    const fuzzy = translations.flatMap((t) => unitsOf(t.id).filter((u) => u.state === 10));
    const needsEditing = translations.flatMap((t) => unitsOf(t.id).filter((u) => u.state === 11));
    const key = (t: (typeof translations)[number]) =>
      `api/translations/${translationKey(instance, t)}/`;
    const before = translations.map((t) => get(instance, key(t)).body);
    const updated = fuzzy.map((u) => u.lastUpdated);
    const changes = instance.changes.length;
    const template = component.template;
    tick();
    const result = mutate.renameTemplate(component.id, `renamed/${template}`);
    expect(result.unitIds).toEqual(fuzzy.map((u) => u.id).sort((a, b) => a - b));
    for (const [i, unit] of fuzzy.entries()) {
      expect(get(instance, `api/units/${unit.id}/`).body).toMatchObject({
        state: 20,
        fuzzy: false,
        translated: true,
        last_updated: updated[i],
      });
    }
    // Only state 10: the other "needs editing" states stay.
    expect(needsEditing.every((u) => u.state === 11)).toBe(true);
    expect(instance.changes.length).toBe(changes);
    const q = encodeURIComponent(`last_changed:>=${formatInstant(usOf(clock), null)}`);
    expect(get(instance, `api/units/?q=${q}`).body.count).toBe(0);
    // Counts move; last_change and revision do not; the component shows its new template.
    for (const [i, translation] of translations.entries()) {
      const after = get(instance, key(translation)).body;
      const moved = fuzzy.filter((u) => u.translationId === translation.id).length;
      expect(after.fuzzy).toBe((before[i]!.fuzzy as number) - moved);
      expect(after.translated).toBe((before[i]!.translated as number) + moved);
      expect([after.last_change, after.revision]).toEqual([
        before[i]!.last_change,
        before[i]!.revision,
      ]);
    }
    const project = instance.index.projectById.get(component.projectId)!;
    expect(get(instance, `api/components/${project.slug}/${component.slug}/`).body).toMatchObject({
      template: `renamed/${template}`,
    });
    const source = translations.find((t) => t.isSource)!;
    expect(get(instance, key(source)).body.filename).toBe(`renamed/${template}`);

    const [first, second] = unitsOf(translations.find((t) => !t.isSource)!.id);
    const position = first!.position;
    const renumbered = mutate.updateUnitsSilently(
      new Map([
        [first!.id, { position: position + 100 }],
        [second!.id, { position: second!.position }],
      ]),
    );
    expect(renumbered.unitIds).toEqual([first!.id]);
    expect(get(instance, `api/units/${first!.id}/`).body).toMatchObject({
      position: position + 100,
      last_updated: first!.lastUpdated,
    });
    expect(instance.changes.length).toBe(changes);
    expectConsistent(instance);
  });

  it('refuses a bilingual component and a name that is not new', () => {
    const bilingual = instance.components.find((c) => c.template === '')!;
    expect(() => mutate.renameTemplate(bilingual.id, 'x.pot')).toThrow(/bilingual/);
    const monolingual = instance.components.find((c) => c.template !== '')!;
    expect(() => mutate.renameTemplate(monolingual.id, monolingual.template)).toThrow(
      /not a new name/,
    );
  });
});

describe('addUnits', () => {
  it('adds a string to every translation of the component with new ascending ids', () => {
    const component = instance.components.find((c) => c.template !== '')!;
    const translations = instance.index.translationsByComponent.get(component.id)!;
    const maxId = instance.units.at(-1)!.id;
    const counts = translations.map((t) => instance.index.unitsByTranslation.get(t.id)!.length);
    tick();
    const result = mutate.addUnits(component.id, 2);
    expect(result.sourceUnitIds).toHaveLength(2);
    expect(result.unitIds).toHaveLength(2 * translations.length);
    expect(Math.min(...result.unitIds)).toBeGreaterThan(maxId);
    translations.forEach((t, i) => {
      expect(instance.index.unitsByTranslation.get(t.id)!.length).toBe(counts[i]! + 2);
    });
    const source = get(instance, `api/units/${result.sourceUnitIds[0]!}/`).body;
    const target = instance.units.find(
      (u) => u.sourceUnitId === result.sourceUnitIds[0] && u.id !== result.sourceUnitIds[0],
    )!;
    const rendered = get(instance, `api/units/${target.id}/`).body;
    expect(source).toMatchObject({ state: 100, target: source.source });
    expect(rendered).toMatchObject({
      state: 0,
      id_hash: source.id_hash,
      content_hash: source.content_hash,
      source_unit: `${BASE}api/units/${result.sourceUnitIds[0]!}/`,
      timestamp: rendered.last_updated,
    });
    expect(String(rendered.web_url)).toContain(`?checksum=${hashToChecksum(target.idHash)}`);
    const positions = instance.index.unitsByTranslation.get(target.translationId)!;
    expect(positions.at(-1)!.position).toBe(positions.at(-3)!.position + 2);
    const actions = result.changeIds.map((id) => instance.index.changeById.get(id)!.action);
    expect(actions.filter((a) => a === 13)).toHaveLength(2);
    expect(actions.filter((a) => a === 31)).toHaveLength(2 * (translations.length - 1));
    expectConsistent(instance);
  });
});

describe('deleteUnits', () => {
  it('removes the string from every translation, with its changes, and records 63', () => {
    const changed = instance.changes.find((c) => c.unitId !== null && c.action === 2)!;
    const unit = instance.index.unitById.get(changed.unitId!)!;
    const siblings = instance.units.filter((u) => u.sourceUnitId === unit.sourceUnitId);
    const doomedChanges = instance.changes.filter((c) => siblings.some((s) => s.id === c.unitId));
    const translation = instance.index.translationById.get(unit.translationId)!;
    const key = translationKey(instance, translation);
    const before = get(instance, `api/translations/${key}/`).body.total as number;
    tick();
    const result = mutate.deleteUnits([unit.id]);
    expect(result.unitIds).toEqual(siblings.map((s) => s.id));
    expect(result.removedChangeIds.sort((a, b) => a - b)).toEqual(doomedChanges.map((c) => c.id));
    for (const sibling of siblings)
      expect(get(instance, `api/units/${sibling.id}/`).status).toBe(404);
    expect(get(instance, `api/changes/${changed.id}/`).status).toBe(404);
    expect(get(instance, `api/translations/${key}/`).body.total).toBe(before - 1);
    const everywhere = [
      ...changesOf('api/changes/'),
      ...changesOf(`api/translations/${key}/changes/`),
      ...changesOf(`api/projects/${key.split('/')[0]!}/changes/`),
    ];
    expect(everywhere.some((c) => c.id === changed.id)).toBe(false);
    const removal = get(instance, `api/changes/${result.changeIds[0]!}/`).body;
    expect(removal).toMatchObject({
      action: 63,
      unit: null,
      translation: `${BASE}api/translations/${key}/`,
    });
    expectConsistent(instance);
  });
});

describe('addChanges', () => {
  it('adds comments, optionally backdated behind newer changes', () => {
    const translation = instance.translations.find((t) => !t.isSource)!;
    const key = translationKey(instance, translation);
    tick(600);
    const fresh = mutate.addChanges(translation.id, 2);
    const late = mutate.addChanges(translation.id, 1, { backdate: 300 });
    const newest = get(instance, `api/translations/${key}/changes/?page_size=3`).body
      .results as Json[];
    expect(newest.map((c) => c.id)).toEqual([
      fresh.changeIds[1],
      fresh.changeIds[0],
      late.changeIds[0],
    ]);
    expect(newest[2]).toMatchObject({ action: 3, action_name: ACTION_NAMES.get(3) });
    expect(instance.index.changeById.get(late.changeIds[0]!)!.timestampUs).toBe(
      usOf(clock - 300_000),
    );
    expect(late.changeIds[0]).toBeGreaterThan(fresh.changeIds[1]!);
    expectConsistent(instance);
  });
});

describe('deleting and adding catalog objects', () => {
  it('deletes a translation with its units and changes and records 25 on the component', () => {
    const translation = instance.translations.find(
      (t) => !t.isSource && (instance.index.changesByTranslation.get(t.id)?.length ?? 0) > 0,
    )!;
    const key = translationKey(instance, translation);
    const [project, component] = key.split('/');
    const changeIds = instance.index.changesByTranslation.get(translation.id)!.map((c) => c.id);
    const result = mutate.deleteTranslation(translation.id);
    expect(result.removedChangeIds.sort((a, b) => a - b)).toEqual(changeIds.sort((a, b) => a - b));
    expect(get(instance, `api/translations/${key}/`).status).toBe(404);
    expect(get(instance, `api/translations/${key}/units/`).status).toBe(404);
    const listed = changesOf(`api/components/${project!}/${component!}/translations/`);
    expect(listed.some((t) => t.id === translation.id)).toBe(false);
    expect(get(instance, `api/changes/${changeIds[0]!}/`).status).toBe(404);
    expect(get(instance, `api/changes/${result.changeIds[0]!}/`).body).toMatchObject({
      action: 25,
      translation: null,
      target: translation.filename,
    });
    expect(() =>
      mutate.deleteTranslation(instance.translations.find((t) => t.isSource)!.id),
    ).toThrow();
    expectConsistent(instance);
  });

  it('deletes a component and a project with everything below them', () => {
    const component = instance.components[1]!;
    const project = instance.index.projectById.get(component.projectId)!;
    const result = mutate.deleteComponent(component.id);
    expect(get(instance, `api/components/${project.slug}/${component.slug}/`).status).toBe(404);
    expect(changesOf('api/components/').some((c) => c.id === component.id)).toBe(false);
    expect(instance.changes.some((c) => c.componentId === component.id)).toBe(false);
    expect(get(instance, `api/changes/${result.changeIds[0]!}/`).body).toMatchObject({
      action: 38,
      component: null,
      target: component.slug,
    });
    expectConsistent(instance);
    const other = instance.projects.find((p) => p.id !== project.id)!;
    const removed = mutate.deleteProject(other.id);
    expect(removed.changeIds).toEqual([]);
    expect(get(instance, `api/projects/${other.slug}/`).status).toBe(404);
    expect(get(instance, 'api/projects/').body.count).toBe(instance.projects.length);
    expect(instance.changes.some((c) => c.projectId === other.id)).toBe(false);
    for (const user of instance.users) {
      expect(user.subscriptions.some((s) => s.projectId === other.id)).toBe(false);
    }
    expectConsistent(instance);
  });

  it('adds a translation with an empty unit per source string', () => {
    const component = instance.components[0]!;
    const present = new Set(
      instance.index.translationsByComponent.get(component.id)!.map((t) => t.languageId),
    );
    const language = instance.languages.find((l) => !present.has(l.id))!;
    const source = instance.index.translationsByComponent
      .get(component.id)!
      .find((t) => t.isSource)!;
    const result = mutate.addTranslation(component.id, language.code);
    expect(result.translationId).toBeGreaterThan(
      Math.max(...pristine.translations.map((t) => t.id)),
    );
    const translation = instance.index.translationById.get(result.translationId)!;
    const key = translationKey(instance, translation);
    const record = get(instance, `api/translations/${key}/`).body;
    expect(record).toMatchObject({
      total: instance.index.unitsByTranslation.get(source.id)!.length,
      translated: 0,
      language_code: language.code,
    });
    expect(get(instance, `api/changes/${result.changeIds[0]!}/`).body).toMatchObject({
      action: 48,
    });
    expect(() => mutate.addTranslation(component.id, language.code)).toThrow(/already/);
    expectConsistent(instance);
  });

  it('creates a project and a component under the slugs of deleted ones, with new ids', () => {
    const project = instance.projects[instance.projects.length - 1]!;
    const component = instance.components.find((c) => c.projectId === project.id)!;
    const [code] = instance.languages.slice(1).map((l) => l.code);
    mutate.deleteProject(project.id);
    const created = mutate.addProject(project.slug);
    // The deleted project had the highest id: a new one never takes it again.
    expect(created.projectId).toBe(project.id + 1);
    expect(get(instance, `api/projects/${project.slug}/`).body).toMatchObject({
      id: created.projectId,
      slug: project.slug,
    });
    expect(get(instance, `api/changes/${created.changeIds[0]!}/`).body).toMatchObject({
      action: 50,
    });
    const added = mutate.addComponent(created.projectId, component.slug, {
      strings: 4,
      languages: [code!],
    });
    expect(added.componentId).toBeGreaterThan(Math.max(...pristine.components.map((c) => c.id)));
    expect(added.translationIds).toHaveLength(2);
    expect(added.unitIds).toHaveLength(8);
    const listed = walk(instance, `api/projects/${project.slug}/components/`).results;
    expect(listed.map((c) => c.id)).toEqual([added.componentId]);
    expect(
      get(instance, `api/translations/${project.slug}/${component.slug}/${code!}/`).body,
    ).toMatchObject({ id: added.translationIds[1], total: 4, translated: 0 });
    expect(() => mutate.addProject(project.slug)).toThrow(/taken/);
    expect(() => mutate.addComponent(created.projectId, component.slug)).toThrow(/taken/);
    expectConsistent(instance);
  });
});

describe('cost', () => {
  it('stays consistent over hundreds of mutations on a 20,000-unit instance', () => {
    instance = generateInstance({ ...DEFAULT_SIZE, seed: 5 });
    expect(instance.units.length).toBeGreaterThanOrEqual(20_000);
    mutate = createMutator(instance, () => clock);
    // One unit of each of 300 different strings, so deleting one leaves the others alone.
    const byString = new Map<number, SimUnit>();
    for (const unit of targetUnits((u) => u.state >= 10 && u.state < 100, 20_000)) {
      if (!byString.has(unit.sourceUnitId)) byString.set(unit.sourceUnitId, unit);
    }
    const units = [...byString.values()];
    expect(units.length).toBeGreaterThanOrEqual(300);
    const translation = instance.translations.find((t) => !t.isSource)!;
    for (let i = 0; i < 100; i += 1) {
      tick();
      mutate.editUnits([units[i]!.id]);
      mutate.bulkEditStates([units[100 + i]!.id], 30);
      mutate.addChanges(translation.id, 1, { backdate: i % 7 });
      mutate.deleteUnits([units[200 + i]!.id]);
    }
    mutate.addUnits(instance.components[2]!.id, 20);
    expectConsistent(instance);
  });
});

/**
 * Deleting translations, components and projects. Weblate cascades (`on_delete=CASCADE` on
 * every foreign key of Change, weblate/trans/models/change.py): everything below the object goes, and so does
 * every change that references any removed object. The index is rebuilt afterwards; these
 * are rare enough that a full rebuild (a few milliseconds at 20,000 units) is the simple,
 * safe choice.
 */
import { retainInPlace } from './index-updates.ts';
import { reindexInstance } from './indexes.ts';
import type { SimChange, SimInstance } from './model.ts';
import { requireComponent } from './mutate-catalog.ts';
import { requireTranslation } from './mutate-units.ts';
import {
  actingUser,
  type ChangeDraft,
  type MutationContext,
  recordChanges,
} from './mutation-context.ts';

export interface DeleteResult {
  projectIds: number[];
  componentIds: number[];
  translationIds: number[];
  unitIds: number[];
  /** Changes removed by the cascade. */
  removedChangeIds: number[];
  /** New changes recording the removal (none for a project: see deleteProject). */
  changeIds: number[];
}

interface Doomed {
  projects: ReadonlySet<number>;
  components: ReadonlySet<number>;
  translations: ReadonlySet<number>;
}

function idsOf(items: readonly { id: number }[]): number[] {
  return items.map((item) => item.id);
}

function references(change: SimChange, doomed: Doomed, units: ReadonlySet<number>): boolean {
  return (
    doomed.projects.has(change.projectId) ||
    (change.componentId !== null && doomed.components.has(change.componentId)) ||
    (change.translationId !== null && doomed.translations.has(change.translationId)) ||
    (change.unitId !== null && units.has(change.unitId))
  );
}

/** Removes the objects and everything below or referencing them, then reindexes. */
function cascade(instance: SimInstance, doomed: Doomed): Omit<DeleteResult, 'changeIds'> {
  const components = instance.components.filter(
    (c) => doomed.components.has(c.id) || doomed.projects.has(c.projectId),
  );
  const componentIds = new Set(idsOf(components));
  const translations = instance.translations.filter(
    (t) => doomed.translations.has(t.id) || componentIds.has(t.componentId),
  );
  const translationIds = new Set(idsOf(translations));
  const units = instance.units.filter((u) => translationIds.has(u.translationId));
  const unitIds = new Set(idsOf(units));
  const all: Doomed = { ...doomed, components: componentIds, translations: translationIds };
  const changes = instance.changes.filter((change) => references(change, all, unitIds));
  const changeIds = new Set(idsOf(changes));
  retainInPlace(instance.changes, (change) => !changeIds.has(change.id));
  retainInPlace(instance.units, (unit) => !unitIds.has(unit.id));
  retainInPlace(instance.translations, (t) => !translationIds.has(t.id));
  retainInPlace(instance.components, (c) => !componentIds.has(c.id));
  retainInPlace(instance.projects, (p) => !doomed.projects.has(p.id));
  retainInPlace(instance.categories, (c) => !doomed.projects.has(c.projectId));
  retainInPlace(instance.labels, (l) => !doomed.projects.has(l.projectId));
  for (const component of instance.components) {
    if (component.linkedComponentId !== null && componentIds.has(component.linkedComponentId)) {
      component.linkedComponentId = null;
    }
  }
  for (const user of instance.users) {
    retainInPlace(
      user.subscriptions,
      (s) =>
        !(s.projectId !== null && doomed.projects.has(s.projectId)) &&
        !(s.componentId !== null && componentIds.has(s.componentId)),
    );
  }
  reindexInstance(instance);
  return {
    projectIds: [...doomed.projects],
    componentIds: [...componentIds],
    translationIds: [...translationIds],
    unitIds: [...unitIds],
    removedChangeIds: [...changeIds],
  };
}

const NONE: ReadonlySet<number> = new Set();

/**
 * Removes a target translation with its units and changes, and records action 25
 * "Translation removed" on the component (target: the file name), as Weblate does. The
 * source translation cannot be removed on its own (delete the component).
 */
export function deleteTranslation(
  context: MutationContext,
  translationId: number,
  options: { user?: string | null } = {},
): DeleteResult {
  const { instance } = context;
  const translation = requireTranslation(instance, translationId);
  if (translation.isSource) throw new Error(`translation ${translationId} is a source translation`);
  const user = actingUser(instance, options.user);
  const component = requireComponent(instance, translation.componentId);
  const result = cascade(instance, {
    projects: NONE,
    components: NONE,
    translations: new Set([translationId]),
  });
  const draft: ChangeDraft = {
    action: 25,
    projectId: component.projectId,
    componentId: component.id,
    user,
    author: user,
    target: translation.filename,
  };
  return { ...result, changeIds: idsOf(recordChanges(context, [draft])) };
}

/** Removes a component and everything in it; records action 38 on its project (target: slug). */
export function deleteComponent(
  context: MutationContext,
  componentId: number,
  options: { user?: string | null } = {},
): DeleteResult {
  const { instance } = context;
  const component = requireComponent(instance, componentId);
  const user = actingUser(instance, options.user);
  const result = cascade(instance, {
    projects: NONE,
    components: new Set([componentId]),
    translations: NONE,
  });
  const draft: ChangeDraft = {
    action: 38,
    projectId: component.projectId,
    user,
    author: user,
    target: component.slug,
  };
  return { ...result, changeIds: idsOf(recordChanges(context, [draft])) };
}

/**
 * Removes a project and everything in it. Weblate records action 39 "Project removed"
 * with no project at all; the simulator's changes always belong to a project, so it
 * records nothing.
 */
export function deleteProject(context: MutationContext, projectId: number): DeleteResult {
  const { instance } = context;
  if (!instance.index.projectById.has(projectId)) throw new Error(`unknown project ${projectId}`);
  const result = cascade(instance, {
    projects: new Set([projectId]),
    components: NONE,
    translations: NONE,
  });
  return { ...result, changeIds: [] };
}

import type { SimChange, SimIndex, SimInstance } from './model.ts';
import { bumpRenderGeneration } from './render-cache.ts';

type IndexSource = Omit<SimInstance, 'index'>;

function groupBy<T, K>(items: readonly T[], key: (item: T) => K | null): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const value = key(item);
    if (value === null) continue;
    const group = groups.get(value);
    if (group === undefined) groups.set(value, [item]);
    else group.push(item);
  }
  return groups;
}

/** Newest first as Weblate orders changes (`-timestamp`), ties broken by id descending. */
export function compareChangesNewestFirst(a: SimChange, b: SimChange): number {
  return b.timestampUs - a.timestampUs || b.id - a.id;
}

function isSortedBy<T>(items: readonly T[], compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < items.length; i += 1) {
    if (compare(items[i - 1] as T, items[i] as T) > 0) return false;
  }
  return true;
}

/**
 * Builds every lookup the server uses. Call it again after mutating the instance's arrays;
 * it also re-sorts `units` by id and `changes` by id, which the list endpoints rely on.
 */
export function buildIndex(source: IndexSource): SimIndex {
  const byId = (a: { id: number }, b: { id: number }): number => a.id - b.id;
  if (!isSortedBy(source.units, byId)) source.units.sort(byId);
  if (!isSortedBy(source.changes, byId)) source.changes.sort(byId);
  const projectById = new Map(source.projects.map((p) => [p.id, p]));
  const componentById = new Map(source.components.map((c) => [c.id, c]));
  const languageById = new Map(source.languages.map((l) => [l.id, l]));
  const componentPath = (componentId: number): string => {
    const component = componentById.get(componentId);
    const project = component && projectById.get(component.projectId);
    return `${project?.slug ?? ''}/${component?.slug ?? ''}`;
  };
  const newestFirst = [...source.changes].reverse();
  if (!isSortedBy(newestFirst, compareChangesNewestFirst)) {
    newestFirst.sort(compareChangesNewestFirst);
  }
  return {
    languageById,
    languageByCode: new Map(source.languages.map((l) => [l.code, l])),
    projectById,
    projectBySlug: new Map(source.projects.map((p) => [p.slug, p])),
    componentById,
    componentByPath: new Map(source.components.map((c) => [componentPath(c.id), c])),
    componentsByProject: groupBy(source.components, (c) => c.projectId),
    translationById: new Map(source.translations.map((t) => [t.id, t])),
    translationByPath: new Map(
      source.translations.map((t) => [
        `${componentPath(t.componentId)}/${languageById.get(t.languageId)?.code ?? ''}`,
        t,
      ]),
    ),
    translationsByComponent: groupBy(source.translations, (t) => t.componentId),
    translationsByLanguage: groupBy(source.translations, (t) => t.languageId),
    unitById: new Map(source.units.map((u) => [u.id, u])),
    unitsByTranslation: groupBy(source.units, (u) => u.translationId),
    changeById: new Map(source.changes.map((c) => [c.id, c])),
    changesNewestFirst: newestFirst,
    changesByProject: groupBy(newestFirst, (c) => c.projectId),
    changesByComponent: groupBy(newestFirst, (c) => c.componentId),
    changesByTranslation: groupBy(newestFirst, (c) => c.translationId),
    userByUsername: new Map(source.users.map((u) => [u.username, u])),
  };
}

/** Rebuilds `instance.index` in place after the instance's arrays were changed. */
export function reindexInstance(instance: SimInstance): void {
  instance.index = buildIndex(instance);
  bumpRenderGeneration(instance);
}

/**
 * Incremental updates of `SimInstance.index` for the mutations that happen often (units and
 * changes), so that hundreds of them on a 20,000-unit instance stay cheap; rarer catalog
 * changes rebuild the index with `reindexInstance`. Each function keeps the instance's
 * arrays and every map of the index consistent with each other.
 */
import { compareChangesNewestFirst } from './indexes.ts';
import type { SimChange, SimInstance, SimUnit } from './model.ts';
import { bumpRenderGeneration } from './render-cache.ts';

/**
 * Keeps the items the predicate accepts, in place: tests may hold on to `instance.units` or
 * `instance.changes`, and those arrays must stay the live ones.
 */
export function retainInPlace<T>(items: T[], keep: (item: T) => boolean): void {
  let kept = 0;
  for (const item of items) {
    if (keep(item)) items[kept++] = item;
  }
  items.length = kept;
}

/** Inserts into a newest-first list at its place (new changes are usually the newest). */
function insertNewestFirst(list: SimChange[], change: SimChange): void {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareChangesNewestFirst(list[middle] as SimChange, change) < 0) low = middle + 1;
    else high = middle;
  }
  list.splice(low, 0, change);
}

function addToGroup<K>(groups: Map<K, SimChange[]>, key: K | null, change: SimChange): void {
  if (key === null) return;
  const list = groups.get(key);
  if (list === undefined) groups.set(key, [change]);
  else insertNewestFirst(list, change);
}

/** Adds changes whose ids are greater than every existing change id, in ascending id order. */
export function appendChanges(instance: SimInstance, changes: readonly SimChange[]): void {
  bumpRenderGeneration(instance);
  const { index } = instance;
  for (const change of changes) {
    const last = instance.changes[instance.changes.length - 1];
    if (last !== undefined && last.id >= change.id) {
      throw new Error(`change ${change.id} is not newer than change ${last.id}`);
    }
    instance.changes.push(change);
    index.changeById.set(change.id, change);
    insertNewestFirst(index.changesNewestFirst, change);
    addToGroup(index.changesByProject, change.projectId, change);
    addToGroup(index.changesByComponent, change.componentId, change);
    addToGroup(index.changesByTranslation, change.translationId, change);
  }
}

function filterGroups<K>(
  groups: Map<K, SimChange[]>,
  keys: ReadonlySet<K | null>,
  isRemoved: (change: SimChange) => boolean,
): void {
  for (const key of keys) {
    if (key === null) continue;
    const list = groups.get(key);
    if (list === undefined) continue;
    const kept = list.filter((change) => !isRemoved(change));
    if (kept.length === 0) groups.delete(key);
    else groups.set(key, kept);
  }
}

/** Removes every change the predicate selects (a cascade); returns their ids, ascending. */
export function removeChanges(
  instance: SimInstance,
  isRemoved: (change: SimChange) => boolean,
): number[] {
  bumpRenderGeneration(instance);
  const removed = instance.changes.filter(isRemoved);
  if (removed.length === 0) return [];
  const ids = new Set(removed.map((change) => change.id));
  const gone = (change: SimChange): boolean => ids.has(change.id);
  const { index } = instance;
  retainInPlace(instance.changes, (change) => !gone(change));
  for (const id of ids) index.changeById.delete(id);
  retainInPlace(index.changesNewestFirst, (change) => !gone(change));
  filterGroups(index.changesByProject, new Set(removed.map((c) => c.projectId)), gone);
  filterGroups(index.changesByComponent, new Set(removed.map((c) => c.componentId)), gone);
  filterGroups(index.changesByTranslation, new Set(removed.map((c) => c.translationId)), gone);
  return [...ids];
}

/** Adds units whose ids are greater than every existing unit id, in ascending id order. */
export function appendUnits(instance: SimInstance, units: readonly SimUnit[]): void {
  bumpRenderGeneration(instance);
  const { index } = instance;
  for (const unit of units) {
    const last = instance.units[instance.units.length - 1];
    if (last !== undefined && last.id >= unit.id) {
      throw new Error(`unit ${unit.id} is not newer than unit ${last.id}`);
    }
    instance.units.push(unit);
    index.unitById.set(unit.id, unit);
    const list = index.unitsByTranslation.get(unit.translationId);
    if (list === undefined) index.unitsByTranslation.set(unit.translationId, [unit]);
    else list.push(unit);
  }
}

/** Removes units by id (their changes are the caller's business). */
export function removeUnits(instance: SimInstance, ids: ReadonlySet<number>): void {
  bumpRenderGeneration(instance);
  if (ids.size === 0) return;
  const { index } = instance;
  const translations = new Set<number>();
  for (const id of ids) {
    const unit = index.unitById.get(id);
    if (unit !== undefined) translations.add(unit.translationId);
    index.unitById.delete(id);
  }
  retainInPlace(instance.units, (unit) => !ids.has(unit.id));
  for (const translationId of translations) {
    const kept = (index.unitsByTranslation.get(translationId) ?? []).filter((u) => !ids.has(u.id));
    index.unitsByTranslation.set(translationId, kept);
  }
}

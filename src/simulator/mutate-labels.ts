/**
 * Labels on strings and removed categories. Weblate 2026.x logs action 86 "Label added" and
 * 87 "Label removed" on the unit (5.14.3 logs neither); removing a category removes the
 * categories and components inside it too and logs action 67 "Category removed" on its
 * project (target: the category's slug, weblate/trans/tasks.py category_removal).
 */
import type { SimInstance, SimLabel } from './model.ts';
import { deleteComponent } from './mutate-removals.ts';
import { requireUnit } from './mutate-units.ts';
import {
  actingUser,
  type MutationContext,
  recordChanges,
  translationScope,
} from './mutation-context.ts';

function requireLabel(instance: SimInstance, id: number): SimLabel {
  const label = instance.labels.find((l) => l.id === id);
  if (label === undefined) throw new Error(`unknown label ${id}`);
  return label;
}

/** Adds (`isAdded`) or removes a label on a unit and logs it on the unit; the change's id. */
export function setUnitLabel(
  context: MutationContext,
  unitId: number,
  labelId: number,
  isAdded: boolean,
): { changeIds: number[] } {
  const { instance } = context;
  const unit = requireUnit(instance, unitId);
  const label = requireLabel(instance, labelId);
  const ids = new Set(unit.labelIds ?? []);
  if (isAdded) ids.add(label.id);
  else ids.delete(label.id);
  unit.labelIds = [...ids].sort((a, b) => a - b);
  const translation = instance.index.translationById.get(unit.translationId);
  if (translation === undefined) throw new Error(`unit ${unitId} has no translation`);
  const user = actingUser(instance, undefined);
  const [change] = recordChanges(context, [
    {
      ...translationScope(instance, translation),
      action: isAdded ? 86 : 87,
      unitId: unit.id,
      user,
      author: user,
      target: label.name,
    },
  ]);
  return { changeIds: change === undefined ? [] : [change.id] };
}

/**
 * Removes a category as Weblate's category_removal does: each category inside it first,
 * then its components (action 38 each), then the category itself (action 67 on its project).
 */
export function deleteCategory(
  context: MutationContext,
  categoryId: number,
): { categoryIds: number[]; componentIds: number[]; changeIds: number[] } {
  const { instance } = context;
  const category = instance.categories.find((c) => c.id === categoryId);
  if (category === undefined) throw new Error(`unknown category ${categoryId}`);
  const removed = {
    categoryIds: [] as number[],
    componentIds: [] as number[],
    changeIds: [] as number[],
  };
  for (const child of instance.categories.filter((c) => c.parentId === category.id)) {
    const inner = deleteCategory(context, child.id);
    removed.categoryIds.push(...inner.categoryIds);
    removed.componentIds.push(...inner.componentIds);
    removed.changeIds.push(...inner.changeIds);
  }
  for (const component of instance.components.filter((c) => c.categoryId === category.id)) {
    const result = deleteComponent(context, component.id);
    removed.componentIds.push(...result.componentIds);
    removed.changeIds.push(...result.changeIds);
  }
  const kept = instance.categories.filter((c) => c.id !== category.id);
  instance.categories.splice(0, instance.categories.length, ...kept);
  const user = actingUser(instance, undefined);
  const [change] = recordChanges(context, [
    { projectId: category.projectId, action: 67, user, author: user, target: category.slug },
  ]);
  removed.categoryIds.push(category.id);
  if (change !== undefined) removed.changeIds.push(change.id);
  return removed;
}

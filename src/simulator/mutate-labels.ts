/**
 * Labels on strings and removed categories. Weblate 2026.x logs action 86 "Label added" and
 * 87 "Label removed" on the unit (5.14.3 logs neither); removing a category removes the
 * categories inside it too and logs action 67 "Category removed" on its project (target:
 * the category's slug, weblate/trans/tasks.py category_removal).
 */
import type { SimInstance, SimLabel } from './model.ts';
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

/** Removes a category and every category inside it; logs action 67 on its project. */
export function deleteCategory(
  context: MutationContext,
  categoryId: number,
): { categoryIds: number[]; changeIds: number[] } {
  const { instance } = context;
  const category = instance.categories.find((c) => c.id === categoryId);
  if (category === undefined) throw new Error(`unknown category ${categoryId}`);
  const doomed = new Set([category.id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of instance.categories) {
      if (c.parentId === null || !doomed.has(c.parentId) || doomed.has(c.id)) continue;
      doomed.add(c.id);
      grew = true;
    }
  }
  const kept = instance.categories.filter((c) => !doomed.has(c.id));
  instance.categories.splice(0, instance.categories.length, ...kept);
  const user = actingUser(instance, undefined);
  const [change] = recordChanges(context, [
    { projectId: category.projectId, action: 67, user, author: user, target: category.slug },
  ]);
  return { categoryIds: [...doomed], changeIds: change === undefined ? [] : [change.id] };
}

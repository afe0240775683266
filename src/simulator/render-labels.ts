import type { SimCategory, SimInstance, SimLabel, SimUnit } from './model.ts';
import { apiUrl, type LinkBase, projectPath } from './urls.ts';

/** CategorySerializer's fields in Weblate 5.14.3 (weblate/api/serializers.py). */
export function renderCategory(
  instance: SimInstance,
  base: LinkBase,
  category: SimCategory,
): Record<string, unknown> {
  const project = instance.index.projectById.get(category.projectId);
  return {
    id: category.id,
    name: category.name,
    slug: category.slug,
    project: apiUrl(base, `projects/${project === undefined ? '' : projectPath(project)}`),
    category: category.parentId === null ? null : apiUrl(base, `categories/${category.parentId}/`),
    url: apiUrl(base, `categories/${category.id}/`),
    statistics_url: apiUrl(base, `categories/${category.id}/statistics/`),
  };
}

/** LabelSerializer's fields (the same in 5.14.3 and 2026.x). */
export function renderLabel(label: SimLabel): Record<string, unknown> {
  return { id: label.id, name: label.name, description: label.description, color: label.color };
}

/** A unit's `labels`: UnitLabelsSerializer renders each label whole, by id. */
export function renderUnitLabels(instance: SimInstance, unit: SimUnit): Record<string, unknown>[] {
  if (unit.labelIds === undefined) return [];
  const labels: Record<string, unknown>[] = [];
  for (const id of unit.labelIds) {
    const label = instance.labels.find((l) => l.id === id);
    if (label !== undefined) labels.push(renderLabel(label));
  }
  return labels;
}

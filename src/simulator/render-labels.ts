import { CATEGORY_FIELDS_2026, pickFields } from './fields-2026.ts';
import type { SimCategory, SimInstance, SimLabel, SimUnit } from './model.ts';
import { isAtLeast } from './release.ts';
import { inheritedSettings2026 } from './render-catalog.ts';
import { apiUrl, type LinkBase, projectPath } from './urls.ts';

/**
 * CategorySerializer's fields in Weblate 5.14.3 (weblate/api/serializers.py); 2026's add
 * links and the settings the category's components inherit (CATEGORY_FIELDS_2026).
 */
export function renderCategory(
  instance: SimInstance,
  base: LinkBase,
  category: SimCategory,
): Record<string, unknown> {
  const project = instance.index.projectById.get(category.projectId);
  const api = (suffix: string) => apiUrl(base, `categories/${category.id}/${suffix}`);
  const record = {
    id: category.id,
    name: category.name,
    slug: category.slug,
    project: apiUrl(base, `projects/${project === undefined ? '' : projectPath(project)}`),
    category: category.parentId === null ? null : apiUrl(base, `categories/${category.parentId}/`),
    url: api(''),
    statistics_url: api('statistics/'),
  };
  if (!isAtLeast(base.release, '2026')) return record;
  const values = {
    ...record,
    announcements_url: api('announcements/'),
    reports_url: api('reports/'),
    check_flags: '',
    effective_check_flags: '',
    ...inheritedSettings2026(),
  };
  return pickFields(values, CATEGORY_FIELDS_2026);
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

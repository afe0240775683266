import type { SimCategory, SimInstance, SimLabel } from './model.ts';
import { createRng } from './prng.ts';

// Categories and labels, generated only when a simulator asks for them (`categoriesAndLabels`):
// from their own PRNG, after everything else, so that every other record of a seed stays
// as it was. Weblate shows labels on source strings, so only source units carry them.

const CATEGORY_NAMES = ['Documentation', 'Website', 'Mobile', 'Legal', 'Marketing'] as const;
const LABEL_NAMES = ['UI', 'Needs context', 'Legal review', 'Release notes', 'Glossary'] as const;
const LABEL_COLORS = ['navy', 'green', 'orange', 'red', 'purple'] as const;
/** Separates this PRNG's sequence from the instance's. */
const LABELS_SEED_SALT = 0x1abe15;

/**
 * Adds 2–4 categories (the later ones nested in an earlier one or at the top) to every
 * project, with about half of its components (glossaries stay at the top) in one of them,
 * and 2–4 labels, and gives about one source unit in four one or two of its
 * project's labels. The instance's index is left to the caller.
 */
export function addCategoriesAndLabels(
  instance: Pick<
    SimInstance,
    'seed' | 'projects' | 'components' | 'translations' | 'units' | 'categories' | 'labels'
  >,
): void {
  const rng = createRng((instance.seed ^ LABELS_SEED_SALT) >>> 0);
  const projectOfTranslation = new Map<number, number>();
  for (const translation of instance.translations) {
    if (!translation.isSource) continue;
    const component = instance.components.find((c) => c.id === translation.componentId);
    if (component !== undefined) projectOfTranslation.set(translation.id, component.projectId);
  }
  const labelsByProject = new Map<number, SimLabel[]>();
  for (const project of instance.projects) {
    const categories: SimCategory[] = [];
    for (let i = 0, n = rng.int(2, 4); i < n; i += 1) {
      const name = CATEGORY_NAMES[i]!;
      const parent = i === 0 || rng.chance(0.4) ? null : rng.pick(categories);
      categories.push({
        id: instance.categories.length + categories.length + 1,
        projectId: project.id,
        slug: name.toLowerCase(),
        name,
        parentId: parent?.id ?? null,
      });
    }
    instance.categories.push(...categories);
    const labels: SimLabel[] = [];
    for (let i = 0, n = rng.int(2, 4); i < n; i += 1) {
      labels.push({
        id: instance.labels.length + labels.length + 1,
        projectId: project.id,
        name: LABEL_NAMES[i]!,
        description: i % 2 === 0 ? '' : `Strings marked ${LABEL_NAMES[i]!.toLowerCase()}`,
        color: LABEL_COLORS[i]!,
      });
    }
    instance.labels.push(...labels);
    labelsByProject.set(project.id, labels);
  }
  for (const unit of instance.units) {
    const projectId = projectOfTranslation.get(unit.translationId);
    const labels = projectId === undefined ? undefined : labelsByProject.get(projectId);
    if (labels === undefined || !rng.chance(0.25)) continue;
    const picked = new Set([rng.pick(labels).id, rng.pick(labels).id]);
    unit.labelIds = [...picked].sort((a, b) => a - b);
  }
  // Last, so that the categories, labels and units of a seed stay as they were before.
  for (const component of instance.components) {
    const categories = instance.categories.filter((c) => c.projectId === component.projectId);
    if (component.isGlossary || categories.length === 0 || rng.chance(0.5)) continue;
    component.categoryId = rng.pick(categories).id;
  }
}

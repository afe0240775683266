import { describe, expect, it } from 'vitest';

import { CATEGORY_FIELDS_2026 } from '../../src/simulator/fields-2026.ts';
import {
  dispatch,
  generateInstance,
  renderUnit,
  type SimInstance,
  siteLinks,
} from '../../src/simulator/index.ts';
import { renderCategory } from '../../src/simulator/render-labels.ts';
import { DEFAULT_SIZE } from '../../src/simulator/size.ts';

const SIZE = { ...DEFAULT_SIZE, projects: 2, components: 3, languages: 2, units: 200, changes: 50 };
const SITE = 'http://127.0.0.1:1/';

function get(instance: SimInstance, path: string): { status: number; body: unknown } {
  const url = new URL(path, SITE);
  const response = dispatch(instance, { method: 'GET', url, baseUrl: SITE, headers: {} });
  return { status: response.status, body: response.body };
}

describe('categories and labels of the simulator', () => {
  it('are generated only when asked, leaving every other record of a seed as it was', () => {
    const plain = generateInstance({ ...SIZE, seed: 5 });
    const rich = generateInstance({ ...SIZE, seed: 5, categoriesAndLabels: true });
    expect([plain.categories, plain.labels]).toEqual([[], []]);
    expect(plain.units.every((u) => u.labelIds === undefined)).toBe(true);
    expect(rich.categories.length).toBeGreaterThanOrEqual(2 * SIZE.projects);
    expect(rich.categories.some((c) => c.parentId !== null)).toBe(true);
    expect(rich.units.some((u) => (u.labelIds ?? []).length > 0)).toBe(true);
    expect(plain.components.every((c) => c.categoryId === undefined)).toBe(true);
    expect(rich.components.some((c) => c.categoryId != null)).toBe(true);
    const strip = (i: SimInstance) =>
      JSON.stringify(
        [
          i.projects,
          i.components.map(({ categoryId: _, ...c }) => c),
          i.translations,
          i.changes,
          i.units.map(({ labelIds: _, ...u }) => u),
        ],
        (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v),
      );
    expect(strip(rich)).toBe(strip(plain));
    expect(generateInstance({ ...SIZE, seed: 5, categoriesAndLabels: true }).categories).toEqual(
      rich.categories,
    );
  });

  it('render as Weblate 5.14.3 serializes them: categories nested by link, labels whole on units', () => {
    const instance = generateInstance({ ...SIZE, seed: 5, categoriesAndLabels: true });
    const base = siteLinks(SITE);
    const child = instance.categories.find((c) => c.parentId !== null)!;
    const project = instance.index.projectById.get(child.projectId)!;
    expect(
      renderUnit(
        instance,
        base,
        instance.units.find((u) => u.labelIds)!,
      ).labels,
    ).toEqual(
      instance.units
        .find((u) => u.labelIds)!
        .labelIds!.map((id) => {
          const l = instance.labels.find((label) => label.id === id)!;
          return { id: l.id, name: l.name, description: l.description, color: l.color };
        }),
    );
    expect(get(instance, `api/categories/${child.id}/`).body).toEqual({
      id: child.id,
      name: child.name,
      slug: child.slug,
      project: `${SITE}api/projects/${project.slug}/`,
      category: `${SITE}api/categories/${child.parentId}/`,
      url: `${SITE}api/categories/${child.id}/`,
      statistics_url: `${SITE}api/categories/${child.id}/statistics/`,
    });
    const categories = get(instance, `api/projects/${project.slug}/categories/`);
    expect(categories.status).toBe(200);
    const labels = get(instance, `api/projects/${project.slug}/labels/`).body as {
      count: number;
      results: Array<{ id: number }>;
    };
    expect(labels.results.map((l) => l.id)).toEqual(
      instance.labels.filter((l) => l.projectId === project.id).map((l) => l.id),
    );
    expect(get(instance, 'api/projects/nope/labels/').status).toBe(404);
    expect(get(instance, 'api/categories/999999/').status).toBe(404);
  });

  it('render as Weblate 2026 does, with the settings the category inherits', () => {
    const instance = generateInstance({ ...SIZE, seed: 5, categoriesAndLabels: true });
    const category = instance.categories[0]!;
    const record = renderCategory(instance, siteLinks(SITE, '2026'), category);
    expect(Object.keys(record)).toEqual(CATEGORY_FIELDS_2026);
    expect(record).toMatchObject({
      category: null,
      reports_url: `${SITE}api/categories/${category.id}/reports/`,
      inherit_license: true,
      effective_new_lang: 'add',
    });
  });
});

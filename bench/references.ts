import type { SimInstance } from '../src/simulator/index.ts';

const pages = (items: number, size: number) => Math.max(1, Math.ceil(items / size));

function sumBy<T>(items: Iterable<T>, value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}

/**
 * The fewest requests that read everything: every list once, at its largest page size
 * (global lists where Weblate has them, the change history included; one statistics list
 * per component and one statistics object per language).
 */
export function minimumRequests(instance: SimInstance): number {
  const { index } = instance;
  const languagesWithTranslations = [...index.translationsByLanguage.values()].filter(
    (t) => t.length > 0,
  ).length;
  return (
    pages(instance.languages.length, 1000) +
    pages(instance.projects.length, 1000) +
    pages(instance.components.length, 1000) +
    pages(instance.translations.length, 1000) +
    pages(instance.units.length, 10_000) +
    pages(instance.changes.length, 1000) +
    sumBy(instance.components, (c) =>
      pages(index.translationsByComponent.get(c.id)?.length ?? 0, 10_000),
    ) +
    languagesWithTranslations +
    sumBy(
      instance.users.filter((u) => u.subscriptions.length > 0),
      (u) => pages(u.subscriptions.length, 1000),
    )
  );
}

/**
 * A naive walk at Weblate's default page size of 50: each project's components, each
 * component's translations, and per translation its detail, units, changes and statistics.
 */
export function naiveRequests(instance: SimInstance): number {
  const { index } = instance;
  const perTranslation = sumBy(
    instance.translations,
    (t) =>
      1 +
      pages(index.unitsByTranslation.get(t.id)?.length ?? 0, 50) +
      pages(index.changesByTranslation.get(t.id)?.length ?? 0, 50) +
      1,
  );
  const languagesWithTranslations = [...index.translationsByLanguage.values()].filter(
    (t) => t.length > 0,
  ).length;
  return (
    pages(instance.languages.length, 50) +
    languagesWithTranslations +
    pages(instance.projects.length, 50) +
    sumBy(instance.projects, (p) => pages(index.componentsByProject.get(p.id)?.length ?? 0, 50)) +
    sumBy(instance.components, (c) =>
      pages(index.translationsByComponent.get(c.id)?.length ?? 0, 50),
    ) +
    perTranslation +
    sumBy(
      instance.users.filter((u) => u.subscriptions.length > 0),
      (u) => pages(u.subscriptions.length, 50),
    )
  );
}

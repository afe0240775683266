import type { Kysely } from 'kysely';

import type { Database } from '../../db/database.ts';
import { resolveCategory } from '../../report/resolve-scope.ts';
import type { WatchScope } from '../model.ts';
import type { DigestScope } from './build.ts';

/**
 * Why a digest cannot cover `scope`, or null. A digest reads what the report reads, whose
 * filter takes one language, one category, components of one project and no label (a label
 * cannot narrow whole translations or changes).
 */
export function digestScopeProblem(scope: WatchScope): string | null {
  if ((scope.labels ?? []).length > 0)
    return 'a digest cannot be narrowed to labels: it counts whole translations and changes';
  if ((scope.languages ?? []).length > 1) return 'a digest takes at most one language';
  if ((scope.categories ?? []).length > 1) return 'a digest takes at most one category';
  const components = scope.components ?? [];
  if (components.some((c) => !/^[\w-]+\/[\w-]+$/.test(c)))
    return 'components are written project/component';
  if (new Set(components.map((c) => c.split('/')[0])).size > 1)
    return 'a digest takes components of one project';
  if (components.length > 0 && (scope.categories ?? []).length > 0)
    return 'a digest takes components or a category, not both';
  return null;
}

/** The report's filter for a digest of `scope`, the category looked up (resolve-scope.ts). */
export async function resolveDigestScope(
  db: Kysely<Database>,
  scope: WatchScope,
): Promise<DigestScope> {
  const problem = digestScopeProblem(scope);
  if (problem !== null) throw new Error(problem);
  const projects = scope.projects ?? [];
  const language = scope.languages?.[0] ?? null;
  const categoryName = scope.categories?.[0];
  if (categoryName !== undefined) {
    const category = await resolveCategory(db, categoryName, projects);
    return {
      projects: [category.project],
      language,
      components: category.components,
      category: category.name,
    };
  }
  const components = scope.components ?? [];
  if (components.length === 0) return { projects, language, components: null, category: null };
  return {
    projects: [components[0]!.split('/')[0]!],
    language,
    components: components.map((c) => c.split('/')[1]!),
    category: null,
  };
}

import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import { currentColumns, type SummedProgress } from './report-progress.ts';
import { progressArguments, type ReportFilter } from './report-scope.ts';

// Categories for the report (see report-scope.ts): their progress, summed by
// weblate.progress_by_category of migration 0012 (a category sums its own components and
// those of every category inside it), and their paths, which --category names.

export interface CategoryProgressRow extends SummedProgress {
  category_id: number;
  category_slug: string;
  category_name: string;
  parent_id: number | null;
  /** Slugs from the project's top category down, joined by '/'. */
  path: string;
  project_id: number;
  project_slug: string;
  components: string;
}

/** A live category of a live project, with its path. */
export interface CategoryPathRow {
  category_id: number;
  project_slug: string;
  path: string;
  name: string;
}

/**
 * Current progress of each live category of the projects in the filter, over its
 * subtree's translations in the filter; in tree order (a parent before its children). With
 * a language or components, only the categories that some translation in scope reaches.
 */
export async function listCategoryProgress(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<CategoryProgressRow[]> {
  const keys = [
    'category_id',
    'category_slug',
    'category_name',
    'parent_id',
    'path',
    'project_id',
    'project_slug',
    'components',
  ];
  const result = await sql<CategoryProgressRow>`
    select ${currentColumns(keys)}
    from weblate.progress_by_category(${progressArguments(filter)}) f
    order by f.project_slug, string_to_array(f.path, '/'), f.category_id`.execute(db);
  return result.rows;
}

/** Every live category of the live projects among `projects` (all when empty), with its path. */
export async function listCategoryPaths(
  db: Kysely<Database>,
  projects: readonly string[],
): Promise<CategoryPathRow[]> {
  const only =
    projects.length === 0
      ? sql`true`
      : sql`k.project_slug in (${sql.join(projects.map((p) => sql`${p}`))})`;
  const result = await sql<CategoryPathRow>`
    select k.id as category_id, k.project_slug, k.name,
           (select string_agg(a.slug, '/' order by t.depth desc)
              from weblate.category_tree t join weblate.categories a on a.id = t.ancestor_id
              where t.category_id = k.id) as path
    from weblate.categories k
    join weblate.projects p on p.id = k.project_id and p.deleted_at is null
    where k.deleted_at is null and ${only}
    order by k.project_slug, path`.execute(db);
  return result.rows;
}

/** Slugs of the live components in a category or any category inside it. */
export async function listCategoryComponents(
  db: Kysely<Database>,
  categoryId: number,
): Promise<string[]> {
  const result = await sql<{ slug: string }>`
    select distinct c.slug
    from weblate.category_tree t
    join weblate.components c on c.category_id = t.category_id and c.deleted_at is null
    where t.ancestor_id = ${categoryId}
    order by c.slug`.execute(db);
  return result.rows.map((r) => r.slug);
}

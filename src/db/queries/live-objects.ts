import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';

/** The clause limiting rows of `alias` (by their `project_slug`) to the projects in scope (all when null). */
export function projectScope(alias: string, projectSlugs: readonly string[] | null) {
  return projectSlugs === null
    ? sql`true`
    : sql`${sql.ref(`${alias}.project_slug`)} = any(${`{${projectSlugs.join(',')}}`}::text[])`;
}

export interface LiveProject {
  id: number;
  slug: string;
  components_list_url: string | null;
  changes_list_url: string | null;
}

/** Live projects in scope (every project when `projectSlugs` is null), by id. */
export async function listLiveProjects(
  db: Kysely<Database>,
  projectSlugs: readonly string[] | null,
): Promise<LiveProject[]> {
  let query = db
    .selectFrom('weblate.projects')
    .select(['id', 'slug', 'components_list_url', 'changes_list_url'])
    .where('deleted_at', 'is', null);
  if (projectSlugs !== null) query = query.where('slug', 'in', [...projectSlugs, '']);
  return query.orderBy('id').execute();
}

export interface LiveComponent {
  id: number;
  slug: string;
  project_id: number;
  project_slug: string;
  url: string | null;
  translations_url: string | null;
  statistics_url: string | null;
}

/** Live components of live projects in scope, by id. */
export async function listLiveComponents(
  db: Kysely<Database>,
  projectSlugs: readonly string[] | null,
): Promise<LiveComponent[]> {
  const result = await sql<LiveComponent>`
    select c.id, c.slug, c.project_id, c.project_slug, c.url, c.translations_url, c.statistics_url
    from weblate.components c
    join weblate.projects p on p.id = c.project_id and p.deleted_at is null
    where c.deleted_at is null and ${projectScope('c', projectSlugs)}
    order by c.id`.execute(db);
  return result.rows;
}

/** Ids of live mirrored objects named by slug: projects by slug, components by `<project>/<slug>`. */
export interface LiveIds {
  projects: Map<string, number>;
  components: Map<string, number>;
}

/** The ids of the live projects and components with these slugs that the mirror holds. */
export async function liveIdsBySlug(
  db: Kysely<Database>,
  projectSlugs: readonly string[],
  components: ReadonlyArray<{ project: string; component: string }>,
): Promise<LiveIds> {
  const ids: LiveIds = { projects: new Map(), components: new Map() };
  if (projectSlugs.length > 0) {
    const rows = await db
      .selectFrom('weblate.projects')
      .select(['id', 'slug'])
      .where('deleted_at', 'is', null)
      .where('slug', 'in', projectSlugs)
      .execute();
    for (const row of rows) ids.projects.set(row.slug, row.id);
  }
  if (components.length > 0) {
    const result = await sql<{ id: number; path: string }>`
      select c.id, c.project_slug || '/' || c.slug as path from weblate.components c
      where c.deleted_at is null and (c.project_slug, c.slug) in (${sql.join(
        components.map((c) => sql`(${c.project}, ${c.component})`),
      )})`.execute(db);
    for (const row of result.rows) ids.components.set(row.path, row.id);
  }
  return ids;
}

import { sql } from 'kysely';

import type { RawJson } from '../../db/database.ts';
import { markGone, retireReplaced } from '../../db/queries/deletions.ts';
import { type ProjectRow, upsertProjects } from '../../db/queries/records.ts';
import { type WeblateProject, weblateProject } from '../../weblate/schemas.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { Listing, markUnlisted } from '../listing.ts';
import type { Item } from '../read.ts';
import { listRead, objectRead, PAGE_SIZE } from '../reads.ts';
import { type ProjectRef, projectRef } from '../refs.ts';
import { runStream, type Stream } from '../run-stream.ts';

/** Transforms one project record into its row (pure). */
export function toProjectRow(record: WeblateProject, raw: RawJson): ProjectRow {
  return {
    id: record.id,
    slug: record.slug,
    name: record.name,
    web: record.web ?? null,
    web_url: record.web_url ?? null,
    url: record.url ?? null,
    components_list_url: record.components_list_url ?? null,
    repository_url: record.repository_url ?? null,
    statistics_url: record.statistics_url ?? null,
    categories_url: record.categories_url ?? null,
    changes_list_url: record.changes_list_url ?? null,
    languages_url: record.languages_url ?? null,
    labels_url: record.labels_url ?? null,
    translation_review: record.translation_review ?? null,
    source_review: record.source_review ?? null,
    set_language_team: record.set_language_team ?? null,
    instructions: record.instructions ?? null,
    enable_hooks: record.enable_hooks ?? null,
    language_aliases: record.language_aliases ?? null,
    deleted_at: null,
    raw,
  };
}

function toRef(record: WeblateProject): ProjectRef {
  return projectRef({
    id: record.id,
    slug: record.slug,
    componentsUrl: record.components_list_url,
    changesUrl: record.changes_list_url,
  });
}

/** The projects stream: rows of a page, written with the rows they replace retired. */
function projectStream(ctx: SyncContext, refs: ProjectRef[], listing?: Listing) {
  return {
    resource: 'projects',
    schema: weblateProject,
    isDiscovery: true,
    listing,
    prepare: ({ items }) => items,
    write: async (trx, items, { page }) => {
      const rows = items.map((i) => toProjectRow(i.record, i.raw));
      await retireReplaced(trx, 'projects', rows);
      return upsertIsolating(trx, rows, upsertProjects, () => ({
        resource: 'projects',
        url: page.url,
      }));
    },
    committed: (items) => refs.push(...items.map((i) => toRef(i.record))),
  } satisfies Stream<WeblateProject, unknown, Array<Item<WeblateProject>>>;
}

/**
 * Mirrors the projects in scope. With WEBLATE_PROJECTS set, each project is read by slug
 * (fewer requests than listing a large instance); otherwise /api/projects/ is walked, and
 * once it is complete, projects it no longer lists are marked deleted.
 */
export async function syncProjects(ctx: SyncContext): Promise<ProjectRef[]> {
  const refs: ProjectRef[] = [];
  if (ctx.scope.projects === null) {
    const listing = new Listing();
    await runStream(
      ctx,
      listRead('projects/', PAGE_SIZE.standard, { sideBySide: true }),
      projectStream(ctx, refs, listing),
    );
    await markUnlisted(ctx, listing, 'projects', null);
    return refs;
  }
  for (const slug of ctx.scope.projects) {
    const url = `projects/${encodeURIComponent(slug)}/`;
    await runStream(ctx, objectRead(url), {
      ...projectStream(ctx, refs),
      notFound: { refuse: () => markProjectGone(ctx, slug) },
    });
  }
  return refs;
}

/**
 * Reads one project by URL, for a component that discovery from changes found in a project
 * the mirror does not hold; null when it answers 404 (deleted since).
 */
export async function readProject(ctx: SyncContext, url: string): Promise<ProjectRef | null> {
  const refs: ProjectRef[] = [];
  await runStream(ctx, objectRead(url), {
    ...projectStream(ctx, refs),
    notFound: {
      skip: {
        event: 'project named by a change gone',
        message: `project ${url}, which a new component names, answers 404: not mirrored`,
      },
    },
  });
  return refs[0] ?? null;
}

/**
 * A configured project that answers 404: marked deleted if it was mirrored (null), else
 * what is wrong with the configuration.
 */
async function markProjectGone(ctx: SyncContext, slug: string): Promise<string | null> {
  const known = await sql<{ id: number }>`
    select id from weblate.projects where slug = ${slug} and deleted_at is null`.execute(ctx.db);
  const id = known.rows[0]?.id;
  if (id === undefined) {
    return `WEBLATE_PROJECTS names "${slug}", but ${ctx.client.apiRoot.href} has no such project visible to this token`;
  }
  await markGone(ctx.db, 'projects', id);
  ctx.warn(
    'listed object gone: marked deleted',
    `project ${slug} answers 404: marked deleted (its history stays in the mirror)`,
    { table: 'projects', id },
  );
  return null;
}

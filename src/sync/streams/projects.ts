import type { RawJson } from '../../db/database.ts';
import { type ProjectRow, upsertProjects } from '../../db/queries/records.ts';
import { HttpError, SyncError } from '../../errors.ts';
import { type WeblateProject, weblateProject } from '../../weblate/schemas.ts';
import type { SyncContext } from '../context.ts';
import { type Item, PAGE_SIZE, readObject, readPages } from '../read.ts';

export interface ProjectRef {
  id: number;
  slug: string;
  componentsUrl: string;
  changesUrl: string;
}

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
    raw,
  };
}

function toRef(record: WeblateProject): ProjectRef {
  const base = `projects/${encodeURIComponent(record.slug)}/`;
  return {
    id: record.id,
    slug: record.slug,
    componentsUrl: record.components_list_url ?? `${base}components/`,
    changesUrl: record.changes_list_url ?? `${base}changes/`,
  };
}

/**
 * Mirrors the projects in scope. With WEBLATE_PROJECTS set, each project is read by slug
 * (fewer requests than listing a large instance, and a clear error for a wrong slug);
 * otherwise /api/projects/ is walked.
 */
export async function syncProjects(ctx: SyncContext): Promise<ProjectRef[]> {
  const items: Array<Item<WeblateProject>> = [];
  if (ctx.scope.projects === null) {
    const pages = readPages(ctx, 'projects/', {
      resource: 'projects',
      schema: weblateProject,
      pageSize: PAGE_SIZE.standard,
    });
    for await (const page of pages) items.push(...page.items);
  } else {
    for (const slug of ctx.scope.projects) items.push(await readProject(ctx, slug));
  }
  ctx.tally.wrote(
    'projects',
    await upsertProjects(
      ctx.db,
      items.map((i) => toProjectRow(i.record, i.raw)),
    ),
  );
  return items.map((i) => toRef(i.record));
}

async function readProject(ctx: SyncContext, slug: string) {
  try {
    return await readObject(ctx, `projects/${encodeURIComponent(slug)}/`, {
      resource: 'projects',
      schema: weblateProject,
    });
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) {
      throw new SyncError(
        `WEBLATE_PROJECTS names "${slug}", but ${ctx.client.apiRoot.href} has no such project visible to this token`,
        { cause: err },
      );
    }
    throw err;
  }
}

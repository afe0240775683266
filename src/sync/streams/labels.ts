import type { Kysely } from 'kysely';

import type { Database, RawJson } from '../../db/database.ts';
import {
  type CategoryRow,
  type LabelRow,
  upsertCategories,
  upsertLabels,
} from '../../db/queries/records.ts';
import {
  type WeblateCategory,
  weblateCategory,
  type WeblateLabel,
  weblateLabel,
} from '../../weblate/schemas.ts';
import { categoryIdFromUrl, projectSlugFromUrl } from '../../weblate/urls.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { Listing, markUnlisted } from '../listing.ts';
import { listRead, PAGE_SIZE } from '../reads.ts';
import type { ProjectRef } from '../refs.ts';
import { runStream, type Stream } from '../run-stream.ts';

// Projects' categories (nested: a category may sit in another) and labels. They log no
// change when created or edited, so they are read with the discovery lists; between those,
// a change that removes, renames or moves a category has its project's categories read
// again (see discovery.ts). The labels a unit carries come with the unit's record
// (weblate.unit_labels follows units.labels, migration 0011).

/** Transforms one category record of `project` into its row (pure). */
export function toCategoryRow(
  record: WeblateCategory,
  raw: RawJson,
  project: ProjectRef,
): CategoryRow {
  return {
    id: record.id,
    project_id: project.id,
    project_slug: project.slug,
    slug: record.slug,
    name: record.name,
    parent_id: categoryIdFromUrl(record.category),
    url: record.url ?? null,
    statistics_url: record.statistics_url ?? null,
    deleted_at: null,
    raw,
  };
}

/** Transforms one label record of `project` into its row (pure). */
export function toLabelRow(record: WeblateLabel, raw: RawJson, project: ProjectRef): LabelRow {
  return {
    id: record.id,
    project_id: project.id,
    project_slug: project.slug,
    name: record.name,
    color: record.color ?? null,
    description: record.description ?? null,
    deleted_at: null,
    raw,
  };
}

/** What a list of a project's objects needs: its path, record shape, row and upsert. */
interface ProjectList<R, Row> {
  resource: 'categories' | 'labels';
  path: (project: ProjectRef) => string;
  schema: Stream<R, unknown, Row[]>['schema'];
  toRow: (record: R, raw: RawJson, project: ProjectRef) => Row;
  upsert: (db: Kysely<Database>, rows: Row[]) => Promise<number>;
}

const projectPath = (project: ProjectRef) => `projects/${encodeURIComponent(project.slug)}/`;

const CATEGORIES: ProjectList<WeblateCategory, CategoryRow> = {
  resource: 'categories',
  path: (project) => `${projectPath(project)}categories/`,
  schema: weblateCategory,
  toRow: toCategoryRow,
  upsert: upsertCategories,
};

const LABELS: ProjectList<WeblateLabel, LabelRow> = {
  resource: 'labels',
  path: (project) => `${projectPath(project)}labels/`,
  schema: weblateLabel,
  toRow: toLabelRow,
  upsert: upsertLabels,
};

/**
 * Mirrors the categories and labels of `projects`: each project's label list, and the
 * categories from the global /api/categories/ when every project is in scope (`global`:
 * one request per 1000 categories), else each project's list. A complete listing marks
 * what it no longer has deleted.
 */
export async function syncCategoriesAndLabels(
  ctx: SyncContext,
  projects: readonly ProjectRef[],
  { global }: { global: boolean },
): Promise<void> {
  if (global) await syncAllCategories(ctx, projects);
  else for (const project of projects) await syncProjectList(ctx, CATEGORIES, project);
  for (const project of projects) await syncProjectList(ctx, LABELS, project);
}

/**
 * Reads one project's categories (`categories`: a change removed, renamed or moved one) or
 * labels (a label was added to a string: it may be new) again.
 */
export async function syncProjectListAgain(
  ctx: SyncContext,
  project: ProjectRef,
  which: 'categories' | 'labels',
): Promise<void> {
  if (which === 'categories') await syncProjectList(ctx, CATEGORIES, project);
  else await syncProjectList(ctx, LABELS, project);
}

async function syncProjectList<R, Row extends { raw: RawJson }>(
  ctx: SyncContext,
  list: ProjectList<R, Row>,
  project: ProjectRef,
): Promise<void> {
  const listing = new Listing();
  const complete = await runStream(ctx, listRead(list.path(project), PAGE_SIZE.standard), {
    ...listStream(list, () => project, listing),
    // A project deleted meanwhile is the components list's to notice, before this one.
    notFound: {
      skip: {
        event: 'project list gone',
        message: `${list.resource} of project ${project.slug} answer 404: not mirrored in this run`,
      },
    },
  });
  const scope = { column: 'project_id', value: String(project.id) };
  if (complete) await markUnlisted(ctx, listing, list.resource, scope);
}

/** Every project's categories from one list; a category of a project not stored waits. */
export async function syncAllCategories(
  ctx: SyncContext,
  projects: readonly ProjectRef[],
): Promise<void> {
  const bySlug = new Map(projects.map((p) => [p.slug, p]));
  const listing = new Listing();
  const projectOf = (record: WeblateCategory) => {
    const project = bySlug.get(projectSlugFromUrl(record.project) ?? '');
    if (project !== undefined) return project;
    ctx.warn(
      'category of a project not stored: skipped',
      `category ${record.id} belongs to a project this sync did not store: not mirrored in this run`,
    );
    return null;
  };
  const source = listRead('categories/', PAGE_SIZE.standard, { sideBySide: true });
  await runStream(ctx, source, listStream(CATEGORIES, projectOf, listing));
  await markUnlisted(ctx, listing, 'categories', null);
}

function listStream<R, Row extends { raw: RawJson }>(
  list: ProjectList<R, Row>,
  projectOf: (record: R) => ProjectRef | null,
  listing: Listing,
) {
  return {
    resource: list.resource,
    schema: list.schema,
    listing,
    prepare: ({ items }) => {
      const rows: Row[] = [];
      for (const item of items) {
        const project = projectOf(item.record);
        if (project !== null) rows.push(list.toRow(item.record, item.raw, project));
      }
      return rows;
    },
    write: (trx, rows, { page }) =>
      upsertIsolating(trx, rows, list.upsert, () => ({ resource: list.resource, url: page.url })),
  } satisfies Stream<R, unknown, Row[]>;
}

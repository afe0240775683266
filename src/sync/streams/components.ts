import type { Kysely } from 'kysely';

import type { Database, RawJson } from '../../db/database.ts';
import { retireReplaced } from '../../db/queries/deletions.ts';
import { type ComponentRow, upsertComponents } from '../../db/queries/records.ts';
import { pickNullable } from '../../lib/pick.ts';
import { type WeblateComponent, weblateComponent } from '../../weblate/schemas.ts';
import { categoryIdFromUrl } from '../../weblate/urls.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { Listing, markUnlisted } from '../listing.ts';
import { learnComponent } from '../mirrored.ts';
import { listRead, objectRead, PAGE_SIZE } from '../reads.ts';
import { type ComponentRef, componentRef, type ProjectRef } from '../refs.ts';
import { runStream, type Stream } from '../run-stream.ts';

/** Transforms one component record of `project` into its row (pure). */
export function toComponentRow(
  record: WeblateComponent,
  raw: RawJson,
  project: ProjectRef,
): ComponentRow {
  const { id, slug, name } = record;
  return {
    id,
    project_id: project.id,
    project_slug: project.slug,
    slug,
    name,
    source_language_code: record.source_language?.code ?? null,
    category_id: categoryIdFromUrl(record.category),
    ...pickNullable(record, COMPONENT_FIELDS),
    deleted_at: null,
    raw,
  };
}

// Fields copied one to one from the API record into columns of the same name.
const COMPONENT_FIELDS = [
  'vcs',
  'repo',
  'git_export',
  'branch',
  'push_branch',
  'filemask',
  'screenshot_filemask',
  'template',
  'edit_template',
  'intermediate',
  'new_base',
  'file_format',
  'license',
  'license_url',
  'agreement',
  'web_url',
  'url',
  'repository_url',
  'translations_url',
  'statistics_url',
  'lock_url',
  'links_url',
  'changes_list_url',
  'task_url',
  'new_lang',
  'language_code_style',
  'push',
  'check_flags',
  'priority',
  'enforced_checks',
  'restricted',
  'repoweb',
  'report_source_bugs',
  'merge_style',
  'commit_message',
  'add_message',
  'delete_message',
  'merge_message',
  'addon_message',
  'pull_message',
  'allow_translation_propagation',
  'manage_units',
  'enable_suggestions',
  'suggestion_voting',
  'suggestion_autoaccept',
  'push_on_commit',
  'commit_pending_age',
  'auto_lock_error',
  'language_regex',
  'variant_regex',
  'addons',
  'is_glossary',
  'glossary_color',
  'category',
  'linked_component',
] as const satisfies ReadonlyArray<keyof WeblateComponent & keyof ComponentRow>;

function toRef(record: WeblateComponent, project: ProjectRef): ComponentRef {
  return componentRef(
    {
      id: record.id,
      slug: record.slug,
      url: record.url,
      translationsUrl: record.translations_url,
      statisticsUrl: record.statistics_url,
    },
    project,
  );
}

/**
 * Mirrors the components in scope: the global /api/components/ when every project is in
 * scope (one request per 1000 components), else each project's list. A complete listing
 * marks the components it no longer has as deleted; a project whose list answers 404 was
 * deleted meanwhile (marked so, with its components).
 */
export async function syncComponents(
  ctx: SyncContext,
  projects: ProjectRef[],
): Promise<ComponentRef[]> {
  const refs: ComponentRef[] = [];
  if (ctx.scope.projects === null) {
    const byId = new Map(projects.map((p) => [p.id, p]));
    const listing = new Listing();
    const stream = componentStream(
      ctx,
      (record) => byId.get(record.project?.id ?? -1) ?? null,
      refs,
      listing,
    );
    await runStream(ctx, listRead('components/', PAGE_SIZE.standard, { sideBySide: true }), stream);
    await markUnlisted(ctx, listing, 'components', null);
    return refs;
  }
  for (const project of projects) {
    const listing = new Listing();
    const stream = componentStream(ctx, () => project, refs, listing);
    const complete = await runStream(ctx, listRead(project.componentsUrl, PAGE_SIZE.standard), {
      ...stream,
      notFound: { gone: { table: 'projects', id: project.id, label: `project ${project.slug}` } },
    });
    const scope = { column: 'project_slug', value: project.slug };
    if (complete) await markUnlisted(ctx, listing, 'components', scope);
  }
  return refs;
}

/**
 * Reads one component by URL (one that changes name), placed in its project by `project`;
 * null when it answers 404: a component the mirror holds (`known`) is then marked deleted
 * with its translations, an unknown one is only reported.
 */
export async function readComponent(
  ctx: SyncContext,
  url: string,
  project: ProjectRef,
  known: ComponentRef | undefined,
): Promise<ComponentRef | null> {
  const refs: ComponentRef[] = [];
  const label = `component ${url}`;
  await runStream(ctx, objectRead(url), {
    ...componentStream(ctx, () => project, refs, new Listing()),
    notFound:
      known === undefined
        ? {
            skip: {
              event: 'component named by a change gone',
              message: `${label}, which a change names, answers 404: not mirrored`,
            },
          }
        : { gone: { table: 'components', id: known.id, label } },
  });
  return refs[0] ?? null;
}

/**
 * The components stream: each record is placed in its project (one this sync stored, else it
 * waits for the next sync) and the lookup learns it as its page is prepared, before the
 * translations that name it.
 */
function componentStream(
  ctx: SyncContext,
  projectOf: (record: WeblateComponent) => ProjectRef | null,
  refs: ComponentRef[],
  listing: Listing,
) {
  return {
    resource: 'components',
    schema: weblateComponent,
    isDiscovery: true,
    listing,
    prepare: ({ items }) => {
      const rows: ComponentRow[] = [];
      for (const item of items) {
        const project = projectOf(item.record);
        if (project === null) {
          ctx.warn(
            'component of a project not stored: skipped',
            `component ${item.record.slug} belongs to a project this sync did not store (it appeared during the sync, or its record was rejected): not mirrored in this run`,
          );
          continue;
        }
        refs.push(learnComponent(ctx.lookup, toRef(item.record, project)));
        rows.push(toComponentRow(item.record, item.raw, project));
      }
      return rows;
    },
    write: async (trx, rows, { page }) => {
      await retireReplaced(trx, 'components', rows);
      // A component's own record nests its project, a project's component list does not: with
      // WEBLATE_PROJECTS (those lists), raw stays as those lists give it.
      const shape = ctx.scope.projects === null ? null : { without: ['project'] };
      const upsert = (db: Kysely<Database>, batch: ComponentRow[]) =>
        upsertComponents(db, batch, shape);
      return upsertIsolating(trx, rows, upsert, () => ({
        resource: 'components',
        url: page.url,
      }));
    },
  } satisfies Stream<WeblateComponent, unknown, ComponentRow[]>;
}

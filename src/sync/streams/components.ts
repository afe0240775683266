import type { RawJson } from '../../db/database.ts';
import { type ComponentRow, upsertComponents } from '../../db/queries/records.ts';
import { pickNullable } from '../../lib/pick.ts';
import { type WeblateComponent, weblateComponent } from '../../weblate/schemas.ts';
import type { SyncContext } from '../context.ts';
import { PAGE_SIZE, readPages } from '../read.ts';
import type { ProjectRef } from './projects.ts';

export interface ComponentRef {
  id: number;
  slug: string;
  projectSlug: string;
  url: string | null;
  translationsUrl: string;
}

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
    ...pickNullable(record, COMPONENT_FIELDS),
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

/** Mirrors one project's components; returns them for the translation walk. */
export async function syncComponents(
  ctx: SyncContext,
  project: ProjectRef,
): Promise<ComponentRef[]> {
  const refs: ComponentRef[] = [];
  const pages = readPages(ctx, project.componentsUrl, {
    resource: 'components',
    schema: weblateComponent,
    pageSize: PAGE_SIZE.standard,
  });
  for await (const { items } of pages) {
    for (const { record } of items) {
      const base = `components/${encodeURIComponent(project.slug)}/${encodeURIComponent(record.slug)}/`;
      refs.push({
        id: record.id,
        slug: record.slug,
        projectSlug: project.slug,
        url: record.url ?? null,
        translationsUrl: record.translations_url ?? `${base}translations/`,
      });
    }
    const rows = items.map((i) => toComponentRow(i.record, i.raw, project));
    ctx.tally.wrote('components', await upsertComponents(ctx.db, rows));
  }
  return refs;
}

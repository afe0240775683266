import { type Kysely, type Selectable, sql } from 'kysely';

import type { ChangesTable, Database } from '../db/database.ts';
import { discoveryDone } from '../db/queries/pending-lifecycle.ts';
import { pending } from '../db/queries/sync-state.ts';
import { forEachConcurrently } from '../lib/task-group.ts';
import { componentPathFromUrl, urlKey } from '../weblate/urls.ts';
import { commitState } from './commit.ts';
import type { SyncContext } from './context.ts';
import type { ComponentRef, Lookup, ProjectRef } from './refs.ts';
import { attributeChange } from './streams/changes.ts';
import { readComponent } from './streams/components.ts';
import { syncAllCategories, syncProjectListAgain } from './streams/labels.ts';
import { syncLanguages } from './streams/languages.ts';
import { readProject } from './streams/projects.ts';
import { syncComponentTranslations } from './streams/translations.ts';

// Discovery: which projects, components, translations and languages exist. A complete read
// of their lists (the first sync, `sync --full`, the reconcile job, and an incremental sync
// once the discovery interval has passed) is what notices deletions and edits that log no
// change. In between, an incremental sync discovers from the changes it reads: the
// components and translations they name, new or moved (see discoverFromChanges).

/** The default discovery interval of the CLI and the worker (WEBLATE_DISCOVERY_INTERVAL_SECONDS). */
export const DEFAULT_DISCOVERY_INTERVAL_SECONDS = 3600;

/**
 * Actions after which a component's own record is read again: its settings, name, place,
 * license, agreement, add-ons or lock changed, or it was just created.
 */
const COMPONENT_RECORD_ACTIONS = new Set([14, 15, 42, 43, 51, 55, 56, 60, 61, 62]);

interface Named {
  /** The component's API URL, as the change (or its translation's URL) gives it. */
  url: string;
  refreshRecord: boolean;
}

/**
 * Discovery from the changes new to the mirror (docs/architecture.md#discovery); with `listed`,
 * only what this run's lists did not show, with `webhooks`, noting pending.recheckTranslations.
 */
export async function discoverFromChanges(
  ctx: SyncContext,
  controller: AbortController,
  projects: ProjectRef[],
  { listed, webhooks }: { listed: boolean; webhooks: boolean },
): Promise<void> {
  const ids = await pending.newChanges.list(ctx.db);
  const recheck = webhooks ? [] : await pending.recheckTranslations.list(ctx.db);
  if (ids.length === 0 && recheck.length === 0) return;
  const changes = await pendingChanges(ctx, ids);
  const named = namedComponents(changes);
  // A translation gone or out of scope is not in the lookup: nothing to read again.
  for (const id of recheck) {
    const url = ctx.lookup.translationsById.get(Number(id))?.component.url;
    if (url !== undefined && url !== null) addNamed(named, url);
  }
  const projectsBySlug = new Map(projects.map((p) => [p.slug, p]));
  const inScope = (n: Named) => {
    const slug = componentPathFromUrl(n.url)?.project;
    return ctx.scope.projects === null || (slug !== undefined && ctx.scope.projects.includes(slug));
  };
  // A change may name a component of a project outside WEBLATE_PROJECTS (one moved away).
  const read = [...named.values()].filter(
    (n) => inScope(n) && (!listed || !ctx.lookup.componentsByUrl.has(urlKey(n.url))),
  );
  // Projects first, one read each, so that components of one new project do not race for it.
  for (const n of read) {
    const slug = componentPathFromUrl(n.url)?.project;
    if (slug === undefined || projectsBySlug.has(slug)) continue;
    if (ctx.lookup.componentsByUrl.has(urlKey(n.url))) continue;
    const project = await readProject(ctx, projectUrl(n.url, slug));
    if (project !== null) projectsBySlug.set(slug, project);
  }
  await forEachConcurrently(read, controller, async (n) => {
    const component = await componentOf(ctx, n, projectsBySlug);
    if (component !== null) await syncComponentTranslations(ctx, component);
  });
  if (!listed) await readProjectListsNamed(ctx, changes, projectsBySlug);
  if (await hasUnknownLanguage(ctx)) await syncLanguages(ctx);
  await commitState(ctx, 'changes', async (trx) => {
    const { written, translations } = await attributeAgain(trx, changes, ctx.lookup);
    const transitions = discoveryDone(ids, {
      recheckRead: recheck,
      reread: translations,
      webhooks,
    });
    return { written, transitions };
  });
}

/**
 * Actions after which a project's list is read again: a category removed, renamed or
 * moved (67–69); a label added to a string (86, Weblate 2026.x), which may be a new label.
 */
const PROJECT_LIST_ACTIONS = new Map<number, 'categories' | 'labels'>([
  [67, 'categories'],
  [68, 'categories'],
  [69, 'categories'],
  [86, 'labels'],
]);

/**
 * Reads once each the category and label lists of the projects the changes name so. The
 * global change list names no project for a change on a category (it has no component):
 * with every project in scope, the global category list is read then.
 */
async function readProjectListsNamed(
  ctx: SyncContext,
  changes: PendingChange[],
  projectsBySlug: Map<string, ProjectRef>,
): Promise<void> {
  const named = new Map<string, { project: ProjectRef; which: 'categories' | 'labels' }>();
  let allCategories = false;
  for (const change of changes) {
    const which = PROJECT_LIST_ACTIONS.get(change.action);
    if (which === undefined) continue;
    const project = projectsBySlug.get(change.project_slug ?? '');
    if (project !== undefined) named.set(`${which}/${project.slug}`, { project, which });
    else if (which === 'categories' && change.project_slug === null)
      allCategories ||= ctx.scope.projects === null;
  }
  if (allCategories) await syncAllCategories(ctx, [...projectsBySlug.values()]);
  for (const { project, which } of named.values()) {
    if (!allCategories || which === 'labels') await syncProjectListAgain(ctx, project, which);
  }
}

type PendingChange = Pick<
  Selectable<ChangesTable>,
  | 'id'
  | 'action'
  | 'component_url'
  | 'translation_url'
  | 'translation_id'
  | 'component_id'
  | 'project_slug'
  | 'component_slug'
  | 'language_code'
>;

const ATTRIBUTION = [
  'translation_id',
  'component_id',
  'project_slug',
  'component_slug',
  'language_code',
] as const;

async function pendingChanges(ctx: SyncContext, ids: string[]): Promise<PendingChange[]> {
  const rows: PendingChange[] = [];
  for (let i = 0; i < ids.length; i += 5000) {
    rows.push(
      ...(await ctx.db
        .selectFrom('weblate.changes')
        .select(['id', 'action', 'component_url', 'translation_url', ...ATTRIBUTION])
        .where('id', 'in', ids.slice(i, i + 5000))
        .execute()),
    );
  }
  return rows;
}

/**
 * A change stored before discovery read the objects it names (a new component, a new
 * translation) is attributed to them now, as a full sync would have; the project it was
 * attributed to stays. Returns the rows updated and the translations the changes name.
 */
async function attributeAgain(
  db: Kysely<Database>,
  changes: PendingChange[],
  lookup: Lookup,
): Promise<{ written: number; translations: number[] }> {
  let written = 0;
  const translations = new Set<number>();
  for (const change of changes) {
    const urls = { translation: change.translation_url, component: change.component_url };
    const now = attributeChange(urls, null, lookup);
    now.project_slug = change.project_slug ?? now.project_slug;
    if (now.translation_id !== null) translations.add(now.translation_id);
    if (ATTRIBUTION.every((column) => String(now[column]) === String(change[column]))) continue;
    await db
      .updateTable('weblate.changes')
      .set({ ...now, updated_at: sql`now()` })
      .where('id', '=', change.id)
      .execute();
    written += 1;
  }
  return { written, translations: [...translations] };
}

/** The components that the changes name, by URL key. */
function namedComponents(changes: PendingChange[]): Map<string, Named> {
  const named = new Map<string, Named>();
  for (const change of changes) {
    const url = change.component_url ?? componentUrlOf(change.translation_url);
    if (url !== null) addNamed(named, url, COMPONENT_RECORD_ACTIONS.has(change.action));
  }
  return named;
}

function addNamed(named: Map<string, Named>, url: string, refreshRecord = false): void {
  const key = urlKey(url);
  const seen = named.get(key);
  named.set(key, { url, refreshRecord: refreshRecord || (seen?.refreshRecord ?? false) });
}

/** The component a change names, read again when it is new to the mirror or its record moved. */
async function componentOf(
  ctx: SyncContext,
  named: Named,
  projectsBySlug: Map<string, ProjectRef>,
): Promise<ComponentRef | null> {
  const known = ctx.lookup.componentsByUrl.get(urlKey(named.url));
  if (known !== undefined && !named.refreshRecord) return known;
  const slug = componentPathFromUrl(named.url)?.project;
  const project = slug === undefined ? undefined : projectsBySlug.get(slug);
  if (project === undefined) return known ?? null;
  return readComponent(ctx, named.url, project, known);
}

/** `…/api/translations/<p>/<c>/<language>/` → `…/api/components/<p>/<c>/`, encoded as sent. */
export function componentUrlOf(translationUrl: string | null): string | null {
  if (translationUrl === null) return null;
  let url: URL;
  try {
    url = new URL(translationUrl);
  } catch {
    return null;
  }
  const match = /^(.*\/api\/)translations\/([^/]+)\/([^/]+)\/[^/]+\/?$/.exec(url.pathname);
  if (match === null) return null;
  return new URL(`${match[1]}components/${match[2]}/${match[3]}/`, url.origin).href;
}

/** `…/api/components/<p>/<c>/` → `…/api/projects/<p>/`. */
function projectUrl(componentUrl: string, slug: string): string {
  const url = new URL(componentUrl);
  const root = url.pathname.slice(0, url.pathname.indexOf('/api/') + '/api/'.length);
  return new URL(`${root}projects/${encodeURIComponent(slug)}/`, url.origin).href;
}

/** Whether a live translation names a language the mirror does not hold. */
async function hasUnknownLanguage(ctx: SyncContext): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('weblate.translations as t')
    .leftJoin('weblate.languages as l', 'l.id', 't.language_id')
    .select('t.id')
    .where('t.deleted_at', 'is', null)
    .where('t.language_id', 'is not', null)
    .where('l.id', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

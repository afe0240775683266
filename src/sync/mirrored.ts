import {
  listLiveComponents,
  listLiveProjects,
  type LiveComponent,
  type LiveProject,
} from '../db/queries/live-objects.ts';
import { listLiveTranslations, type LiveTranslation } from '../db/queries/translation-state.ts';
import { urlKey } from '../weblate/urls.ts';
import type { SyncContext } from './context.ts';
import {
  type ComponentRef,
  componentRef,
  type Lookup,
  type ProjectRef,
  projectRef,
  type TranslationRef,
  translationRef,
} from './refs.ts';

// References built from the mirrored rows rather than from this run's discovery lists: for
// a sync whose discovery is not due (see discovery.ts) and for a statistics snapshot.

export interface Mirrored {
  projects: ProjectRef[];
  translations: TranslationRef[];
  /** Each language's statistics URL by code, for the languages of the translations. */
  languageUrls: Map<string, string | null>;
}

/** The live projects, components and translations in scope, learnt by `ctx.lookup` too. */
export async function loadMirrored(ctx: SyncContext): Promise<Mirrored> {
  const scope = ctx.scope.projects;
  const projects = (await listLiveProjects(ctx.db, scope)).map(projectRefOf);
  const components = new Map(
    (await listLiveComponents(ctx.db, scope)).map((row) => [row.id, componentRefOf(row)]),
  );
  const live = await listLiveTranslations(ctx.db, scope);
  const translations = toTranslationRefs(live, components);
  for (const component of components.values()) learnComponent(ctx.lookup, component);
  for (const translation of translations) learnTranslation(ctx.lookup, translation);
  return { projects, translations, languageUrls: languageUrlsOf(live, translations) };
}

/** The lookup learns a component: by id, and by URL when the server sent one. */
export function learnComponent(lookup: Lookup, ref: ComponentRef): ComponentRef {
  lookup.componentsById.set(ref.id, ref);
  if (ref.url !== null) lookup.componentsByUrl.set(urlKey(ref.url), ref);
  return ref;
}

/** The lookup learns a translation, by id and by URL. */
export function learnTranslation(lookup: Lookup, ref: TranslationRef): TranslationRef {
  lookup.translationsById.set(ref.id, ref);
  lookup.translationsByUrl.set(urlKey(ref.url), ref);
  return ref;
}

function projectRefOf(row: LiveProject): ProjectRef {
  return projectRef({
    id: row.id,
    slug: row.slug,
    componentsUrl: row.components_list_url,
    changesUrl: row.changes_list_url,
  });
}

function componentRefOf(row: LiveComponent): ComponentRef {
  return componentRef(
    {
      id: row.id,
      slug: row.slug,
      url: row.url,
      translationsUrl: row.translations_url,
      statisticsUrl: row.statistics_url,
    },
    { id: row.project_id, slug: row.project_slug },
  );
}

/**
 * References as discovery would have built them, from the mirrored rows; one ComponentRef
 * object per component (snapshots group by it), taken from `components` where given.
 */
export function toTranslationRefs(
  rows: readonly LiveTranslation[],
  components = new Map<number, ComponentRef>(),
): TranslationRef[] {
  return rows.map((row) => {
    let component = components.get(row.component_id);
    if (component === undefined) {
      component = componentRefOf({
        id: row.component_id,
        slug: row.component_slug,
        project_id: row.project_id,
        project_slug: row.project_slug,
        url: row.component_url,
        translations_url: row.component_translations_url,
        statistics_url: row.component_statistics_url,
      });
      components.set(row.component_id, component);
    }
    const path = `${encodeURIComponent(row.project_slug)}/${encodeURIComponent(row.component_slug)}/`;
    const url = row.url ?? `translations/${path}${encodeURIComponent(row.language_code)}/`;
    return translationRef({
      id: row.id,
      url,
      languageCode: row.language_code,
      language: row.language ?? row.language_code,
      component,
      total: row.total,
      unitsUrl: row.units_list_url ?? `${url}units/`,
      statisticsUrl: row.statistics_url ?? `${url}statistics/`,
    });
  });
}

/** Each language's statistics URL by code (a mirrored URL wins over none). */
export function languageUrlsOf(
  rows: readonly LiveTranslation[],
  translations: readonly TranslationRef[],
): Map<string, string | null> {
  const languageUrls = new Map<string, string | null>();
  for (const [i, row] of rows.entries()) {
    const code = translations[i]!.language;
    if (!languageUrls.has(code) || row.language_statistics_url !== null)
      languageUrls.set(code, row.language_statistics_url);
  }
  return languageUrls;
}

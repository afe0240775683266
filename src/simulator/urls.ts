import type {
  SimComponent,
  SimInstance,
  SimLanguage,
  SimProject,
  SimTranslation,
} from './model.ts';
import { DEFAULT_RELEASE, type Release } from './release.ts';
import { lastParam, type SimRequest } from './responses.ts';

/**
 * What every absolute link of an answer is built from. `site` is Weblate's site URL, with a
 * trailing slash: its ProxyMiddleware makes `build_absolute_uri` use SITE_DOMAIN and
 * ENABLE_HTTPS, never the request's Host (weblate/middleware.py). `format` is the request's
 * `format` parameter, which DRF's `reverse` repeats in every API link
 * (preserve_builtin_query_params) and which web links never carry.
 */
export interface LinkBase {
  site: string;
  format: string | null;
  /** The release whose record shapes to render (release.ts). */
  release: Release;
}

/**
 * Links of a request without `format` (as the mirror sends them) to the site `site`, in the
 * records of `release`.
 */
export function siteLinks(site: string, release: Release = DEFAULT_RELEASE): LinkBase {
  return { site, format: null, release };
}

export function linkBaseOf(request: SimRequest): LinkBase {
  return {
    site: request.baseUrl,
    format: lastParam(request.url, 'format'),
    release: request.release ?? DEFAULT_RELEASE,
  };
}

/** Python's `quote_plus`: only letters, digits and `_.-~` stay; space becomes `+`. */
export function quotePlus(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** An API link, e.g. `apiUrl(base, 'units/1/')`. */
export function apiUrl(base: LinkBase, path: string): string {
  const query = base.format === null ? '' : `?format=${quotePlus(base.format)}`;
  return `${base.site}api/${path}${query}`;
}

const segment = (text: string): string => encodeURIComponent(text);

export function projectPath(project: SimProject): string {
  return `${segment(project.slug)}/`;
}

export function componentPath(instance: SimInstance, component: SimComponent): string {
  const project = instance.index.projectById.get(component.projectId);
  return `${segment(project?.slug ?? '')}/${segment(component.slug)}/`;
}

export function translationPath(instance: SimInstance, translation: SimTranslation): string {
  const component = instance.index.componentById.get(translation.componentId);
  const language = instance.index.languageById.get(translation.languageId);
  const prefix = component === undefined ? '' : componentPath(instance, component);
  return `${prefix}${segment(language?.code ?? '')}/`;
}

export function languagePath(language: SimLanguage): string {
  return `${segment(language.code)}/`;
}

export function userApiUrl(base: LinkBase, username: string | null): string | null {
  return username === null ? null : apiUrl(base, `users/${segment(username)}/`);
}

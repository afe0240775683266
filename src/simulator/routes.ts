import type { Handler } from './handlers-catalog.ts';
import * as catalog from './handlers-catalog.ts';
import * as labels from './handlers-labels.ts';
import * as records from './handlers-records.ts';
import type { SimInstance } from './model.ts';
import { clientError, notFound, ok, type SimRequest, type SimResponse } from './responses.ts';

interface Route {
  pattern: RegExp;
  /** The Allow header Weblate's view sends (spec endpoint table; DRF's allowed methods). */
  allow: string;
  handler: Handler;
}

const READ = 'GET, HEAD, OPTIONS';
const LIST_CREATE = 'GET, POST, HEAD, OPTIONS';
const DETAIL_EDIT = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
const P = '([^/]+)';

function route(path: string, allow: string, handler: Handler): Route {
  return { pattern: new RegExp(`^/api/${path}$`), allow, handler };
}

/** Paths end with a slash; without it Weblate (≥ 4.7) answers 404, so no pattern matches. */
export const ROUTES: readonly Route[] = [
  route('', READ, catalog.apiRoot),
  route('projects/', LIST_CREATE, catalog.listProjects),
  route(`projects/${P}/`, DETAIL_EDIT, catalog.getProject),
  route(`projects/${P}/components/`, LIST_CREATE, catalog.listProjectComponents),
  route(`projects/${P}/changes/`, READ, records.listProjectChanges),
  route(`projects/${P}/statistics/`, READ, records.projectStatistics),
  route(`projects/${P}/categories/`, READ, labels.listProjectCategories),
  route(`projects/${P}/labels/`, LIST_CREATE, labels.listProjectLabels),
  route('categories/', LIST_CREATE, labels.listCategories),
  route('categories/([0-9]+)/', DETAIL_EDIT, labels.getCategory),
  route('components/', READ, catalog.listComponents),
  route(`components/${P}/${P}/`, DETAIL_EDIT, catalog.getComponent),
  route(`components/${P}/${P}/translations/`, LIST_CREATE, catalog.listComponentTranslations),
  route(`components/${P}/${P}/changes/`, READ, records.listComponentChanges),
  route(`components/${P}/${P}/statistics/`, READ, records.componentStatistics),
  route('translations/', READ, catalog.listTranslations),
  route(`translations/${P}/${P}/${P}/`, 'GET, DELETE, HEAD, OPTIONS', catalog.getTranslation),
  route(`translations/${P}/${P}/${P}/units/`, LIST_CREATE, records.listTranslationUnits),
  route(`translations/${P}/${P}/${P}/changes/`, READ, records.listTranslationChanges),
  route(`translations/${P}/${P}/${P}/statistics/`, READ, records.translationStatistics),
  route('languages/', LIST_CREATE, catalog.listLanguages),
  route(`languages/${P}/`, DETAIL_EDIT, catalog.getLanguage),
  route(`languages/${P}/statistics/`, READ, records.languageStatistics),
  route('units/', READ, records.listUnits),
  route(`units/${P}/`, DETAIL_EDIT, records.getUnit),
  route('changes/', READ, records.listChanges),
  route(`changes/${P}/`, READ, records.getChange),
  route(`users/${P}/`, DETAIL_EDIT, catalog.getUser),
  route(`users/${P}/notifications/`, LIST_CREATE, catalog.listNotifications),
];

function matchRoute(pathname: string): { route: Route; params: string[] } | null {
  for (const candidate of ROUTES) {
    const match = candidate.pattern.exec(pathname);
    if (match === null) continue;
    try {
      return { route: candidate, params: match.slice(1).map((part) => decodeURIComponent(part)) };
    } catch {
      return null;
    }
  }
  return null;
}

/** The Allow header of the view at `pathname`; null where no API view answers. */
export function allowedMethods(pathname: string): string | null {
  return matchRoute(pathname)?.route.allow ?? null;
}

/**
 * Vary of every API answer of Weblate 5.14.3: DRF's views add Accept, the session and CSRF
 * middleware Cookie, django-cors-headers origin.
 */
export const VARY = 'Accept, Cookie, origin';

/** DRF's OPTIONS answer (SimpleMetadata), trimmed to what is the same for every view. */
function options(): SimResponse {
  return ok({
    name: 'Weblate',
    description: '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  });
}

/**
 * The single entry point of the simulated API: route, method check, handler. Every
 * response of a matched view carries Allow and Vary, as Weblate's views add them even to
 * errors. The simulator is read-only, so methods other than GET, HEAD and OPTIONS get 405
 * even where Weblate would accept them (Allow still lists them).
 */
export function dispatch(instance: SimInstance, request: SimRequest): SimResponse {
  const match = matchRoute(request.url.pathname);
  if (match === null) return notFound();
  const headers = { Allow: match.route.allow, Vary: VARY };
  let response: SimResponse;
  if (request.method === 'GET' || request.method === 'HEAD') {
    response = match.route.handler(instance, request, match.params);
  } else if (request.method === 'OPTIONS') {
    response = options();
  } else {
    response = clientError(405, 'method_not_allowed', `Method "${request.method}" not allowed.`);
  }
  return { ...response, headers: { ...headers, ...response.headers } };
}

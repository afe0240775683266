/**
 * Answers of other Weblate versions (and of a token with fewer rights), as a layer right
 * around `dispatch`: the server itself answers differently, so triggers and the rate budget
 * see these requests as served. Every difference is off by default (Weblate 5.14, an
 * administrator's token).
 */
import type { SimInstance } from './model.ts';
import { tokenizeQuery } from './query-syntax.ts';
import { DEFAULT_RELEASE, isAtLeast, type Release } from './release.ts';
import type { RequestHandler } from './responses.ts';
import {
  clientError,
  lastParam,
  notFound,
  type SimRequest,
  type SimResponse,
  validationError,
} from './responses.ts';
import { currentCounts, type StatisticsCounts } from './statistics.ts';

export interface CompatOptions {
  /** The Weblate release whose records, links and authentication to answer with (release.ts). */
  release?: Release;
  /**
   * false: a server before Weblate 5.14, whose search language has no `last_changed`: a unit
   * list (global or a translation's) whose `q` uses it answers 400 with attr "q".
   */
  hasLastChangedSearch?: boolean;
  /** false: a server without the global /api/units/ list, which answers 404. */
  hasGlobalUnitList?: boolean;
  /**
   * false: a server before Weblate 5.0.1 (which "added object id to all REST API endpoints"):
   * languages, projects, components and translations come without any `id`.
   */
  hasObjectIds?: boolean;
  /**
   * The user the token belongs to, on Weblate 5.15 or later, without the permission to
   * manage users: another existing user's notification subscriptions answer 403. Null or
   * absent: no check (Weblate 5.14, or a token that may manage users).
   */
  tokenUser?: string | null;
  /**
   * Like Weblate 5.14.3 served by `processes` processes: each keeps the default language
   * (`code`, English unless said) as one object for its lifetime, with its statistics as
   * they were when that process first served them, so /api/languages/<code>/statistics/
   * answers stale sums. Requests for them go to the processes in turn; setCompat restarts
   * them all. Absent: always current.
   */
  staleLanguageStatistics?: { processes: number; code?: string };
  /**
   * Like Weblate 5.14.3 between the commit of a change and the statistics update queued
   * after it (Translation.invalidate_cache runs on commit, after the webhooks were queued):
   * the changes are listed, and translations answer their counts and `last_change` as they
   * were when this was set, in the translation lists and records and in the translations'
   * and components' statistics. Translations added since answer current counts. Absent or
   * false: always current.
   */
  staleTranslationStatistics?: boolean;
}

export interface CompatControl {
  handle: RequestHandler;
  /** Replaces the options (those left out return to their defaults). */
  setCompat: (options: CompatOptions) => void;
  /** The release answered as now. */
  release: () => Release;
}

/** Translation lists and records, and translations' and components' statistics. */
const TRANSLATION_COUNTS = [
  /^\/api\/translations\/(?:[^/]+\/){3}(?:statistics\/)?$/,
  /^\/api\/translations\/$/,
  /^\/api\/components\/(?:[^/]+\/){2}(?:translations|statistics)\/$/,
];

const UNIT_LIST = /^\/api\/(?:units|translations\/[^/]+\/[^/]+\/[^/]+\/units)\/$/;
const NOTIFICATIONS = /^\/api\/users\/([^/]+)\/notifications\/$/;
const S = '[^/]+/';
/** Lists and details of the objects that had no `id` before 5.0.1. */
const OBJECT_PATHS = [
  `languages/(?:${S})?`,
  `projects/(?:${S}(?:components/)?)?`,
  `components/(?:${S}${S}(?:translations/)?)?`,
  `translations/(?:${S}${S}${S})?`,
].map((path) => new RegExp(`^/api/${path}$`));

/**
 * DRF's PermissionDenied in drf-standardized-errors' shape (Weblate ≥ 5.10), with the
 * detail Weblate gives where it names one (another user's subscriptions, 2026).
 */
export function permissionDenied(
  detail = 'You do not have permission to perform this action.',
): SimResponse {
  return clientError(403, 'permission_denied', detail);
}

function usesLastChanged(request: SimRequest): boolean {
  const tokens = tokenizeQuery(lastParam(request.url, 'q') ?? '');
  return Array.isArray(tokens) && tokens.some((token) => /^last_changed:/i.test(token));
}

function isOtherUser(instance: SimInstance, request: SimRequest, tokenUser: string): boolean {
  const match = NOTIFICATIONS.exec(request.url.pathname);
  if (match === null) return false;
  let username: string;
  try {
    username = decodeURIComponent(match[1] ?? '');
  } catch {
    return false;
  }
  // An unknown user is still a 404: Weblate looks the user up before checking permissions.
  return username !== tokenUser && instance.index.userByUsername.has(username);
}

/** The answer before `inner` runs, when this server refuses the request. */
function refusal(
  instance: SimInstance,
  request: SimRequest,
  options: CompatOptions,
): SimResponse | null {
  const path = request.url.pathname;
  if (options.hasGlobalUnitList === false && path === '/api/units/') return notFound();
  if (options.hasLastChangedSearch === false && UNIT_LIST.test(path) && usesLastChanged(request)) {
    const detail = 'Could not parse query string: Unsupported field: last_changed';
    return validationError([{ attr: 'q', code: 'invalid', detail }]);
  }
  const { tokenUser } = options;
  if (tokenUser !== undefined && tokenUser !== null && isOtherUser(instance, request, tokenUser))
    return isAtLeast(options.release ?? DEFAULT_RELEASE, '2026')
      ? permissionDenied('Can not manage Users')
      : permissionDenied();
  return null;
}

function withoutId(record: unknown): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  const copy: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  delete copy.id;
  return copy;
}

/** The objects of a catalog answer (a list's results, or one object) without their `id`. */
function stripIds(response: SimResponse): SimResponse {
  const body = response.body as Record<string, unknown> | undefined;
  if (response.status !== 200 || body === undefined || body === null) return response;
  if (Array.isArray(body.results)) {
    return { ...response, body: { ...body, results: body.results.map(withoutId) } };
  }
  return { ...response, body: withoutId(body) };
}

function keptCounts(
  instance: SimInstance,
  options: CompatOptions,
): ReadonlyMap<number, StatisticsCounts> | null {
  if (options.staleTranslationStatistics !== true) return null;
  return new Map(instance.translations.map((t) => [t.id, currentCounts(instance, t)]));
}

export function createCompatLayer(
  instance: SimInstance,
  dispatch: RequestHandler,
  initial: CompatOptions = {},
): CompatControl {
  let options: CompatOptions = { ...initial };
  /** What each process first answered for the default language's statistics. */
  let remembered: Array<SimResponse | undefined> = [];
  let turn = 0;
  /** Each translation's counts when staleTranslationStatistics was set. */
  let kept = keptCounts(instance, options);
  const inner = (request: SimRequest) =>
    dispatch({ ...request, release: options.release ?? DEFAULT_RELEASE });
  const handle: RequestHandler = (request) => {
    const refused = refusal(instance, request, options);
    if (refused !== null) return refused;
    const path = request.url.pathname;
    const stale = options.staleLanguageStatistics;
    if (stale !== undefined && path === `/api/languages/${stale.code ?? 'en'}/statistics/`) {
      const process = turn++ % Math.max(1, stale.processes);
      remembered[process] ??= inner(request);
      return remembered[process];
    }
    if (kept !== null && TRANSLATION_COUNTS.some((p) => p.test(path))) {
      instance.answeringCounts = kept;
      try {
        return inner(request);
      } finally {
        instance.answeringCounts = undefined;
      }
    }
    const response = inner(request);
    if (options.hasObjectIds === false && OBJECT_PATHS.some((p) => p.test(path)))
      return stripIds(response);
    return response;
  };
  return {
    handle,
    setCompat: (next) => {
      options = { ...next };
      remembered = [];
      turn = 0;
      kept = keptCounts(instance, options);
    },
    release: () => options.release ?? DEFAULT_RELEASE,
  };
}

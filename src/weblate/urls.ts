/**
 * Weblate refers to related objects by API URL (a change names its unit, translation,
 * component, user and author that way). These helpers read identities out of such URLs.
 */

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A comparable key for an API URL: its path (Weblate links differ only by `?format=api`).
 * Percent-encoding is kept as sent, since both sides come from the same server.
 */
export function urlKey(url: string): string {
  return pathOf(url) ?? url;
}

/** `…/api/units/123/` → "123". */
export function unitIdFromUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = /\/api\/units\/(\d+)\/?$/.exec(pathOf(url) ?? '');
  return match?.[1] ?? null;
}

/** `…/api/categories/12/` → 12 (a component's or a category's `category` link). */
export function categoryIdFromUrl(url: string | null | undefined): number | null {
  if (!url) return null;
  const match = /\/api\/categories\/(\d+)\/?$/.exec(pathOf(url) ?? '');
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** `…/api/users/<username>/` → username (URL-decoded). */
export function usernameFromUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = /\/api\/users\/([^/]+)\/?$/.exec(pathOf(url) ?? '');
  return match?.[1] === undefined ? null : decode(match[1]);
}

/** `…/api/projects/<project>/` → the project slug. */
export function projectSlugFromUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = /\/api\/projects\/([^/]+)\/?$/.exec(pathOf(url) ?? '');
  return match?.[1] === undefined ? null : decode(match[1]);
}

export interface TranslationPath {
  project: string;
  component: string;
  language: string;
}

/** `…/api/translations/<project>/<component>/<language>/` → its three parts. */
export function translationPathFromUrl(url: string | null | undefined): TranslationPath | null {
  if (!url) return null;
  const match = /\/api\/translations\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(pathOf(url) ?? '');
  if (!match) return null;
  return {
    project: decode(match[1]!),
    component: lastSlug(match[2]!),
    language: decode(match[3]!),
  };
}

export interface ComponentPath {
  project: string;
  component: string;
}

/** `…/api/components/<project>/<component>/` → its two parts. */
export function componentPathFromUrl(url: string | null | undefined): ComponentPath | null {
  if (!url) return null;
  const match = /\/api\/components\/([^/]+)\/([^/]+)\/?$/.exec(pathOf(url) ?? '');
  return match ? { project: decode(match[1]!), component: lastSlug(match[2]!) } : null;
}

/** `…/api/components/<project>/<component>/` → the component slug. */
export function componentSlugFromUrl(url: string | null | undefined): string | null {
  return componentPathFromUrl(url)?.component ?? null;
}

// Components inside categories appear as `category%252Fslug` (encoded twice).
function lastSlug(segment: string): string {
  const decoded = decode(decode(segment));
  return decoded.slice(decoded.lastIndexOf('/') + 1);
}

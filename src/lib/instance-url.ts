/**
 * The address of a Weblate instance in one canonical form, so that two spellings of one
 * address compare equal: WHATWG URL parsing lower-cases the host and drops a default port;
 * this drops credentials, query and fragment, and writes the path as the instance root with
 * a trailing slash (its `/api/` URL names the same root).
 */
export function instanceRootOf(raw: string | URL): URL {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/api\/?$/, '/').replace(/\/?$/, '/');
  return url;
}

/** The API root of an instance address in canonical form, e.g. `https://weblate.example/api/`. */
export function apiRootOf(raw: string | URL): string {
  return new URL('api/', instanceRootOf(raw)).href;
}

/** Whether two addresses name the same API root (see instanceRootOf). */
export function isSameApiRoot(a: string | URL, b: string | URL): boolean {
  return apiRootOf(a) === apiRootOf(b);
}

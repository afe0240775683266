/**
 * Token authentication as Weblate's API does it: DRF's TokenAuthentication and Weblate's
 * BearerAuthentication (weblate/api/authentication.py) run in the view before its
 * throttles, so a request with a wrong token gets 401 with no rate-limit headers and uses
 * none of the budget; this layer therefore sits in front of the rate budget. A request
 * without an Authorization header (or with another scheme) is anonymous, and served: the
 * simulated instance has nothing private.
 */
import type { RequestHandler } from './responses.ts';
import { clientError, type SimRequest, type SimResponse } from './responses.ts';
import { allowedMethods, VARY } from './routes.ts';

const KEYWORDS = new Set(['token', 'bearer']);

function headerText(request: SimRequest): string | null {
  const value = request.headers.authorization;
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** DRF's detail for an Authorization header that names a token scheme; null when it passes. */
function failureDetail(request: SimRequest, token: string): string | null {
  const parts = (headerText(request) ?? '').split(/\s+/).filter((part) => part !== '');
  if (parts.length === 0 || !KEYWORDS.has(parts[0]!.toLowerCase())) return null;
  if (parts.length === 1) return 'Invalid token header. No credentials provided.';
  if (parts.length > 2) return 'Invalid token header. Token string should not contain spaces.';
  return parts[1] === token ? null : 'Invalid token.';
}

/**
 * Answers 401 for a request to an API view that presents a token other than `token`;
 * passes everything else (and everything when `token` is null) to `inner`.
 */
export function createAuthLayer(inner: RequestHandler, token: string | null): RequestHandler {
  if (token === null) return inner;
  return (request) => {
    const allow = allowedMethods(request.url.pathname);
    const detail = allow === null ? null : failureDetail(request, token);
    if (allow === null || detail === null) return inner(request);
    const refused: SimResponse = clientError(401, 'authentication_failed', detail);
    // DRF names the scheme of its first authenticator, and its views add Allow and Vary.
    return { ...refused, headers: { 'WWW-Authenticate': 'Token', Allow: allow, Vary: VARY } };
  };
}

/**
 * Token authentication as Weblate's API does it: DRF's TokenAuthentication and Weblate's
 * BearerAuthentication (weblate/api/authentication.py) run in the view before its
 * throttles, so a request with a wrong token gets 401 with no rate-limit headers and uses
 * none of the budget; this layer therefore sits in front of the rate budget. A request
 * without an Authorization header is anonymous, and served: the simulated instance has
 * nothing private. One with another scheme is anonymous too before Weblate 2026, which
 * refuses it (RejectAuthorizationAuthentication).
 */
import { DEFAULT_RELEASE, isAtLeast, type Release } from './release.ts';
import type { RequestHandler } from './responses.ts';
import { clientError, type SimRequest, type SimResponse } from './responses.ts';
import { allowedMethods, VARY } from './routes.ts';

const KEYWORDS = new Set(['token', 'bearer']);

function headerText(request: SimRequest): string | null {
  const value = request.headers.authorization;
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * DRF's detail for an Authorization header the server refuses; null when it passes. With
 * `token` null any token header passes (the simulated instance takes every token).
 */
function failureDetail(request: SimRequest, token: string | null, release: Release): string | null {
  const parts = (headerText(request) ?? '').split(/\s+/).filter((part) => part !== '');
  if (parts.length === 0) return null;
  if (!KEYWORDS.has(parts[0]!.toLowerCase())) {
    return isAtLeast(release, '2026')
      ? 'Unsupported authentication scheme. Use Token or Bearer.'
      : null;
  }
  if (token === null) return null;
  if (parts.length === 1) return 'Invalid token header. No credentials provided.';
  if (parts.length > 2) return 'Invalid token header. Token string should not contain spaces.';
  return parts[1] === token ? null : 'Invalid token.';
}

/**
 * Answers 401 for a request to an API view whose Authorization header the server refuses
 * (a token other than `token`; on 2026, another scheme); passes everything else to `inner`.
 */
export function createAuthLayer(
  inner: RequestHandler,
  token: string | null,
  release: () => Release = () => DEFAULT_RELEASE,
): RequestHandler {
  return (request) => {
    const allow = allowedMethods(request.url.pathname);
    const detail = allow === null ? null : failureDetail(request, token, release());
    if (allow === null || detail === null) return inner(request);
    const refused: SimResponse = clientError(401, 'authentication_failed', detail);
    // DRF names the scheme of its first authenticator, and its views add Allow and Vary.
    return { ...refused, headers: { 'WWW-Authenticate': 'Token', Allow: allow, Vary: VARY } };
  };
}

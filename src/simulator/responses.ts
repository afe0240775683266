/**
 * The server's request and response values. Handlers are pure functions
 * `(instance, request, params) → SimResponse`; only server.ts touches sockets, so faults,
 * latency or rate limiting can be layered around `dispatch` without changing handlers.
 */
export interface SimRequest {
  method: string;
  /** Absolute request URL (path and query as received). */
  url: URL;
  /** Scheme and host the client used, with a trailing slash: the base of every link. */
  baseUrl: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /** Serialised with `toJsonText`; `undefined` means an empty body. */
  body: unknown;
}

export function ok(body: unknown): SimResponse {
  return { status: 200, headers: {}, body };
}

/** drf-standardized-errors' body (Weblate ≥ 5.10, research §5). */
export function errorBody(
  type: 'client_error' | 'validation_error' | 'server_error',
  errors: readonly { code: string; detail: string; attr: string | null }[],
): unknown {
  return { type, errors: errors.map(({ code, detail, attr }) => ({ code, detail, attr })) };
}

export function clientError(status: number, code: string, detail: string): SimResponse {
  return { status, headers: {}, body: errorBody('client_error', [{ code, detail, attr: null }]) };
}

export function notFound(detail = 'Not found.'): SimResponse {
  return clientError(404, 'not_found', detail);
}

export interface FieldError {
  attr: string;
  code: string;
  detail: string;
}

export function validationError(errors: readonly FieldError[]): SimResponse {
  return { status: 400, headers: {}, body: errorBody('validation_error', errors) };
}

/** Django's QueryDict `[]` returns the last value of a repeated parameter. */
export function lastParam(url: URL, name: string): string | null {
  const values = url.searchParams.getAll(name);
  return values.length === 0 ? null : (values[values.length - 1] ?? null);
}

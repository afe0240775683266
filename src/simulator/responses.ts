/**
 * The server's request and response values. Handlers are pure functions
 * `(instance, request, params) → SimResponse`; only server.ts touches sockets, so faults,
 * latency or rate limiting can be layered around `dispatch` without changing handlers.
 */
import type { ServerWork } from './cost.ts';
import type { Release } from './release.ts';

export interface SimRequest {
  method: string;
  /** Absolute request URL (path and query as received). */
  url: URL;
  /**
   * The site URL every absolute link starts with, with a trailing slash: the simulator's
   * configured address (Weblate's SITE_DOMAIN and ENABLE_HTTPS), whatever Host was sent.
   */
  baseUrl: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The release the server answers as (set by the compat layer); absent: the default. */
  release?: Release;
}

/** The faults a test can inject (docs/internals.md#simulated-faults). */
export type FaultKind = '500' | '502' | '503' | '429' | 'reset' | 'hang' | 'truncate' | 'html';

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /** Serialised with `toJsonText`; `undefined` means an empty body. */
  body: unknown;
  /** Sent as is instead of `body` (an HTML page); the Content-Type goes in `headers`. */
  rawBody?: string;
  /** How the connection misbehaves instead of answering normally (faults.ts). */
  transport?: Transport;
  /** Bookkeeping for the request log, never sent: which fault this is, if any. */
  fault?: FaultKind;
  /** Bookkeeping for the request log, never sent: refused by the rate budget. */
  isThrottled?: boolean;
  /**
   * Bookkeeping for the request log and the cost model, never sent: what a list's page made
   * the server count, skip and serialize. Absent: one object when the answer is 200, else none.
   */
  work?: ServerWork;
}

/**
 * - `reset`: the socket is destroyed without a response;
 * - `hang`: nothing is sent for `ms`, then the socket is destroyed;
 * - `truncate`: status, headers and half of the body, without Content-Length, then the
 *   connection closes, so the client reads a complete-looking response with broken JSON.
 */
export type Transport = { kind: 'reset' } | { kind: 'hang'; ms: number } | { kind: 'truncate' };

/** Turns a request into a response; `dispatch` bound to an instance, or a layer around it. */
export type RequestHandler = (request: SimRequest) => SimResponse;

export function ok(body: unknown): SimResponse {
  return { status: 200, headers: {}, body };
}

/** drf-standardized-errors' body (Weblate ≥ 5.10; see docs/weblate-compatibility.md). */
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

/** Path and query as received: what triggers, `failNext` and the request log match on. */
export function requestTarget(request: SimRequest): string {
  return `${request.url.pathname}${request.url.search}`;
}

/** `RegExp.test` that ignores (and resets) the state a `g` or `y` flag keeps. */
export function testPattern(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  const result = pattern.test(text);
  pattern.lastIndex = 0;
  return result;
}

/** Seconds as a header value: whole seconds as integers, fractions as given (tests use them). */
export function formatSeconds(seconds: number): string {
  return String(Math.round(seconds * 1000) / 1000);
}

/**
 * DRF's Throttled (429): the detail rounds the wait up to whole seconds, singular for one;
 * drf-standardized-errors adds Retry-After from the wait.
 */
export function throttledResponse(retryAfterSeconds: number): SimResponse {
  const wait = Math.max(1, Math.ceil(retryAfterSeconds));
  const unit = wait === 1 ? 'second' : 'seconds';
  const detail = `Request was throttled. Expected available in ${wait} ${unit}.`;
  return {
    ...clientError(429, 'throttled', detail),
    headers: { 'Retry-After': formatSeconds(retryAfterSeconds) },
  };
}

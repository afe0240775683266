import { Pool } from 'undici';

import {
  AuthError,
  HttpError,
  isRetryable,
  isTimeoutOrGatewayError,
  ResponseError,
  toError,
  UnreachableError,
} from '../errors.ts';
import { JsonSyntaxError, parseJsonLossless } from '../lib/json.ts';
import { connectFailureOf, explainTlsFailure, tlsFailureOf } from '../lib/network-errors.ts';
import { sleep } from '../lib/sleep.ts';
import type { Logger } from '../logger.ts';
import { parseErrorBody } from './errors.ts';
import { type GateTicket, RateGate } from './rate-gate.ts';
import { RequestStats } from './request-stats.ts';

export interface WeblateClientOptions {
  /** Instance root with a trailing slash; the API is at `<baseUrl>api/`. */
  baseUrl: URL;
  token: string | null;
  concurrency: number;
  /** Largest page_size asked for (see pageSize); Weblate's largest, 10,000, when not given. */
  maxPageSize?: number;
  maxRps: number;
  maxAttempts: number;
  /** Timeout for response headers and for silence while a body arrives. */
  timeoutMs: number;
  /** Timeout for establishing a connection; defaults to min(timeoutMs, 30 s). */
  connectTimeoutMs?: number;
  /** Longest pause for the rate budget before the run gives up (and resumes next time). */
  maxWaitMs?: number;
  /**
   * Certificate authorities to trust for an https WEBLATE_URL instead of Node's default
   * set (PEM), e.g. a test's self-signed certificate.
   */
  ca?: string | Buffer | Array<string | Buffer>;
  log: Logger;
  /** First backoff step; each retry doubles it (full jitter), up to retryCapMs. */
  retryBaseMs?: number;
  retryCapMs?: number;
  random?: () => number;
  now?: () => number;
  /**
   * Hears every answer (status 0 when none came: a network error or timeout), e.g. for
   * metrics. It must not throw.
   */
  onResponse?: (response: { resource: string; status: number }) => void;
}

/** How one GET may adapt between its attempts. */
export interface GetOptions {
  /**
   * Called when an attempt failed and will be retried: returns the URL of the next attempt
   * (e.g. the same page with a smaller page_size after a timeout), or null to repeat the
   * same URL. Every attempt counts toward maxAttempts, whatever its URL.
   */
  nextAttemptUrl?: (failed: { url: URL; error: Error }) => URL | null;
}

export interface JsonResponse {
  /** The URL that was answered (as sent, without credentials; see GetOptions). */
  url: string;
  value: unknown;
  /** Source text of each element of a `results` array, when the body has one. */
  resultTexts: string[] | null;
  /** The whole body. */
  text: string;
  /** Time from the answered request's start to its whole body (rate-limit waits excluded). */
  elapsedMs: number;
  /** The server's rate budget as this answer's X-RateLimit-* headers gave it; null: none sent. */
  rateLimit: RateLimitHeaders | null;
}

export interface RateLimitHeaders {
  /** X-RateLimit-Limit: requests per window (null when only the other two came). */
  limit: number | null;
  remaining: number;
  /** X-RateLimit-Reset: seconds until one request of the window frees up (Weblate's meaning). */
  resetSeconds: number;
}

/** The largest page_size Weblate accepts on any list (its LargePagination, weblate/api/pagination.py). */
const MAX_PAGE_SIZE = 10_000;

const USER_AGENT = 'weblate-mirror/0.1 (+https://github.com/weblate-mirror)';

/**
 * HTTP access to one Weblate instance. Every request goes through one RateGate and one
 * keep-alive pool; the token is sent only to the configured origin, redirects and links to
 * other origins are refused, and transient failures are retried with jittered backoff.
 */
export class WeblateClient {
  readonly apiRoot: URL;
  readonly stats = new RequestStats();
  readonly gate: RateGate;
  /**
   * What this client noticed about the server that its run should report once (each
   * message appears once; the client lives for one run).
   */
  readonly warnings: string[] = [];
  readonly #options: Required<
    Omit<WeblateClientOptions, 'token' | 'connectTimeoutMs' | 'maxWaitMs' | 'onResponse' | 'ca'>
  > & {
    token: string | null;
    onResponse?: WeblateClientOptions['onResponse'];
  };
  readonly #pool: Pool;
  /** The least upper bound seen of the server's clock minus ours (see serverNow). */
  #serverOffsetMs: number | null = null;

  constructor(options: WeblateClientOptions) {
    this.#options = {
      retryBaseMs: 500,
      retryCapMs: 30_000,
      random: Math.random,
      now: Date.now,
      maxPageSize: MAX_PAGE_SIZE,
      ...options,
    };
    this.apiRoot = new URL('api/', options.baseUrl);
    this.gate = new RateGate({
      concurrency: options.concurrency,
      maxRps: options.maxRps,
      maxWaitMs: options.maxWaitMs,
      now: this.#options.now,
    });
    this.#pool = new Pool(options.baseUrl.origin, {
      connections: options.concurrency,
      keepAliveTimeout: 30_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: {
        timeout: options.connectTimeoutMs ?? Math.min(options.timeoutMs, 30_000),
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      },
    });
  }

  /** How long it waits for an answer (WEBLATE_TIMEOUT_SECONDS). */
  get timeoutMs(): number {
    return this.#options.timeoutMs;
  }

  /** Requests this client keeps in flight at most (WEBLATE_CONCURRENCY). */
  get concurrency(): number {
    return this.#options.concurrency;
  }

  /** The page_size to ask for when `wanted` would serve best: at most the configured largest. */
  pageSize(wanted: number): number {
    return Math.min(wanted, this.#options.maxPageSize);
  }

  /**
   * Resolves a path (relative to /api/) or an absolute URL from a response, refusing other
   * origins. `format` is dropped: Weblate's links carry `format=api`, which on a real
   * server selects the HTML browsable API; weblate-mirror always asks for JSON. A link that
   * differs from an https WEBLATE_URL only by saying http (same host and port) is followed
   * over https, with one warning: Weblate behind a TLS proxy it does not know about writes
   * such links (its absolute URLs come from SITE_DOMAIN and ENABLE_HTTPS, or from the
   * request it saw, which was plain http), and the token must never go over http.
   */
  resolve(target: string | URL): URL {
    const url = new URL(target, this.apiRoot);
    if (this.#isDowngraded(url)) {
      url.protocol = 'https:';
      this.#noteDowngrade();
    }
    if (url.origin !== this.apiRoot.origin) {
      throw new ResponseError(
        `refusing ${url.origin}${url.pathname}: it is not on ${this.apiRoot.origin}, the configured WEBLATE_URL. ` +
          'weblate-mirror only talks to that origin, so the token cannot leak; if the server builds links ' +
          'with another scheme or host, fix its proxy settings or WEBLATE_URL.',
        { retryable: false },
      );
    }
    url.searchParams.delete('format');
    url.hash = '';
    return url;
  }

  /**
   * GETs a JSON document, with retries; `resource` names it in stats, logs and errors.
   * `options.nextAttemptUrl` may change the URL between attempts.
   */
  async getJson(
    target: string | URL,
    resource: string,
    signal?: AbortSignal,
    options: GetOptions = {},
  ): Promise<JsonResponse> {
    const first = this.resolve(target);
    let url = first;
    const { maxAttempts } = this.#options;
    let previous: string | null = null;
    for (let attempt = 1; ; attempt++) {
      try {
        const current = url;
        return await this.gate.run(
          (ticket) => this.#getOnce(current, resource, ticket, signal),
          signal,
        );
      } catch (err) {
        if (signal?.aborted || !isRetryable(err) || attempt >= maxAttempts) {
          throw this.#finalError(err, { first, last: url }, resource, attempt);
        }
        const delayMs = this.#retryDelay(err, attempt);
        const next = options.nextAttemptUrl?.({ url, error: toError(err) }) ?? null;
        this.stats.recordRetry(resource);
        // A request failing the same way again (a server that is down) says nothing new:
        // one warning per request, its repeats at debug.
        const failure = `${url.href} ${toError(err).message}`;
        const level = failure === previous ? 'debug' : 'warn';
        previous = failure;
        this.#options.log[level](
          {
            resource,
            url: url.href,
            attempt,
            delayMs,
            error: toError(err).message,
            ...(next === null ? {} : { nextUrl: next.href }),
          },
          'request failed, retrying',
        );
        if (next !== null) url = this.resolve(next);
        await sleep(delayMs, signal);
      }
    }
  }

  /**
   * A time no earlier than the server's clock now (our clock until a Date header arrived).
   * Date has one-second resolution, rounded down, and is stamped after our request left, so
   * the server's time when request i was sent is at most Date_i + 1 s: the smallest such
   * bound over all answers is kept. Change windows end here: a window that ends a little in
   * the future loses nothing (a change stamped later falls into the next window, whose
   * look-back reaches back minutes), whereas one that ends in the past would skip changes
   * until the next run.
   */
  serverNow(): Date {
    return new Date(this.#options.now() + (this.#serverOffsetMs ?? 0));
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  /** http where WEBLATE_URL says https, on the same host and port (URL.host omits default ports). */
  #isDowngraded(url: URL): boolean {
    return (
      url.protocol === 'http:' &&
      this.apiRoot.protocol === 'https:' &&
      url.host === this.apiRoot.host
    );
  }

  #noteDowngrade(): void {
    const message =
      `the server writes http:// links although WEBLATE_URL is ${this.apiRoot.origin}; weblate-mirror ` +
      'follows them over https. Weblate builds its links from its SITE_DOMAIN and ENABLE_HTTPS ' +
      'settings, not from the request: set ENABLE_HTTPS in its settings.';
    if (this.warnings.includes(message)) return;
    this.warnings.push(message);
    this.#options.log.warn(
      { origin: this.apiRoot.origin },
      'server links say http for an https instance: following them over https',
    );
  }

  async #getOnce(
    url: URL,
    resource: string,
    ticket: GateTicket,
    signal?: AbortSignal,
  ): Promise<JsonResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    if (this.#options.token !== null) headers.authorization = `Token ${this.#options.token}`;
    const started = this.#options.now();
    let status = 0;
    let text: string;
    let responseHeaders: Record<string, unknown>;
    try {
      const response = await this.#pool.request({
        method: 'GET',
        path: `${url.pathname}${url.search}`,
        headers,
        signal,
      });
      status = response.statusCode;
      responseHeaders = response.headers;
      text = await response.body.text();
    } catch (err) {
      // A request that failed before a complete answer (reset, timeout) still counts.
      this.stats.recordResponse(resource, status, 0, this.#options.now() - started);
      this.#options.onResponse?.({ resource, status });
      throw err;
    }
    const elapsedMs = this.#options.now() - started;
    this.stats.recordResponse(resource, status, text.length, elapsedMs);
    this.#options.onResponse?.({ resource, status });
    this.#options.log.trace({ resource, url: url.href, status }, 'request');
    this.#noteServerClock(responseHeaders, started);
    this.#applyRateLimitHeaders(status, responseHeaders, ticket);
    if (status >= 200 && status < 300)
      return {
        ...this.#parseBody(url, text, responseHeaders, elapsedMs),
        rateLimit: rateLimitOf(responseHeaders),
      };
    throw this.#statusError(url, status, text, responseHeaders);
  }

  #parseBody(
    url: URL,
    text: string,
    headers: Record<string, unknown>,
    elapsedMs: number,
  ): Omit<JsonResponse, 'rateLimit'> {
    try {
      const { value, resultTexts } = parseJsonLossless(text);
      return { url: url.href, value, resultTexts, text, elapsedMs };
    } catch (err) {
      const type = headerText(headers['content-type']) ?? 'no content type';
      const isHtml = text.trimStart().startsWith('<');
      const what = isHtml
        ? `an HTML page (${type})`
        : `a body that is not valid JSON (${type}, ${text.length} characters; truncated?)`;
      const check = isHtml ? '; is WEBLATE_URL the address of Weblate, not of a login page?' : '';
      throw new ResponseError(
        `answered ${what}: ${err instanceof JsonSyntaxError ? err.message : String(err)}${check}`,
        {
          retryable: true,
          cause: err,
        },
      );
    }
  }

  #statusError(url: URL, status: number, text: string, headers: Record<string, unknown>): Error {
    if (status >= 300 && status < 400) {
      return new ResponseError(
        `answered ${status} with a redirect to ${headerText(headers.location) ?? '(no location)'}; weblate-mirror does ` +
          'not follow redirects so that the token never leaves WEBLATE_URL. Set WEBLATE_URL to the final address.',
        { retryable: false },
      );
    }
    const { code, detail } = parseErrorBody(text);
    const details = { status, url: url.href, code, detail };
    const said = [code, detail].filter((part) => part !== null).join(': ');
    if (status === 401) {
      return new AuthError(
        `Weblate rejected the credentials (401 ${said}); check WEBLATE_TOKEN`,
        details,
      );
    }
    if (status === 403) {
      return new AuthError(
        `Weblate denied access (403 ${said}); the token lacks permission for this`,
        details,
      );
    }
    if (status === 429) {
      return new HttpError(`Weblate is rate limiting (429 ${said})`, details);
    }
    return new HttpError(`answered ${status}${said === '' ? '' : ` (${said})`}`, details);
  }

  #noteServerClock(headers: Record<string, unknown>, sentAt: number): void {
    const date = Date.parse(headerText(headers.date) ?? '');
    if (Number.isNaN(date)) return;
    const bound = date + 1000 - sentAt;
    this.#serverOffsetMs =
      this.#serverOffsetMs === null ? bound : Math.min(this.#serverOffsetMs, bound);
  }

  /**
   * Reads the server's rate-limit headers (X-RateLimit-Reset and Retry-After are relative
   * seconds). A 429 or 503 with Retry-After pauses every worker.
   */
  #applyRateLimitHeaders(
    status: number,
    headers: Record<string, unknown>,
    ticket: GateTicket,
  ): void {
    const now = this.#options.now();
    const retryAfter = parseSeconds(headers['retry-after']);
    if ((status === 429 || status === 503) && retryAfter !== null)
      this.gate.pauseUntil(now + retryAfter * 1000);
    const budget = rateLimitOf(headers);
    if (budget !== null)
      this.gate.noteBudget(status === 429 ? 0 : budget.remaining, budget.resetSeconds, ticket);
    // A success without a budget: the server stopped counting this token (Weblate 2026's
    // per-user override of None), and a budget noted before no longer holds.
    else if (status >= 200 && status < 300) this.gate.forgetBudget();
  }

  #retryDelay(err: unknown, attempt: number): number {
    const { retryBaseMs, retryCapMs, random, now } = this.#options;
    const paused = this.gate.pausedUntil - now();
    if (err instanceof HttpError && err.status === 429 && paused > 0) return 0;
    const ceiling = Math.min(retryCapMs, retryBaseMs * 2 ** (attempt - 1));
    return Math.max(Math.round(random() * ceiling), paused);
  }

  #finalError(
    err: unknown,
    urls: { first: URL; last: URL },
    resource: string,
    attempt: number,
  ): Error {
    const cause = toError(err);
    const tls = tlsFailureOf(cause);
    if (tls !== null)
      return new UnreachableError(
        explainTlsFailure(tls, `Weblate at ${this.#options.baseUrl.href}`, 'WEBLATE_URL'),
        { cause },
      );
    const unreachable = connectFailureOf(cause);
    if (unreachable !== null) {
      return new UnreachableError(
        `cannot reach Weblate at ${this.#options.baseUrl.href} (${unreachable}` +
          `${attempt > 1 ? `, ${attempt} attempts` : ''}): is it running, and is WEBLATE_URL right?`,
        { cause },
      );
    }
    const tries = attempt > 1 ? ` after ${attempt} attempts` : '';
    const last =
      urls.last.href === urls.first.href ? '' : ` (the last attempt asked ${urls.last.href})`;
    const message = `${resource}: GET ${urls.first.href} failed${tries}: ${cause.message}${last}${whatToCheck(cause)}`;
    if (cause instanceof AuthError) return new AuthError(message, cause);
    if (cause instanceof HttpError) return new HttpError(message, cause);
    return new ResponseError(message, { retryable: false, cause });
  }
}

/** A response header as text (undici gives a string, or an array for repeated headers). */
function headerText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return null;
}

/** The X-RateLimit-* headers of an answer, or null when it lacks Remaining or Reset. */
function rateLimitOf(headers: Record<string, unknown>): RateLimitHeaders | null {
  const remaining = parseSeconds(headers['x-ratelimit-remaining']);
  const reset = parseSeconds(headers['x-ratelimit-reset']);
  if (remaining === null || reset === null) return null;
  const limit = Number(headerText(headers['x-ratelimit-limit']) ?? '');
  return {
    limit: Number.isFinite(limit) && limit > 0 ? limit : null,
    remaining,
    resetSeconds: reset,
  };
}

function parseSeconds(value: unknown): number | null {
  const text = headerText(value);
  if (text === null || text.trim() === '') return null;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/**
 * What to check after a request failed for good, for the failures whose message does not say
 * it already (a refused token names WEBLATE_TOKEN, a redirect WEBLATE_URL).
 */
function whatToCheck(cause: Error): string {
  if (cause instanceof AuthError) return '';
  if (cause instanceof HttpError) {
    if (cause.status === 429)
      return '; Weblate kept rate limiting: lower WEBLATE_CONCURRENCY, or set WEBLATE_MAX_RPS';
    if (cause.status >= 500)
      return '; Weblate, or a proxy in front of it, kept failing: see its logs, then sync again (it resumes where this run stopped)';
    if (cause.status === 404) return '; is WEBLATE_URL the address of Weblate?';
    return '';
  }
  if (isTimeoutOrGatewayError(cause))
    return '; no answer within WEBLATE_TIMEOUT_SECONDS: raise it, or lower WEBLATE_MAX_PAGE_SIZE for a slow server or proxy';
  return '';
}

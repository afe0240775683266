/**
 * A rate budget like Weblate's throttling (weblate/api/throttling.py): DRF's SimpleRateThrottle, a sliding
 * window over the times of accepted requests, and Weblate's ThrottlingMiddleware headers.
 * One budget for every caller (the simulator has no users). It covers `/api/` paths; the
 * fault layer sits in front of it, so a faulted request uses none of the budget.
 */
import type { RequestHandler } from './responses.ts';
import { formatSeconds, type SimResponse, testPattern, throttledResponse } from './responses.ts';

export interface RateLimitOptions {
  /** Requests accepted per window. */
  limit: number;
  /** Window length; below 1 s, Retry-After and X-RateLimit-Reset are fractional seconds. */
  windowSeconds: number;
  /** Send X-RateLimit-Limit/-Remaining/-Reset on every API response, 429s included. */
  headers: boolean;
}

export interface RateDecision {
  isAllowed: boolean;
  limit: number;
  /** Requests left in the window after this one; 0 when refused. */
  remaining: number;
  /** Seconds until the oldest request in the window expires (relative, rounded up). */
  resetSeconds: number;
  /** Only when refused: seconds until a slot frees up. */
  retryAfterSeconds: number | null;
}

export interface RateLimiter {
  check(): RateDecision;
}

function validate(options: RateLimitOptions): void {
  if (!Number.isInteger(options.limit) || options.limit < 0) {
    throw new Error(`rate limit must be a whole number >= 0, not ${options.limit}`);
  }
  if (!(options.windowSeconds > 0)) {
    throw new Error(`rate window must be positive, not ${options.windowSeconds}`);
  }
}

/** `now` is in milliseconds (Date.now by default); inject another clock in unit tests. */
export function createRateLimiter(
  options: RateLimitOptions,
  now: () => number = Date.now,
): RateLimiter {
  validate(options);
  const { limit, windowSeconds } = options;
  const windowMs = windowSeconds * 1000;
  // Whole seconds as Weblate sends them: X-RateLimit-Reset truncated (int(), so it can be 0 and
  // the slot frees up to a second later than it says), Retry-After rounded up (DRF's
  // math.ceil). Sub-second windows, for tests, use fractional seconds of at least 1 ms.
  const fractional = (ms: number): number => Math.max(1, Math.ceil(ms)) / 1000;
  const resetSeconds = (ms: number): number =>
    windowSeconds < 1 ? fractional(ms) : Math.max(0, Math.floor(ms / 1000));
  const retryAfterSeconds = (ms: number): number =>
    windowSeconds < 1 ? fractional(ms) : Math.max(1, Math.ceil(ms / 1000));
  /** Accepted requests, oldest first. */
  const history: number[] = [];
  const check = (): RateDecision => {
    const time = now();
    while (history.length > 0 && (history[0] ?? 0) <= time - windowMs) history.shift();
    const untilOldestExpires = (): number =>
      history.length === 0 ? windowMs : windowMs - (time - (history[0] ?? time));
    if (history.length >= limit) {
      const wait = untilOldestExpires();
      return {
        isAllowed: false,
        limit,
        remaining: 0,
        resetSeconds: resetSeconds(wait),
        retryAfterSeconds: retryAfterSeconds(wait),
      };
    }
    history.push(time);
    return {
      isAllowed: true,
      limit,
      remaining: limit - history.length,
      resetSeconds: resetSeconds(untilOldestExpires()),
      retryAfterSeconds: null,
    };
  };
  return { check };
}

const API_PATH = /^\/api\//;

function withHeaders(response: SimResponse, decision: RateDecision): SimResponse {
  return {
    ...response,
    headers: {
      ...response.headers,
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': formatSeconds(decision.resetSeconds),
    },
  };
}

export interface RateLimitControl {
  handle: RequestHandler;
  /** Replaces the budget (and forgets the requests counted so far); null turns it off. */
  setRateLimit: (options: RateLimitOptions | null) => void;
}

export function createRateLimitLayer(
  inner: RequestHandler,
  initial: RateLimitOptions | null = null,
  now: () => number = Date.now,
): RateLimitControl {
  let options: RateLimitOptions | null = null;
  let limiter: RateLimiter | null = null;
  const setRateLimit = (next: RateLimitOptions | null): void => {
    limiter = next === null ? null : createRateLimiter(next, now);
    options = next === null ? null : { ...next };
  };
  const handle: RequestHandler = (request) => {
    if (limiter === null || !testPattern(API_PATH, request.url.pathname)) return inner(request);
    const decision = limiter.check();
    const response: SimResponse = decision.isAllowed
      ? inner(request)
      : { ...throttledResponse(decision.retryAfterSeconds ?? 1), isThrottled: true };
    return options?.headers === true ? withHeaders(response, decision) : response;
  };
  setRateLimit(initial);
  return { handle, setRateLimit };
}

/**
 * Fault injection: a layer in front of the simulated API that makes some requests fail the
 * way a real Weblate behind a proxy does under load. It sits outside the rate budget and
 * the mid-walk triggers, so a failed request reaches neither: it changes nothing and only
 * counts in the request log (`faults`).
 */
import { createRng, type Rng } from './prng.ts';
import type { FaultKind, RequestHandler } from './responses.ts';
import {
  errorBody,
  formatSeconds,
  requestTarget,
  type SimRequest,
  type SimResponse,
  testPattern,
  throttledResponse,
} from './responses.ts';

export type { FaultKind } from './responses.ts';

export const FAULT_KINDS: readonly FaultKind[] = [
  '500',
  '502',
  '503',
  '429',
  'reset',
  'hang',
  'truncate',
  'html',
];

export interface FaultOptions {
  /** Share of eligible requests (0..1) that fail, drawn from a PRNG seeded with `seed`. */
  rate: number;
  /** Kinds to choose from, uniformly (default: all eight). */
  kinds?: FaultKind[];
  /** Default 1; the same seed and request order give the same faults. */
  seed?: number;
  /** Retry-After of 429 and 503, in seconds; fractions are sent as given (default 1). */
  retryAfterSeconds?: number;
  /** How long a `hang` keeps the connection silent before dropping it (default 30000). */
  hangMs?: number;
  /** Requests whose pathname matches are eligible (default: every `/api/` path). */
  match?: RegExp;
}

/** What `failNext` armed: how many requests it has failed and how many are left. */
export interface FailNextHandle {
  readonly failed: number;
  readonly remaining: number;
}

export interface FaultControl {
  handle: RequestHandler;
  setFaults: (options: FaultOptions | null) => void;
  failNext: (count: number, kind: FaultKind, match?: RegExp) => FailNextHandle;
}

const API_PATH = /^\/api\//;
const DEFAULT_HANG_MS = 30_000;

/** nginx's own page when the upstream (Weblate's uWSGI/gunicorn) is gone. */
const BAD_GATEWAY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** A 200 that is not the API: a maintenance page or a login wall put up by a proxy. */
const HTML_PAGE =
  '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Maintenance · Weblate</title></head>\n<body><h1>Weblate is down for maintenance</h1><p>Please try again in a few minutes.</p></body>\n</html>\n';

function html(status: number, page: string): SimResponse {
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
    body: undefined,
    rawBody: page,
  };
}

function serverError(status: number, detail: string): SimResponse {
  return {
    status,
    headers: {},
    body: errorBody('server_error', [{ code: 'error', detail, attr: null }]),
  };
}

function withRetryAfter(response: SimResponse, seconds: number): SimResponse {
  return { ...response, headers: { ...response.headers, 'Retry-After': formatSeconds(seconds) } };
}

/** The answer of one fault; `truncate` cuts what the API would have answered (`preview`). */
export function faultResponse(
  kind: FaultKind,
  options: Pick<FaultOptions, 'retryAfterSeconds' | 'hangMs'>,
  preview: () => SimResponse,
): SimResponse {
  const retryAfter = options.retryAfterSeconds ?? 1;
  const silent: SimResponse = { status: 0, headers: {}, body: undefined };
  const responses: Record<FaultKind, () => SimResponse> = {
    '500': () => serverError(500, 'A server error occurred.'),
    '502': () => html(502, BAD_GATEWAY_PAGE),
    '503': () =>
      withRetryAfter(
        serverError(503, 'Service temporarily unavailable, try again later.'),
        retryAfter,
      ),
    '429': () => throttledResponse(retryAfter),
    reset: () => ({ ...silent, transport: { kind: 'reset' } }),
    hang: () => ({ ...silent, transport: { kind: 'hang', ms: options.hangMs ?? DEFAULT_HANG_MS } }),
    truncate: () => ({ ...preview(), transport: { kind: 'truncate' } }),
    html: () => html(200, HTML_PAGE),
  };
  return { ...responses[kind](), fault: kind };
}

function validateOptions(options: FaultOptions): void {
  if (!(options.rate >= 0 && options.rate <= 1)) {
    throw new Error(`fault rate must be between 0 and 1, not ${options.rate}`);
  }
  const kinds = options.kinds ?? FAULT_KINDS;
  if (kinds.length === 0) throw new Error('fault kinds must not be empty');
  for (const kind of kinds) {
    if (!FAULT_KINDS.includes(kind)) throw new Error(`unknown fault kind "${String(kind)}"`);
  }
}

interface FailRule {
  remaining: number;
  failed: number;
  kind: FaultKind;
  match: RegExp;
}

/** `failNext` rules, applied in the order they were armed. */
function createFailRules(): {
  take: (request: SimRequest) => FaultKind | null;
  arm: (count: number, kind: FaultKind, match?: RegExp) => FailNextHandle;
} {
  let rules: FailRule[] = [];
  const take = (request: SimRequest): FaultKind | null => {
    const target = requestTarget(request);
    const rule = rules.find((r) => testPattern(r.match, target));
    if (rule === undefined) return null;
    rule.remaining -= 1;
    rule.failed += 1;
    rules = rules.filter((r) => r.remaining > 0);
    return rule.kind;
  };
  const arm = (count: number, kind: FaultKind, match = API_PATH): FailNextHandle => {
    if (!Number.isInteger(count) || count < 0) throw new Error(`invalid count ${count}`);
    if (!FAULT_KINDS.includes(kind)) throw new Error(`unknown fault kind "${String(kind)}"`);
    const rule: FailRule = { remaining: count, failed: 0, kind, match };
    if (count > 0) rules.push(rule);
    return {
      get failed() {
        return rule.failed;
      },
      get remaining() {
        return rule.remaining;
      },
    };
  };
  return { take, arm };
}

/**
 * The fault layer around `inner`. `preview` answers a request without side effects (plain
 * `dispatch`), for the body a `truncate` cuts. `failNext` rules come first and draw nothing
 * from the PRNG; the random faults follow.
 */
export function createFaultLayer(
  inner: RequestHandler,
  preview: RequestHandler,
  initial: FaultOptions | null = null,
): FaultControl {
  let options: FaultOptions | null = null;
  let rng: Rng = createRng(1);
  const rules = createFailRules();
  const setFaults = (next: FaultOptions | null): void => {
    if (next !== null) validateOptions(next);
    options = next === null ? null : { ...next };
    rng = createRng(next?.seed ?? 1);
  };
  const pickFault = (request: SimRequest): FaultKind | null => {
    const explicit = rules.take(request);
    if (explicit !== null) return explicit;
    if (options === null || !testPattern(options.match ?? API_PATH, request.url.pathname)) {
      return null;
    }
    if (rng.next() >= options.rate) return null;
    return rng.pick(options.kinds ?? FAULT_KINDS);
  };
  const handle: RequestHandler = (request) => {
    const kind = pickFault(request);
    if (kind === null) return inner(request);
    return faultResponse(kind, options ?? {}, () => preview(request));
  };
  setFaults(initial);
  return { handle, setFaults, failNext: rules.arm };
}

/**
 * Reads a command-line fault spec: `<rate>` (every kind) or `<kind>,<kind>…:<rate>`, e.g.
 * `0.1` or `500,429:0.1`.
 */
export function parseFaultSpec(spec: string): FaultOptions {
  const colon = spec.lastIndexOf(':');
  const rateText = colon === -1 ? spec : spec.slice(colon + 1);
  const rate = /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(rateText) ? Number(rateText) : NaN;
  const options: FaultOptions = { rate };
  if (colon !== -1) {
    options.kinds = spec
      .slice(0, colon)
      .split(',')
      .map((kind) => kind.trim() as FaultKind);
  }
  try {
    validateOptions(options);
  } catch (error) {
    throw new Error(`invalid fault spec "${spec}"`, { cause: error });
  }
  return options;
}

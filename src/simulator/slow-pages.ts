/**
 * Unit pages too slow for the proxy in front of Weblate: in Weblate 5.13 to 5.16.1 every
 * unit of a list costs one more SQL query, so a large page outlasts the proxy's timeout
 * while a smaller one does not. The layer sits where the fault layer does (a proxy): the
 * request reaches the server, which does the work (triggers fire, the budget is used), and
 * then the proxy gives up, with its own 504 page or by going silent.
 */
import type { RequestHandler, SimResponse } from './responses.ts';

export interface SlowUnitPagesOptions {
  /** Unit list pages with more results than this fail; smaller ones are answered. */
  maxResults: number;
  /** `504`: nginx's "504 Gateway Time-out" page; `hang`: silence, then the connection drops. */
  failure: '504' | 'hang';
  /** How long a `hang` stays silent before dropping the connection (default 30000). */
  hangMs?: number;
}

export interface SlowPagesControl {
  handle: RequestHandler;
  setSlowUnitPages: (options: SlowUnitPagesOptions | null) => void;
}

const GLOBAL_UNITS = /^\/api\/units\/$/;
const TRANSLATION_UNITS = /^\/api\/translations\/[^/]+\/[^/]+\/[^/]+\/units\/$/;

const GATEWAY_TIMEOUT_PAGE =
  '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

function failure(options: SlowUnitPagesOptions): SimResponse {
  if (options.failure === 'hang') {
    return {
      status: 0,
      headers: {},
      body: undefined,
      transport: { kind: 'hang', ms: options.hangMs ?? 30_000 },
    };
  }
  return {
    status: 504,
    headers: { 'Content-Type': 'text/html' },
    body: undefined,
    rawBody: GATEWAY_TIMEOUT_PAGE,
  };
}

function validate(options: SlowUnitPagesOptions): void {
  if (!Number.isInteger(options.maxResults) || options.maxResults < 0)
    throw new Error(`maxResults must be a whole number >= 0, not ${options.maxResults}`);
  if (options.failure !== '504' && options.failure !== 'hang')
    throw new Error(`unknown slow page failure "${String(options.failure)}"`);
}

export function createSlowPagesLayer(
  inner: RequestHandler,
  initial: SlowUnitPagesOptions | null = null,
): SlowPagesControl {
  let options: SlowUnitPagesOptions | null = null;
  const setSlowUnitPages = (next: SlowUnitPagesOptions | null): void => {
    if (next !== null) validate(next);
    options = next === null ? null : { ...next };
  };
  setSlowUnitPages(initial);
  const handle: RequestHandler = (request) => {
    const response = inner(request);
    const path = request.url.pathname;
    if (options === null || response.status !== 200) return response;
    if (!GLOBAL_UNITS.test(path) && !TRANSLATION_UNITS.test(path)) return response;
    const units = response.work?.units ?? 0;
    // The server did the page's work before the proxy gave up on it.
    return units > options.maxResults ? { ...failure(options), work: response.work } : response;
  };
  return { handle, setSlowUnitPages };
}

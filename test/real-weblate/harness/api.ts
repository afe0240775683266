import { Agent, fetch, FormData } from 'undici';

export { FormData };

export interface Measurement {
  /** Weblate's own time for the request (its Server-Timing), in milliseconds. */
  serverMs: number;
  /** The time until the whole body arrived, as the client saw it. */
  clientMs: number;
  queries: number;
  /** Whether the page's COUNT ran over a SELECT DISTINCT. */
  distinctCount: boolean;
  bytes: number;
  count: number | null;
  results: number | null;
}

/**
 * A new connection per request: a kept-alive one can be closed by the server just as the
 * next request goes out, which a test must not mistake for a failure of Weblate.
 */
const NO_KEEP_ALIVE = new Agent({ pipelining: 0 });

/**
 * The tier's own HTTP access to the Weblate under test, independent of the mirror's client:
 * it seeds data, makes edits and fetches what the mirror must equal. Bodies are kept as text,
 * so that 64-bit numbers reach PostgreSQL exactly (comparisons happen in SQL, as jsonb).
 */
export class TierApi {
  readonly apiRoot: URL;
  readonly #token: string;

  constructor(baseUrl: string, token: string) {
    this.apiRoot = new URL('api/', baseUrl);
    this.#token = token;
  }

  url(path: string): URL {
    return new URL(path, this.apiRoot);
  }

  /** GET; the body as text (throws on a non-2xx answer). */
  async getText(path: string | URL): Promise<string> {
    return (await this.request('GET', path)).text;
  }

  /**
   * GET with what the tier's middleware measured (test/real-weblate/tier_middleware.py):
   * Weblate's own time for the request, its SQL queries, and whether it counted over a
   * DISTINCT; plus the body's size and the list's `count` and length.
   */
  async measure(path: string | URL): Promise<Measurement> {
    const url = typeof path === 'string' ? this.url(path) : path;
    const started = performance.now();
    const response = await fetch(url, {
      headers: { authorization: `Token ${this.#token}`, accept: 'application/json' },
      dispatcher: NO_KEEP_ALIVE,
    });
    const text = await response.text();
    const clientMs = performance.now() - started;
    if (!response.ok)
      throw new Error(`GET ${url.pathname}${url.search} answered ${response.status}`);
    const body = JSON.parse(text) as { count?: number; results?: unknown[] };
    return {
      serverMs: Number(
        /dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? NaN,
      ),
      clientMs,
      queries: Number(response.headers.get('x-tier-queries') ?? NaN),
      distinctCount: response.headers.get('x-tier-distinct-count') === '1',
      bytes: Buffer.byteLength(text),
      count: body.count ?? null,
      results: body.results?.length ?? null,
    };
  }

  /** GET of a JSON document, parsed (only for values that need no 64-bit precision). */
  async get<T = unknown>(path: string | URL): Promise<T> {
    return JSON.parse(await this.getText(path)) as T;
  }

  /** Every page of a list, following `next`; each page's text. */
  async listPages(path: string | URL, pageSize = 1000): Promise<string[]> {
    const pages: string[] = [];
    let url: URL | null = this.url(String(path));
    url.searchParams.set('page_size', String(pageSize));
    for (let guard = 0; url !== null && guard < 10_000; guard++) {
      const text = await this.getText(url);
      pages.push(text);
      const next = (JSON.parse(text) as { next: string | null }).next;
      url = next === null ? null : new URL(next);
    }
    return pages;
  }

  /** Every record of a list, parsed (for ids, slugs and URLs, not for exact values). */
  async listAll<T>(path: string | URL, pageSize = 1000): Promise<T[]> {
    const pages = await this.listPages(path, pageSize);
    return pages.flatMap((text) => (JSON.parse(text) as { results: T[] }).results);
  }

  async post<T = unknown>(path: string, body: unknown): Promise<T> {
    return (await this.request('POST', path, body)).json as T;
  }

  async patch<T = unknown>(path: string, body: unknown): Promise<T> {
    return (await this.request('PATCH', path, body)).json as T;
  }

  async delete(path: string): Promise<void> {
    await this.request('DELETE', path);
  }

  /** A multipart POST (uploads). */
  async postForm<T = unknown>(path: string, form: FormData): Promise<T> {
    return (await this.request('POST', path, form)).json as T;
  }

  /** Any request; throws with Weblate's answer on a non-2xx status. */
  async request(
    method: string,
    path: string | URL,
    body?: unknown,
  ): Promise<{ status: number; text: string; json: unknown }> {
    const url = typeof path === 'string' ? this.url(path) : path;
    const headers: Record<string, string> = {
      authorization: `Token ${this.#token}`,
      accept: 'application/json',
    };
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(url, {
      method,
      headers,
      body: payload,
      dispatcher: NO_KEEP_ALIVE,
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `${method} ${url.pathname}${url.search} answered ${response.status}: ${text.slice(0, 800)}`,
      );
    }
    let json: unknown = null;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json'))
      json = JSON.parse(text);
    return { status: response.status, text, json };
  }
}

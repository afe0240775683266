import { HttpError, ResponseError } from '../errors.ts';
import type { WeblateClient } from './client.ts';
import { canonicalUrl, type Fetched, type Page, type Planner } from './pages.ts';
import { ListedIds } from './record-id.ts';

/** Where a list read stands after a page. */
export interface ListAt {
  isLast: boolean;
  /** The page's number: 1 for the first, in the order the list links them. */
  number: number;
}

export interface ListOptions {
  resource: string;
  /** Sent as `page_size` on the first request; later pages follow `next` as given. */
  pageSize: number;
  /**
   * Read the numbered pages side by side once the first has told how many there are, up to
   * `concurrency` at once and `textInHand` of response text; they arrive in any order. To
   * prove deletions, check each page's `count` (docs/internals.md#numbered-lists-side-by-side).
   */
  sideBySide?: { concurrency: number; textInHand: number } | null;
}

/** A list page's request: its URL and its number (1 for the first). */
interface ListRequest {
  url: URL;
  number: number;
}

/** Pages a list of `count` items takes (an empty list still takes one). */
export function pagesFor(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** The first page's URL of a list: `page_size` set, no `page`. */
export function firstPageUrl(client: WeblateClient, start: string | URL, pageSize: number): URL {
  const url = client.resolve(start);
  url.searchParams.set('page_size', String(pageSize));
  url.searchParams.delete('page');
  return url;
}

/**
 * A paginated list, followed by its `next` links one page at a time (never building page
 * URLs), or with `sideBySide` by page number. A `next` that leaves the configured origin or
 * returns to a page already read stops the read with an error instead of following it.
 */
export class ListPlanner implements Planner<ListRequest, ListAt> {
  readonly #client: WeblateClient;
  readonly #options: ListOptions;
  /** The next linked page to ask for, if known and not yet asked. */
  #next: ListRequest | null;
  #seen = new Set<string>();
  #previous: string | null = null;
  /**
   * Numbered pages: the template (page 2's URL), how many, how many records page 1 held, the
   * next to ask, how many arrived, and the `next` link of the last page, once it arrived.
   */
  #numbered: {
    template: URL;
    total: number;
    perPage: number;
    nextNumber: number;
    arrived: number;
    lastPageNext: URL | null;
  } | null = null;
  #largestText = 0;

  constructor(client: WeblateClient, start: string | URL, options: ListOptions) {
    this.#client = client;
    this.#options = options;
    this.#next = { url: firstPageUrl(client, start, options.pageSize), number: 1 };
  }

  pagesInHand(): number {
    const side = this.#options.sideBySide;
    if (this.#numbered === null || side == null || this.#largestText === 0) return 1;
    const fit = Math.floor(side.textInHand / this.#largestText);
    return Math.max(1, Math.min(side.concurrency, fit));
  }

  next(inFlight: number): ListRequest | null {
    const numbered = this.#numbered;
    if (numbered !== null && numbered.nextNumber <= numbered.total) {
      if (inFlight >= this.#options.sideBySide!.concurrency) return null;
      const url = new URL(numbered.template);
      url.searchParams.set('page', String(numbered.nextNumber));
      return { url, number: numbered.nextNumber++ };
    }
    if (inFlight > 0 || this.#next === null) return null;
    const request = this.#next;
    this.#next = null;
    const key = canonicalUrl(request.url);
    if (this.#seen.has(key)) {
      throw new ResponseError(
        `${this.#options.resource}: the next link of ${this.#previous ?? request.url.href} leads back to ` +
          `${request.url.href}, a page already read; stopping instead of looping (the server paginates inconsistently)`,
        { retryable: false },
      );
    }
    this.#seen.add(key);
    return request;
  }

  url(request: ListRequest): URL {
    return request.url;
  }

  /** Django REST framework answers 404 for a page past the end: the list shrank since page 1. */
  recover(request: ListRequest, url: URL, error: unknown): Fetched | null {
    const numbered = this.#numbered;
    if (numbered === null || request.number === 1 || request.number > numbered.total) return null;
    if (!(error instanceof HttpError && error.status === 404)) return null;
    // An empty page says so by its count, at most what the pages before it hold.
    const count = (request.number - 1) * numbered.perPage;
    return {
      asked: url,
      url: url.href,
      results: [],
      resultTexts: [],
      count,
      next: null,
      textLength: 0,
      elapsedMs: 0,
    };
  }

  onPage(request: ListRequest, fetched: Fetched): Page<ListAt> {
    const { number } = request;
    this.#largestText = Math.max(this.#largestText, fetched.textLength);
    const next = fetched.next === null ? null : this.#resolve(fetched.next, fetched.url);
    const numbered = this.#numbered;
    let isLast: boolean;
    if (numbered !== null && number > 1 && number <= numbered.total) {
      // Numbered pages arrive in any order; the last of them to arrive ends the read, unless
      // the list grew past the count of page 1 and the last page links further.
      if (number === numbered.total) {
        numbered.lastPageNext = next;
        this.#previous = fetched.url;
      }
      numbered.arrived += 1;
      const allArrived = numbered.arrived === numbered.total - 1;
      if (allArrived && numbered.lastPageNext !== null)
        this.#next = { url: numbered.lastPageNext, number: numbered.total + 1 };
      isLast = allArrived && numbered.lastPageNext === null;
    } else {
      isLast = next === null;
      const total = number === 1 ? this.#numberedPages(fetched, next) : null;
      if (total !== null && next !== null) {
        const perPage = fetched.results.length;
        this.#numbered = {
          template: next,
          total,
          perPage,
          nextNumber: 2,
          arrived: 0,
          lastPageNext: null,
        };
      } else if (next !== null) {
        this.#next = { url: next, number: number + 1 };
      }
      this.#previous = fetched.url;
    }
    return {
      url: fetched.url,
      results: fetched.results,
      resultTexts: fetched.resultTexts,
      more: !isLast,
      totalPages:
        number === 1 && fetched.count !== null
          ? pagesFor(fetched.count, this.#options.pageSize)
          : null,
      count: fetched.count,
      single: false,
      at: { isLast, number },
    };
  }

  /**
   * How many pages a list's first page says it has, when read side by side and it shows
   * Django REST framework's page numbers: a `count`, a full first page, and a `next` link
   * that differs from the first page's own query only by `page=2`. Null otherwise.
   */
  #numberedPages(first: Fetched, next: URL | null): number | null {
    if (this.#options.sideBySide == null) return null;
    if (first.count === null || next === null || first.results.length === 0) return null;
    if (next.searchParams.get('page') !== '2') return null;
    const total = Math.ceil(first.count / first.results.length);
    // A list that grew past its count since page 1 is followed by its links.
    return total >= 2 ? total : null;
  }

  #resolve(next: string, from: string): URL {
    try {
      return this.#client.resolve(next);
    } catch (err) {
      throw new ResponseError(
        `${this.#options.resource}: the next link of ${from} was refused: ${(err as Error).message}`,
        { retryable: false, cause: err },
      );
    }
  }
}

/** Where a read by id stands after a page: on a chunk's last page, the ids it asked for that no page listed. */
export interface ByIdsAt {
  chunk: string[];
  /** Null until the chunk's last page. */
  missing: string[] | null;
}

/**
 * Objects read by id from a list that takes `id:` terms, `chunkSize` ids per request, each
 * chunk a list followed by its `next` links. Every record the server lists counts as found,
 * valid or not: an object it lists is not gone.
 */
export class ByIdsPlanner implements Planner<ListRequest, ByIdsAt> {
  readonly #client: WeblateClient;
  readonly #path: string;
  readonly #ids: readonly string[];
  readonly #options: { resource: string; chunkSize: number; pageSize: number };
  #start = 0;
  #chunk: { ids: string[]; list: ListPlanner; listed: ListedIds } | null = null;

  constructor(
    client: WeblateClient,
    path: string,
    ids: readonly string[],
    options: { resource: string; chunkSize: number; pageSize: number },
  ) {
    this.#client = client;
    this.#path = path;
    this.#ids = ids;
    this.#options = options;
  }

  pagesInHand(): number {
    return 1;
  }

  next(inFlight: number): ListRequest | null {
    if (this.#chunk === null) {
      if (this.#start >= this.#ids.length) return null;
      const ids = this.#ids.slice(this.#start, this.#start + this.#options.chunkSize);
      this.#start += ids.length;
      const url = this.#client.resolve(this.#path);
      url.searchParams.set('q', `id:${ids.join(',')}`);
      const list = new ListPlanner(this.#client, url, this.#options);
      this.#chunk = { ids, list, listed: new ListedIds() };
    }
    return this.#chunk.list.next(inFlight);
  }

  url(request: ListRequest): URL {
    return request.url;
  }

  onPage(request: ListRequest, fetched: Fetched): Page<ByIdsAt> {
    const chunk = this.#chunk!;
    const page = chunk.list.onPage(request, fetched);
    const { listed } = chunk;
    listed.note(page.results, page.url);
    const last = page.at.isLast;
    if (last) this.#chunk = null;
    // A record without a readable id could be any of them: none is known missing.
    const missing = !last
      ? null
      : listed.unidentified !== null
        ? []
        : chunk.ids.filter((id) => !listed.ids.has(id));
    const more = !last || this.#start < this.#ids.length;
    return { ...page, more, totalPages: null, at: { chunk: chunk.ids, missing } };
  }
}

/** One object from a detail or statistics endpoint. */
export class ObjectPlanner implements Planner<URL, null> {
  readonly single = true;
  #url: URL | null;

  constructor(client: WeblateClient, url: string | URL) {
    this.#url = client.resolve(url);
  }

  pagesInHand(): number {
    return 1;
  }

  next(): URL | null {
    const url = this.#url;
    this.#url = null;
    return url;
  }

  url(request: URL): URL {
    return request;
  }

  onPage(_request: URL, fetched: Fetched): Page<null> {
    const { url, results, resultTexts } = fetched;
    return {
      url,
      results,
      resultTexts,
      more: false,
      totalPages: 1,
      count: null,
      single: true,
      at: null,
    };
  }
}

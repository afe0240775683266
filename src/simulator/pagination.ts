import type { ServerWork } from './cost.ts';
import { toJsonText } from './json-text.ts';
import { lastParam, notFound, ok, type SimRequest, type SimResponse } from './responses.ts';
import { quotePlus } from './urls.ts';

/** DRF PageNumberPagination settings of Weblate's two classes (weblate/api/pagination.py). */
export interface Pagination {
  defaultSize: number;
  maxSize: number;
}
export const STANDARD_PAGINATION: Pagination = { defaultSize: 50, maxSize: 1000 };
export const LARGE_PAGINATION: Pagination = { defaultSize: 200, maxSize: 10_000 };

/** Items a list endpoint pages through; `page` renders nothing beyond what it returns. */
export interface Selection<T> {
  count(): number;
  page(offset: number, limit: number): T[];
}

export function arraySelection<T>(
  items: readonly T[],
  start = 0,
  end = items.length,
): Selection<T> {
  return {
    count: () => Math.max(0, end - start),
    page: (offset, limit) => items.slice(start + offset, Math.min(end, start + offset + limit)),
  };
}

/** A filtered view of items[start, end) that never copies the whole range. */
export function filteredSelection<T>(
  items: readonly T[],
  range: { start: number; end: number },
  predicate: (item: T) => boolean,
): Selection<T> {
  let cached: number | null = null;
  const count = (): number => {
    if (cached !== null) return cached;
    let total = 0;
    for (let i = range.start; i < range.end; i += 1) if (predicate(items[i] as T)) total += 1;
    return (cached = total);
  };
  const page = (offset: number, limit: number): T[] => {
    const out: T[] = [];
    let seen = 0;
    for (let i = range.start; i < range.end && out.length < limit; i += 1) {
      if (!predicate(items[i] as T)) continue;
      if (seen >= offset) out.push(items[i] as T);
      seen += 1;
    }
    return out;
  };
  return { count, page };
}

const INTEGER = /^\s*[+-]?\d+\s*$/;

/** DRF: above the maximum is cut to it; 0, negative or not a number falls back to the default. */
export function pageSizeOf(request: SimRequest, pagination: Pagination): number {
  const raw = lastParam(request.url, 'page_size');
  if (raw === null || !INTEGER.test(raw)) return pagination.defaultSize;
  const value = Number(raw);
  if (value <= 0) return pagination.defaultSize;
  return Math.min(value, pagination.maxSize);
}

/**
 * DRF's `replace_query_param`/`remove_query_param` on the request's absolute URL (the site
 * URL, then path and query as received): parameters sorted by key, values kept in order,
 * nothing added (`format` only when the request had it).
 */
export function pageLink(request: SimRequest, page: number | null): string {
  const params = new Map<string, string[]>();
  for (const [key, value] of request.url.searchParams) {
    params.set(key, [...(params.get(key) ?? []), value]);
  }
  if (page === null) params.delete('page');
  else params.set('page', [String(page)]);
  const query = [...params.keys()]
    .sort()
    .flatMap((key) =>
      (params.get(key) ?? []).map((value) => `${quotePlus(key)}=${quotePlus(value)}`),
    )
    .join('&');
  return `${request.baseUrl}${request.url.pathname.slice(1)}${query === '' ? '' : `?${query}`}`;
}

/** Django's Paginator.validate_number plus DRF's `page=last`; null for an invalid page. */
function resolvePage(request: SimRequest, numPages: number): number | null {
  const raw = lastParam(request.url, 'page');
  if (raw === null) return 1;
  if (raw === 'last') return numPages;
  if (!INTEGER.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 && page <= numPages ? page : null;
}

/** The paginated envelope, or 404 "Invalid page." past the end (DRF's PageNumberPagination). */
export function paginate<T>(
  request: SimRequest,
  pagination: Pagination,
  selection: Selection<T>,
  render: (item: T) => unknown,
): SimResponse {
  const { count, page, items, work } = readPage(request, pagination, selection, 'records');
  if (page === null) return { ...notFound('Invalid page.'), work };
  return {
    ...ok({
      count,
      next: page.next,
      previous: page.previous,
      results: items.map(render),
    }),
    work,
  };
}

interface PageAt {
  next: string | null;
  previous: string | null;
}

/**
 * DRF's work for one page: COUNT(*) over the whole selection, then OFFSET to the page and
 * the page's items (`kind` says what they are, for the cost model: see cost.ts).
 */
function readPage<T>(
  request: SimRequest,
  pagination: Pagination,
  selection: Selection<T>,
  kind: 'units' | 'records',
): { count: number; page: PageAt | null; items: T[]; work: ServerWork } {
  const size = pageSizeOf(request, pagination);
  const count = selection.count();
  const numPages = count === 0 ? 1 : Math.ceil(count / size);
  const number = resolvePage(request, numPages);
  const work: ServerWork = { counted: count, skipped: 0, units: 0, records: 0 };
  if (number === null) return { count, page: null, items: [], work };
  const offset = (number - 1) * size;
  const items = selection.page(offset, size);
  work.skipped = offset;
  work[kind] = items.length;
  const page = {
    next: number < numPages ? pageLink(request, number + 1) : null,
    previous: number > 1 ? pageLink(request, number === 2 ? null : number - 1) : null,
  };
  return { count, page, items, work };
}

/** Like paginate, but items arrive as JSON text (cached renderings) and the body is joined. */
export function paginateText<T>(
  request: SimRequest,
  pagination: Pagination,
  selection: Selection<T>,
  renderText: (item: T) => string,
  kind: 'units' | 'records',
): SimResponse {
  const { count, page, items, work } = readPage(request, pagination, selection, kind);
  if (page === null) return { ...notFound('Invalid page.'), work };
  const head = toJsonText({ count, next: page.next, previous: page.previous });
  return {
    ...ok(null),
    body: undefined,
    rawBody: `${head.slice(0, -1)},"results":[${items.map(renderText).join(',')}]}`,
    work,
  };
}

/** First index whose id is >= `id` in an id-ascending list. */
export function lowerBoundById(items: readonly { id: number }[], id: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((items[middle]?.id ?? 0) < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

import { type ChangeWindowOptions, walkChangeWindow } from '../weblate/change-window.ts';
import { type KeysetOptions, TEXT_IN_HAND, walkKeyset } from '../weblate/keyset.ts';
import { walkList, walkNumberedList } from '../weblate/pagination.ts';
import type { SyncContext } from './context.ts';
import { Listing } from './listing.ts';
import type { Resource } from './tally.ts';

/**
 * One page of a source, before validation: the records as parsed with their exact texts,
 * and where the source stands after it (`at`, which a stream's cursor is made of).
 */
export interface SourcePage<At> {
  url: string;
  results: unknown[];
  resultTexts: string[];
  /** Whether the source has pages after this one. */
  more: boolean;
  /** Pages the whole source takes, when its first page tells (a list's `count`), else null. */
  totalPages: number | null;
  /** The list's `count` as this page reported it; null where the source has none to compare. */
  count: number | null;
  /** A detail endpoint's single object rather than a list's record (names rejections by URL). */
  single: boolean;
  at: At;
}

/** Where a stream's pages come from; `pages` starts one reading of it. */
export interface Source<At> {
  pages(ctx: SyncContext, resource: Resource): AsyncGenerator<SourcePage<At>>;
}

/**
 * Largest page sizes Weblate accepts (weblate/api/pagination.py): standard lists and the
 * large ones. A source asks for its size through the client, which caps it at the configured
 * WEBLATE_MAX_PAGE_SIZE.
 */
export const PAGE_SIZE = { standard: 1000, large: 10_000 } as const;

/** Pages a list of `count` items takes (an empty list still takes one). */
export function pagesFor(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** A walk's options as a source hands them on: the page size capped by the client, the run's signal. */
function walkOptions<O extends { pageSize: number }>(
  ctx: SyncContext,
  resource: Resource,
  options: O,
): O & { resource: string; signal: AbortSignal } {
  return {
    ...options,
    pageSize: ctx.client.pageSize(options.pageSize),
    resource,
    signal: ctx.signal,
  };
}

/**
 * Response text a list read side by side holds at most in pages ahead of its consumer: half
 * a unit walk's, since a discovery record parses into more heap than its text (a translation
 * of the global list nests its whole component; measured: docs/performance.md#what-makes-it-fast).
 */
const LIST_TEXT_IN_HAND = TEXT_IN_HAND / 2;

/**
 * A plain list, followed by its `next` links; with `sideBySide`, its pages are asked by
 * number once the first has told how many there are, up to the client's concurrency at once
 * (see walkNumberedList), and come in any order.
 */
export function listSource(
  url: string | URL,
  pageSize: number,
  { sideBySide = false }: { sideBySide?: boolean } = {},
): Source<{ isLast: boolean }> {
  return {
    async *pages(ctx, resource) {
      const options = walkOptions(ctx, resource, { pageSize });
      const walk = sideBySide
        ? walkNumberedList(ctx.client, url, {
            ...options,
            concurrency: ctx.client.concurrency,
            textInHand: LIST_TEXT_IN_HAND,
          })
        : walkList(ctx.client, url, options);
      for await (const page of walk) {
        yield {
          url: page.url,
          results: page.results,
          resultTexts: page.resultTexts,
          more: !page.isLast,
          totalPages:
            page.number === 1 && page.count !== null
              ? pagesFor(page.count, options.pageSize)
              : null,
          count: page.count,
          single: false,
          at: { isLast: page.isLast },
        };
      }
    },
  };
}

/** Where a keyset walk stands after a page: it covered every matching id in (after, through]. */
export interface KeysetAt {
  /** Ids of the page's records, as decimal strings. */
  ids: string[];
  after: string | null;
  /** null: the page reached the end of the list. */
  through: string | null;
}

/** A list walked by id, `(q) AND id:>K` (see weblate/keyset.ts), resuming after `after`. */
export function keysetSource(
  path: string,
  options: Pick<KeysetOptions, 'q' | 'after' | 'pageSize' | 'windows'>,
): Source<KeysetAt> {
  return {
    async *pages(ctx, resource) {
      const walk = walkKeyset(ctx.client, path, walkOptions(ctx, resource, options));
      for await (const page of walk) {
        const { url, results, resultTexts, ids, after, through } = page;
        const more = through !== null;
        yield {
          url,
          results,
          resultTexts,
          more,
          totalPages: null,
          count: null,
          single: false,
          at: { ids, after, through },
        };
      }
    },
  };
}

/**
 * What a page of a change walk covers: every change newer than `from` up to `upTo` (from
 * null: down to the walk's lower bound). Pages may arrive out of order (see CoveredTimes).
 */
export interface WindowAt {
  covers: { from: string | null; upTo: string };
}

/** A change list in the time window [after, before], newest first (see weblate/change-window.ts). */
export function timeWindowSource(
  path: string,
  options: Pick<
    ChangeWindowOptions,
    'after' | 'before' | 'pageSize' | 'timeWindows' | 'firstWindow' | 'concurrency'
  >,
): Source<WindowAt> {
  return {
    async *pages(ctx, resource) {
      const walk = walkChangeWindow(ctx.client, path, walkOptions(ctx, resource, options));
      for await (const page of walk) {
        const { url, results, resultTexts, covers, isLast } = page;
        yield {
          url,
          results,
          resultTexts,
          more: !isLast,
          totalPages: null,
          count: null,
          single: false,
          at: { covers },
        };
      }
    },
  };
}

/** Where a read by id stands after a page: on a chunk's last page, the ids it asked for that no page listed. */
export interface ByIdsAt {
  chunk: string[];
  /** Null until the chunk's last page. */
  missing: string[] | null;
}

/**
 * Objects read by id from a list that takes `id:` terms, `chunkSize` ids per request. Every
 * record the server lists counts as found, valid or not: an object it lists is not gone.
 */
export function byIdsSource(
  path: string,
  ids: readonly string[],
  options: { chunkSize: number; pageSize: number },
): Source<ByIdsAt> {
  return {
    async *pages(ctx, resource) {
      for (let i = 0; i < ids.length; i += options.chunkSize) {
        const chunk = ids.slice(i, i + options.chunkSize);
        const url = ctx.client.resolve(path);
        url.searchParams.set('q', `id:${chunk.join(',')}`);
        const listing = new Listing();
        const chunks = listSource(url, options.pageSize).pages(ctx, resource);
        for await (const page of chunks) {
          listing.notePage(page.results, page.url);
          const last = page.at.isLast;
          // A record without a readable id could be any of them: none is known missing.
          const missing = !last
            ? null
            : listing.unidentified !== null
              ? []
              : chunk.filter((id) => !listing.ids.has(id));
          const more = !last || i + options.chunkSize < ids.length;
          yield { ...page, more, totalPages: null, at: { chunk, missing } };
        }
      }
    },
  };
}

/** One object from a detail or statistics endpoint. */
export function objectSource(url: string | URL): Source<null> {
  return {
    async *pages(ctx, resource) {
      const response = await ctx.client.getJson(url, resource, ctx.signal);
      yield {
        url: response.url,
        results: [response.value],
        resultTexts: [response.text.trim()],
        more: false,
        totalPages: 1,
        count: null,
        single: true,
        at: null,
      };
    },
  };
}

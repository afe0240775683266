import { type ChangeWindowOptions, TimePlan, type WindowAt } from '../weblate/change-window.ts';
import { type KeysetAt, type KeysetOptions, TEXT_IN_HAND, WindowPlan } from '../weblate/keyset.ts';
import type { Planner } from '../weblate/pages.ts';
import {
  type ByIdsAt,
  ByIdsPlanner,
  type ListAt,
  ListPlanner,
  ObjectPlanner,
} from '../weblate/pagination.ts';
import type { SyncContext } from './context.ts';
import type { Resource } from './tally.ts';

export type { ByIdsAt, KeysetAt, ListAt, WindowAt };

/**
 * A read a stage asks for: the planner that walks it, made for the run (its client's page
 * size cap and concurrency). The engine, weblate/pages.ts#fetchPages, sends what it plans.
 */
export type Read<At> = (ctx: SyncContext, resource: Resource) => Planner<unknown, At>;

/**
 * Largest page sizes Weblate accepts (weblate/api/pagination.py): standard lists and the
 * large ones. A read asks for its size through the client, which caps it at the configured
 * WEBLATE_MAX_PAGE_SIZE.
 */
export const PAGE_SIZE = { standard: 1000, large: 10_000 } as const;

/**
 * Response text a list read side by side holds at most in pages ahead of its consumer: half
 * a unit walk's, since a discovery record parses into more heap than its text (a translation
 * of the global list nests its whole component; measured: docs/performance.md#what-makes-it-fast).
 */
const LIST_TEXT_IN_HAND = TEXT_IN_HAND / 2;

/**
 * A plain list, followed by its `next` links; with `sideBySide`, its pages are asked by
 * number once the first has told how many there are, up to the client's concurrency at once.
 */
export function listRead(
  url: string | URL,
  pageSize: number,
  { sideBySide = false }: { sideBySide?: boolean } = {},
): Read<ListAt> {
  return (ctx, resource) =>
    new ListPlanner(ctx.client, url, {
      resource,
      pageSize: ctx.client.pageSize(pageSize),
      sideBySide: sideBySide
        ? { concurrency: ctx.client.concurrency, textInHand: LIST_TEXT_IN_HAND }
        : null,
    });
}

/** A list walked by id, `(q) AND id:>K` (see weblate/keyset.ts), resuming after `after`. */
export function idWindowRead(
  path: string,
  options: Pick<KeysetOptions, 'q' | 'after' | 'pageSize' | 'windows'>,
): Read<KeysetAt> {
  return (ctx, resource) =>
    new WindowPlan(ctx.client, path, {
      ...options,
      resource,
      pageSize: ctx.client.pageSize(options.pageSize),
    });
}

/** A change list in the time window [after, before], newest first (see weblate/change-window.ts). */
export function timeWindowRead(
  path: string,
  options: Pick<
    ChangeWindowOptions,
    'after' | 'before' | 'pageSize' | 'timeWindows' | 'firstWindow' | 'concurrency'
  >,
): Read<WindowAt> {
  return (ctx, resource) =>
    new TimePlan(ctx.client, path, {
      ...options,
      resource,
      pageSize: ctx.client.pageSize(options.pageSize),
    });
}

/** Objects read by id from a list that takes `id:` terms, `chunkSize` ids per request. */
export function byIdsRead(
  path: string,
  ids: readonly string[],
  options: { chunkSize: number; pageSize: number },
): Read<ByIdsAt> {
  return (ctx, resource) =>
    new ByIdsPlanner(ctx.client, path, ids, {
      resource,
      chunkSize: options.chunkSize,
      pageSize: ctx.client.pageSize(options.pageSize),
    });
}

/** One object from a detail or statistics endpoint. */
export function objectRead(url: string | URL): Read<null> {
  return (ctx) => new ObjectPlanner(ctx.client, url);
}

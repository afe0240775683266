import { markGone } from '../db/queries/deletions.ts';
import { HttpError, SyncError } from '../errors.ts';
import type { SyncContext } from './context.ts';

/** An object a listing showed, as a 404 on it names it. */
export interface Listed {
  table: 'projects' | 'components' | 'translations';
  id: number;
  /** How to name it in the warning, e.g. its URL. */
  label: string;
}

/**
 * What a stage does when the server answers 404: `gone`, `skip`, `fallback` or `refuse`, the
 * only reactions a sync has (docs/internals.md#what-a-404-means).
 */
export type NotFoundPolicy<T> =
  | { gone: Listed }
  | { skip: { event: string; message: string; fields?: Record<string, unknown> } }
  | { fallback: () => Promise<T> }
  | { refuse: (err: HttpError) => Promise<string | null> };

/** Whether `err` is the server's 404. */
export function isNotFound(err: unknown): err is HttpError {
  return err instanceof HttpError && err.status === 404;
}

/** Runs `work`; a 404 answer gets the reaction `policy` names, any other error propagates. */
export async function onNotFound<T>(
  ctx: SyncContext,
  policy: NotFoundPolicy<T>,
  work: () => Promise<T>,
): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    if (!isNotFound(err)) throw err;
    if ('fallback' in policy) return policy.fallback();
    if ('skip' in policy) {
      const { event, message, fields } = policy.skip;
      ctx.warn(event, message, { ...fields, url: err.url });
      return null;
    }
    if ('refuse' in policy) {
      const message = await policy.refuse(err);
      if (message === null) return null;
      throw new SyncError(message, { cause: err });
    }
    const object = policy.gone;
    await markGone(ctx.db, object.table, object.id);
    ctx.warn(
      'listed object gone: marked deleted',
      `${object.label} answers 404: marked deleted (its history stays in the mirror)`,
      { table: object.table, id: object.id, url: err.url },
    );
    return null;
  }
}

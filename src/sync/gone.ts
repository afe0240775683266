import { markGone } from '../db/queries/deletions.ts';
import { HttpError } from '../errors.ts';
import type { SyncContext } from './context.ts';

export interface Listed {
  table: 'projects' | 'components' | 'translations';
  id: number;
  /** How to name it in the warning, e.g. its URL. */
  label: string;
}

/**
 * Runs `work` on an object discovery listed. If the server answers 404, the object was
 * deleted meanwhile: it is marked deleted (with what it contains), the run goes on with a
 * warning, and the result is null. Its mirrored history stays.
 */
export async function unlessGone<T>(
  ctx: SyncContext,
  object: Listed,
  work: () => Promise<T>,
): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof HttpError && err.status === 404)) throw err;
    await markGone(ctx.db, object.table, object.id);
    ctx.warn(
      'listed object gone: marked deleted',
      `${object.label} answers 404: marked deleted (its history stays in the mirror)`,
      { table: object.table, id: object.id, url: err.url },
    );
    return null;
  }
}

import { type Kysely, sql, type Transaction } from 'kysely';

import type { CopyCapability, CopyInto } from './copy.ts';
import type { Database } from './database.ts';

const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const TRANSACTION_ATTEMPTS = 3;

/**
 * Runs `work` in a transaction, one that rows can be COPYed into where the database has the
 * capability (`copy`, PostgreSQL; else `work` gets null), and runs it again (at most three
 * times in all) when PostgreSQL aborts it for a deadlock or a serialization failure;
 * `onRetry` hears of each retry. `work` must be safe to repeat.
 */
export async function writeTransaction<T>(
  database: { db: Kysely<Database>; copy: CopyCapability | null },
  work: (trx: Transaction<Database>, copy: CopyInto | null) => Promise<T>,
  onRetry: (retry: { code: string; attempt: number }) => void = () => undefined,
): Promise<T> {
  const { db, copy } = database;
  for (let attempt = 1; ; attempt++) {
    try {
      return await (copy === null
        ? db.transaction().execute((trx) => work(trx, null))
        : copy.transaction(work));
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const retryable = typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
      if (attempt >= TRANSACTION_ATTEMPTS || !retryable) throw err;
      onRetry({ code, attempt });
    }
  }
}

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: Error };

/**
 * Runs `work` under a savepoint of `trx`: if PostgreSQL refuses it for its data, only its
 * statements are rolled back and the refusal is returned; any other error propagates.
 */
export async function underSavepoint<T>(
  trx: Transaction<Database>,
  work: () => Promise<T>,
): Promise<Attempt<T>> {
  await sql`savepoint weblate_mirror_rows`.execute(trx);
  try {
    const value = await work();
    await sql`release savepoint weblate_mirror_rows`.execute(trx);
    return { ok: true, value };
  } catch (err) {
    if (!isDataError(err)) throw err;
    await sql`rollback to savepoint weblate_mirror_rows`.execute(trx);
    return { ok: false, error: err as Error };
  }
}

/** SQLSTATE classes 22 (data exception), 23 (integrity) and 54 (limit exceeded). */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^(22|23|54)/.test(code);
}

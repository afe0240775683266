import { type Kysely, sql, type Transaction } from 'kysely';

import { withSession } from '../db/copy.ts';
import type { Database } from '../db/database.ts';
import { recordRejections, type Rejection } from '../db/queries/rejections.ts';
import type { SyncContext } from './context.ts';
import type { Resource } from './tally.ts';

export interface PageWrite {
  written: number;
  rejected?: Rejection[];
}

/**
 * Writes one page: its rows, the cursor or pending work that goes with them, and its
 * rejected records, in one transaction, so a crash at any instant leaves them consistent.
 */
export async function commitPage(
  ctx: SyncContext,
  resource: Resource,
  rejected: readonly Rejection[],
  write: (trx: Transaction<Database>) => Promise<PageWrite>,
): Promise<void> {
  let all: Rejection[] = [];
  const attempt = () => {
    all = [...rejected];
    // A session, so the page's rows can be COPYed into this transaction on PostgreSQL.
    return withSession(() =>
      ctx.db.transaction().execute(async (trx) => {
        const result = await write(trx);
        all.push(...(result.rejected ?? []));
        await recordRejections(trx, ctx.runId, all);
        return result.written;
      }),
    );
  };
  const written = await retryTransaction(ctx, attempt);
  ctx.tally.wrote(resource, written);
  for (const rejection of all) {
    ctx.tally.reject(resource);
    ctx.log.warn({ resource, url: rejection.url, reason: rejection.reason }, 'record rejected');
  }
}

const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const TRANSACTION_ATTEMPTS = 3;

/** Runs a transaction again (at most three times) when PostgreSQL aborts it for a deadlock or serialization failure. */
async function retryTransaction<T>(ctx: SyncContext, attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (n >= TRANSACTION_ATTEMPTS || typeof code !== 'string' || !RETRYABLE_SQLSTATES.has(code))
        throw err;
      ctx.log.warn({ code, attempt: n }, 'transaction aborted by the database, retrying');
    }
  }
}

/**
 * Upserts rows as one statement inside the page's transaction. If PostgreSQL refuses the
 * batch for its data (a value it cannot store, a broken reference), the rows are upserted
 * one by one under savepoints and only the refused ones become rejections. Other errors (a
 * lost connection) still fail the run.
 */
export async function upsertIsolating<T extends { raw: string }>(
  trx: Transaction<Database>,
  rows: T[],
  upsert: (db: Kysely<Database>, rows: T[]) => Promise<number>,
  describe: (row: T) => { resource: string; url: string },
): Promise<PageWrite & { rejected: Rejection[] }> {
  const attempt = await underSavepoint(trx, () => upsert(trx, rows));
  if (attempt.ok) return { written: attempt.value, rejected: [] };
  let written = 0;
  const rejected: Rejection[] = [];
  for (const row of rows) {
    const single = await underSavepoint(trx, () => upsert(trx, [row]));
    if (single.ok) written += single.value;
    else
      rejected.push({
        ...describe(row),
        reason: `PostgreSQL refused it: ${single.error.message}`,
        raw: row.raw,
      });
  }
  return { written, rejected };
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: Error };

async function underSavepoint<T>(
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

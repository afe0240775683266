import type { Kysely, Transaction } from 'kysely';

import type { CopyInto } from '../db/copy.ts';
import type { Database } from '../db/database.ts';
import { recordRejections, type Rejection } from '../db/queries/rejections.ts';
import { applyTransitions, type Transition } from '../db/queries/sync-state.ts';
import { underSavepoint, writeTransaction } from '../db/transactions.ts';
import type { SyncContext } from './context.ts';
import type { Resource } from './tally.ts';

export interface PageWrite {
  written: number;
  rejected?: Rejection[];
  /** The sync state the page moves (cursor, pending steps), applied after its rows. */
  transitions?: readonly Transition[];
}

/**
 * Writes one page: its rows, the cursor or pending work that goes with them, and its
 * rejected records, in one transaction, so a crash at any instant leaves them consistent.
 */
export async function commitPage(
  ctx: SyncContext,
  resource: Resource,
  rejected: readonly Rejection[],
  write: (trx: Transaction<Database>, copy: CopyInto | null) => Promise<PageWrite>,
): Promise<void> {
  ctx.limits?.beforePage();
  let all: Rejection[] = [];
  const written = await writeTransaction(
    ctx,
    async (trx, copy) => {
      all = [...rejected];
      const result = await write(trx, copy);
      await applyTransitions(trx, result.transitions ?? []);
      all.push(...(result.rejected ?? []));
      await recordRejections(trx, ctx.runId, all);
      return result.written;
    },
    (retry) => ctx.log.warn(retry, 'transaction aborted by the database, retrying'),
  );
  ctx.tally.wrote(resource, written);
  for (const rejection of all) {
    ctx.tally.reject(resource);
    ctx.log.warn({ resource, url: rejection.url, reason: rejection.reason }, 'record rejected');
  }
  ctx.limits?.afterPage();
}

/**
 * Commits sync state alone, in one transaction: `transitions`, or those `decide` returns
 * after reading the database in the same transaction.
 */
export async function commitState(
  ctx: SyncContext,
  resource: Resource,
  decide:
    | readonly Transition[]
    | ((trx: Transaction<Database>) => Promise<{ written?: number; transitions: Transition[] }>),
): Promise<void> {
  await commitPage(ctx, resource, [], async (trx) => {
    if (typeof decide !== 'function') return { written: 0, transitions: decide };
    const { written = 0, transitions } = await decide(trx);
    return { written, transitions };
  });
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

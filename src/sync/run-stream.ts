import type { Transaction } from 'kysely';

import type { CopyInto } from '../db/copy.ts';
import type { Database } from '../db/database.ts';
import type { Rejection } from '../db/queries/rejections.ts';
import { pipelined } from '../lib/pipelined.ts';
import type { Page } from '../weblate/pages.ts';
import { commitPage, type PageWrite } from './commit.ts';
import type { SyncContext } from './context.ts';
import { type NotFoundPolicy, onNotFound } from './not-found.ts';
import { type Item, readPages, type ReadSpec } from './read.ts';
import type { Read } from './reads.ts';

/** A validated page, as a stream's `prepare` sees it. */
export interface ReadPage<R, At> {
  page: Page<At>;
  items: Array<Item<R>>;
}

/** What a page's `write` gets beside its transaction and its prepared rows. */
export interface PageCommit<At> {
  page: Page<At>;
  /**
   * Settles once the page before has committed (it rejects if that page failed): whatever
   * claims "everything up to here is stored", a cursor above all, awaits it first.
   */
  previous: Promise<void>;
  /** COPY into this transaction, where the database can (see db/copy.ts); else null. */
  copy: CopyInto | null;
}

/**
 * What a stream declares; the runner does the rest. A stream reads records of one schema
 * from a source, turns each page into rows (`prepare`, pure CPU work) and writes them with
 * whatever goes with them (`write`: its cursor, pending work) in one transaction.
 */
export interface Stream<R, At, P> extends ReadSpec<R> {
  /**
   * A reason to reject a record that is valid but does not belong where it was listed (a
   * unit in another translation's list), or null.
   */
  foreign?: (record: R, page: Page<At>) => string | null;
  /** Rows for a validated page; runs while the page before commits. */
  prepare: (read: ReadPage<R, At>) => P;
  /** Writes a prepared page inside its transaction (see PageCommit). */
  write: (trx: Transaction<Database>, prepared: P, commit: PageCommit<At>) => Promise<PageWrite>;
  /** After the page's transaction committed (a transaction may run twice; this runs once). */
  committed?: (prepared: P, page: Page<At>) => void;
  /**
   * Whether a page's transaction may start while the page before still commits (their rows
   * are disjoint). Only where the database runs transactions side by side (see
   * SyncContext.overlapCommits); elsewhere pages commit one after another.
   */
  overlap?: boolean;
  /**
   * What a 404 from the source means (see not-found.ts); without one, a 404 fails the run.
   * A `fallback` returns what runStream returns.
   */
  notFound?: NotFoundPolicy<boolean>;
}

/**
 * Runs one stream over one read, each page in its own transaction, in the order of commits
 * of docs/internals.md#the-stream-runner. False when `notFound` settled a 404 that ended it.
 */
export async function runStream<R, At, P>(
  ctx: SyncContext,
  read: Read<At>,
  stream: Stream<R, At, P>,
): Promise<boolean> {
  const run = async () => {
    const prepare = ({ page, items, rejected }: ReadPage<R, At> & { rejected: Rejection[] }) => {
      const kept = stream.foreign === undefined ? items : claim(stream, page, items, rejected);
      return { page, rejected, prepared: stream.prepare({ page, items: kept }) };
    };
    const commit = async (
      { page, rejected, prepared }: ReturnType<typeof prepare>,
      previous: Promise<void>,
    ) => {
      await commitPage(ctx, stream.resource, rejected, (trx, copy) =>
        stream.write(trx, prepared, { page, previous, copy }),
      );
      stream.committed?.(prepared, page);
    };
    const overlap = stream.overlap === true && ctx.overlapCommits;
    await pipelined(readPages(ctx, read, stream), prepare, commit, overlap);
    return true;
  };
  if (stream.notFound === undefined) return run();
  return (await onNotFound(ctx, stream.notFound, run)) ?? false;
}

/** The items that belong where they were listed; the others join the page's rejections. */
function claim<R, At, P>(
  stream: Stream<R, At, P>,
  page: Page<At>,
  items: Array<Item<R>>,
  rejected: Rejection[],
): Array<Item<R>> {
  return items.filter((item) => {
    const reason = stream.foreign!(item.record, page);
    if (reason === null) return true;
    rejected.push({ resource: stream.resource, url: page.url, reason, raw: item.raw });
    return false;
  });
}

import { markMissingDeleted, type SoftDeletedTable } from '../db/queries/deletions.ts';
import { ListedIds } from '../weblate/record-id.ts';
import type { SyncContext } from './context.ts';

/**
 * What one listing showed, so that once it is complete the rows it lacks can be marked
 * deleted. Every record counts, valid or not: a record that failed validation (kept in
 * rejected_records) or that this run skipped still exists upstream, and must never make
 * its object look deleted. A listing proves nothing missing when a record's id cannot be
 * read, or when the list changed while it was read: its pages then reported different
 * counts, and a record removed from an earlier page moves every later one up a place, so
 * that one may fall between two pages unseen.
 */
export class Listing extends ListedIds {
  /** How the list's count changed while it was read, if it did. */
  moved: string | null = null;
  #count: { count: number; url: string } | null = null;

  /** Notes the records of one page, as parsed (before validation), and its list's `count`. */
  notePage(values: readonly unknown[], url: string, count: number | null = null): void {
    this.note(values, url);
    if (count === null) return;
    if (this.#count === null) this.#count = { count, url };
    else if (count !== this.#count.count)
      this.moved ??= `${url} counted ${count} records where ${this.#count.url} counted ${this.#count.count}`;
  }

  /** Why this listing cannot tell what the list lacks, or null when it can. */
  get unproven(): string | null {
    if (this.unidentified !== null) return `${this.unidentified} has no usable id`;
    if (this.moved !== null) return `the list changed while it was read (${this.moved})`;
    return null;
  }
}

/**
 * After a complete listing: marks the live rows of `table` within `scope` that it did not
 * show as deleted. If the listing cannot prove what is missing (see Listing), nothing is
 * marked in this run (with a warning); a later listing catches up.
 */
export async function markUnlisted(
  ctx: SyncContext,
  listing: Listing,
  table: SoftDeletedTable,
  scope: { column: string; value: string } | null,
): Promise<void> {
  if (listing.unproven !== null) return warnUnproven(ctx, listing, table);
  await markMissingDeleted(ctx.db, table, scope, [...listing.ids]);
}

/** The warning of a listing that cannot tell what it lacks (see markUnlisted). */
export function warnUnproven(ctx: SyncContext, listing: Listing, table: string): void {
  const why = listing.unproven;
  if (why === null) return;
  ctx.warn(
    'listing incomplete: no deletions',
    `${why}: nothing that list lacks is marked deleted in this run`,
    { table, why },
  );
}

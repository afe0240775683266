import { markMissingDeleted, type SoftDeletedTable } from '../db/queries/deletions.ts';
import { idText } from '../weblate/record-id.ts';
import type { SyncContext } from './context.ts';

/**
 * What one listing showed, so that once it is complete the rows it lacks can be marked
 * deleted. Every record counts, valid or not: a record that failed validation (kept in
 * rejected_records) or that this run skipped still exists upstream, and must never make
 * its object look deleted. A record whose id cannot be read leaves the listing unable to
 * prove what is missing.
 */
export class Listing {
  /** Ids as decimal text (unit ids exceed 2^53 on large instances). */
  readonly ids = new Set<string>();
  /** Where the first record without a usable id was, if any. */
  unidentified: string | null = null;

  /** Notes the records of one page, as parsed (before validation). */
  notePage(values: readonly unknown[], url: string): void {
    values.forEach((value, index) => {
      const id = idText(value);
      if (id !== null) this.ids.add(id);
      else this.unidentified ??= `record ${index + 1} of ${url}`;
    });
  }
}

/**
 * After a complete listing: marks the live rows of `table` within `scope` that it did not
 * show as deleted. If a record came without a usable id (it was rejected), it could be any
 * of them, so nothing is marked in this run (with a warning); a later listing catches up.
 */
export async function markUnlisted(
  ctx: SyncContext,
  listing: Listing,
  table: SoftDeletedTable,
  scope: { column: string; value: string } | null,
): Promise<void> {
  if (listing.unidentified !== null) return warnUnidentified(ctx, listing.unidentified, table);
  await markMissingDeleted(ctx.db, table, scope, [...listing.ids]);
}

/** The warning of a listing that cannot tell what it lacks (see markUnlisted). */
export function warnUnidentified(ctx: SyncContext, where: string, table: string): void {
  ctx.warn(
    'listing incomplete: no deletions',
    `${where} has no usable id: nothing that list lacks is marked deleted in this run`,
    { table, where },
  );
}

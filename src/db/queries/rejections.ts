import type { Kysely } from 'kysely';

import type { Database } from '../database.ts';

export interface Rejection {
  resource: string;
  url: string;
  reason: string;
  /** The record's text as the server sent it. */
  raw: string;
}

/** Keeps records that could not be stored, with the reason, so nothing is dropped silently. */
export async function recordRejections(
  db: Kysely<Database>,
  runId: number,
  rejections: readonly Rejection[],
): Promise<void> {
  if (rejections.length === 0) return;
  await db
    .insertInto('weblate.rejected_records')
    // PostgreSQL text cannot hold U+0000, which is one reason a record is rejected.
    .values(
      rejections.map((r) => ({ run_id: runId, ...r, raw: r.raw.replaceAll('\u0000', '\\u0000') })),
    )
    .execute();
}

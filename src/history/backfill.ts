import type { Kysely } from 'kysely';

import type { Database } from '../db/database.ts';
import type { DiskRoom } from '../db/embedded-limits.ts';
import { type OutagePolicy, rideThrough } from '../db/outage.ts';
import { type BackfillResult, rebuildEstimates } from '../db/queries/backfill.ts';
import type { Logger } from '../logger.ts';

export interface BackfillRun extends BackfillResult {
  durationMs: number;
}

/**
 * Rebuilds the estimated progress history (see db/queries/backfill.ts and docs/history.md)
 * and logs what it wrote. The caller holds the writer lock, as for any run that writes. On
 * the embedded database, `disk` is its room: the rebuild is one statement that no check
 * could stop halfway, so it starts only with the room a write keeps free. With `outage`, a
 * lost PostgreSQL database is waited for (db/outage.ts).
 */
export async function runBackfill(
  db: Kysely<Database>,
  log: Logger,
  disk: DiskRoom | null,
  outage: OutagePolicy | null = null,
): Promise<BackfillRun> {
  disk?.check('backfill');
  const started = performance.now();
  // One transaction: after a lost database it runs again whole.
  const result = await rideThrough(db, outage, () => rebuildEstimates(db), {
    onLost: (error) =>
      log.info({ error: error.message }, 'lost the database; waiting for it to answer again'),
    onBack: (away) =>
      log.warn({ away }, `the database was away for ${away}; the estimate starts again`),
  });
  const run = { ...result, durationMs: Math.round(performance.now() - started) };
  log.info(run, 'progress history estimated from the change log');
  if (result.clamped > 0) {
    log.warn(
      { clamped: result.clamped },
      'some estimated counts left the range 0..total and were clamped: the change log misses moves there (docs/history.md)',
    );
  }
  return run;
}

/** The line `backfill` prints, and the sync after its first full sync logs. */
export function describeBackfill(run: BackfillRun): string {
  const seconds = (run.durationMs / 1000).toFixed(1);
  if (run.translations === 0)
    return `no estimate written: no translation has changes before its first statistics snapshot (${seconds} s)`;
  const clamped = run.clamped === 0 ? '' : `, ${run.clamped} clamped into 0..total`;
  return `estimated ${run.days} translation-days of ${run.translations} translations before their first snapshot, in ${run.rows} rows${clamped} (${seconds} s)`;
}

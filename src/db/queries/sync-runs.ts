import { type Kysely, sql } from 'kysely';

import { toUtcMicros } from '../../lib/timestamps.ts';
import type { Database, SyncRunRow } from '../database.ts';

/** Opens a `running` row for a sync and returns its id. */
export async function startSyncRun(
  db: Kysely<Database>,
  options: { kind: string; weblateUrl: string },
): Promise<number> {
  const row = await db
    .insertInto('weblate.sync_runs')
    .values({ kind: options.kind, weblate_url: options.weblateUrl })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface RunOutcome {
  /** `interrupted`: stopped by SIGINT/SIGTERM after the work in flight; the next run resumes. */
  status: 'succeeded' | 'failed' | 'interrupted';
  requests: number;
  rowsWritten: number;
  rejected: number;
  error: string | null;
  summary: unknown;
}

/** Closes a run with its outcome and counters. */
export async function finishSyncRun(
  db: Kysely<Database>,
  id: number,
  outcome: RunOutcome,
): Promise<void> {
  await db
    .updateTable('weblate.sync_runs')
    .set({
      status: outcome.status,
      finished_at: sql<string>`clock_timestamp()`,
      requests: outcome.requests,
      rows_written: outcome.rowsWritten,
      rejected: outcome.rejected,
      error: outcome.error,
      summary: JSON.stringify(outcome.summary),
    })
    .where('id', '=', id)
    .execute();
}

/** Why a run left `running` was closed: said the same in the table and by `status`. */
export const ABANDONED_RUN =
  'ended without recording its end: its process stopped, or lost the database, before it finished';

/**
 * Closes, as failed, every run still marked running: only a caller that holds the writer
 * lock may, since then no other run is writing. Returns their ids.
 */
export async function closeAbandonedRuns(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .updateTable('weblate.sync_runs')
    .set({
      status: 'failed',
      finished_at: sql<string>`clock_timestamp()`,
      error: sql<string>`coalesce(error || '; ', '') || ${ABANDONED_RUN}::text || ' (closed when a later run began)'`,
    })
    .where('status', '=', 'running')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Kinds of run that sync the mirror (a `statistics` run only snapshots statistics). */
const SYNC_KINDS = ['full', 'incremental', 'webhook'];

/** Whether any sync of this mirror has succeeded (later runs can be incremental). */
export async function hasSucceededRun(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('weblate.sync_runs')
    .select('id')
    .where('status', '=', 'succeeded')
    .where('kind', 'in', SYNC_KINDS)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * When the newest successful sync (full or incremental) finished, in canonical ISO form
 * (`2026-03-01T10:34:56.123456Z`), or null if none has.
 */
export async function lastSucceededSyncAt(db: Kysely<Database>): Promise<string | null> {
  // weblate.sync_freshness is the one definition, which the dashboard reads too.
  const { rows } = await sql<{ last_success: string | null }>`
    select last_success::text from weblate.sync_freshness`.execute(db);
  const at = rows[0]?.last_success ?? null;
  return at === null ? null : toUtcMicros(at);
}

/** The newest run that ended (any kind), as the worker's health reports it. */
export interface EndedRun {
  id: number;
  kind: string;
  status: string;
  finishedAt: string;
  error: string | null;
}

export async function lastEndedRun(db: Kysely<Database>): Promise<EndedRun | null> {
  const row = await db
    .selectFrom('weblate.sync_runs')
    .select(['id', 'kind', 'status', 'finished_at', 'error'])
    .where('status', '!=', 'running')
    .where('finished_at', 'is not', null)
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (row === undefined || row.finished_at === null) return null;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    finishedAt: toUtcMicros(row.finished_at),
    error: row.error,
  };
}

/** The most recent runs, newest first. */
export function listSyncRuns(db: Kysely<Database>, limit: number): Promise<SyncRunRow[]> {
  return db
    .selectFrom('weblate.sync_runs')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

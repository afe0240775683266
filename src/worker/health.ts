import { type Kysely, sql } from 'kysely';

import type { Database } from '../db/database.ts';
import { type EndedRun, lastEndedRun, lastSucceededSyncAt } from '../db/queries/sync-runs.ts';
import { toError } from '../errors.ts';

export interface HealthReport {
  healthy: boolean;
  /** Why the mirror is unhealthy; null when it is healthy. */
  reason: string | null;
  database: 'ok' | 'unreachable';
  /** When the newest successful sync (full or incremental) finished. */
  lastSuccessfulSync: string | null;
  /** Seconds since then. */
  ageSeconds: number | null;
  maxAgeSeconds: number;
  /** The newest run that ended, of any kind and process, with its error: what happened last. */
  lastRun: EndedRun | null;
}

export interface HealthOptions {
  maxAgeSeconds: number;
  /** How long the database may take to answer (default 5 s). */
  timeoutMs?: number;
  now?: () => number;
}

/**
 * Healthy when the database answers and the newest successful sync finished less than
 * `maxAgeSeconds` ago (a sync of any process: replicas share the verdict).
 */
export async function checkHealth(
  db: Kysely<Database>,
  options: HealthOptions,
): Promise<HealthReport> {
  const now = options.now ?? Date.now;
  const base = {
    maxAgeSeconds: options.maxAgeSeconds,
    lastSuccessfulSync: null,
    ageSeconds: null,
    lastRun: null,
  };
  let last: string | null;
  let lastRun: EndedRun | null;
  try {
    [last, lastRun] = await withTimeout(
      (async () => {
        await sql`select 1`.execute(db);
        return [await lastSucceededSyncAt(db), await lastEndedRun(db)] as const;
      })(),
      options.timeoutMs ?? 5000,
    );
  } catch (err) {
    return {
      ...base,
      healthy: false,
      database: 'unreachable',
      reason: `the database does not answer: ${toError(err).message}`,
    };
  }
  if (last === null)
    return {
      ...base,
      lastRun,
      healthy: false,
      database: 'ok',
      reason: 'no sync has succeeded yet',
    };
  const ageSeconds = Math.max(0, Math.round((now() - Date.parse(last)) / 1000));
  const healthy = ageSeconds <= options.maxAgeSeconds;
  return {
    ...base,
    healthy,
    database: 'ok',
    lastSuccessfulSync: last,
    ageSeconds,
    lastRun,
    reason: healthy
      ? null
      : `the last successful sync finished ${ageSeconds} s ago, more than WORKER_HEALTH_MAX_AGE_SECONDS (${options.maxAgeSeconds})`,
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  // The query goes on after a timeout; its eventual failure must not go unhandled.
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

import type { Config } from '../config.ts';
import type { LockSession } from '../db/advisory-lock.ts';
import type { DbHandle } from '../db/client.ts';
import type { OutagePolicy } from '../db/outage.ts';
import { closeAbandonedRuns } from '../db/queries/sync-runs.ts';
import type { Logger } from '../logger.ts';
import type { WeblateClient, WeblateClientOptions } from '../weblate/client.ts';
import { createClient } from '../weblate/from-config.ts';
import type { SyncDeps, SyncScope } from './context.ts';
import { recordLateEnds } from './run-record.ts';
import { overlapsCommits } from './run-sync.ts';

/**
 * Every run that writes the mirror holds this lock while it runs, so that a sync, a
 * reconcile sweep and a statistics snapshot never interleave their writes (their cursors,
 * pending work and statistics history assume one writer). A run waits for it: a sync due
 * at 03:30 runs after the reconcile sweep of 03:30 rather than not at all, and a sync by
 * hand waits for the worker's run.
 */
export const WRITER_LOCK = 'mirror-writer';

export interface WriterOptions {
  signal?: AbortSignal;
  /** How often a run waiting for the writer lock tries again (default 1 s). */
  pollMs?: number;
  /** Called once, if the lock was taken and the run waits. */
  onWait: () => void;
  /** Sees the run's client once it exists (for metrics of its rate gate). */
  onClient?: (client: WeblateClient) => void;
}

/** What a run writes with: its logger, its scope, and how to make its own Weblate client. */
export interface WriterRun {
  log: Logger;
  scope: SyncScope;
  /** Called once the lock is held; the client is closed when the run settles. */
  client: () => WeblateClient;
  /** How long the run waits for its PostgreSQL database when it loses it; unset: it fails. */
  databaseRetryMs?: number;
}

/** The run a configuration describes: WEBLATE_URL's client, WEBLATE_PROJECTS and WEBLATE_USERS. */
export function configuredRun(
  config: Config,
  log: Logger,
  extra: Pick<WeblateClientOptions, 'onResponse'> = {},
): WriterRun {
  return {
    log,
    scope: { projects: config.projects, users: config.users },
    client: () => createClient(config, log, extra),
    databaseRetryMs: config.databaseRetryMs,
  };
}

/**
 * The one place a run that writes the mirror gets its dependencies (for `sync`, `run`, the
 * worker's jobs and the tests): it waits for the writer lock in `session`, then builds the
 * run's own Weblate client (its request counts are the run's summary) and the SyncDeps; the
 * client is closed when `work` settles.
 */
export async function withWriter<T>(
  session: LockSession,
  handle: Pick<DbHandle, 'db' | 'kind' | 'copy' | 'limits' | 'location'>,
  run: WriterRun,
  options: WriterOptions,
  work: (deps: SyncDeps) => Promise<T>,
): Promise<T> {
  await session.waitLock(WRITER_LOCK, {
    signal: options.signal,
    pollMs: options.pollMs,
    onWait: options.onWait,
  });
  // Holding the writer lock, this process is the only writer: a run still marked running
  // stopped before it could record its end (this process's own are recorded as they ended).
  const late = await recordLateEnds(handle.db);
  if (late.length > 0)
    run.log.warn({ runs: late }, 'runs whose end could not be recorded, recorded');
  const closed = await closeAbandonedRuns(handle.db);
  if (closed.length > 0)
    run.log.warn({ runs: closed }, 'runs that ended without recording it are closed as failed');
  const client = run.client();
  options.onClient?.(client);
  try {
    return await work({
      db: handle.db,
      client,
      log: run.log,
      scope: run.scope,
      overlapCommits: overlapsCommits(handle.kind),
      copy: handle.copy,
      limits: handle.limits,
      databaseLocation: handle.location,
      outage: outagePolicy(session, handle, run.databaseRetryMs, options),
    });
  } finally {
    await client.close();
  }
}

/**
 * How a run holding `session`'s locks rides through losing PostgreSQL: it waits up to
 * `windowMs`, then takes its locks back. The embedded database lives in the process: none.
 */
export function outagePolicy(
  session: LockSession,
  handle: Pick<DbHandle, 'kind' | 'location'>,
  windowMs: number | undefined,
  options: Pick<WriterOptions, 'pollMs' | 'onWait'>,
): OutagePolicy | null {
  if (handle.kind !== 'postgres' || windowMs === undefined) return null;
  return {
    location: handle.location,
    windowMs,
    regain: (signal) => session.regain({ signal, pollMs: options.pollMs, onWait: options.onWait }),
  };
}

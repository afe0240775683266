import type { Kysely } from 'kysely';

import { withLockSession } from '../../src/db/advisory-lock.ts';
import type { Database } from '../../src/db/database.ts';
import type { Logger } from '../../src/logger.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import type { SyncDeps } from '../../src/sync/context.ts';
import { runSync, type SyncOptions, type SyncResult } from '../../src/sync/run-sync.ts';
import { withWriter, type WriterRun } from '../../src/sync/write-session.ts';
import type { WeblateClientOptions } from '../../src/weblate/client.ts';
import { createTestClient } from './client.ts';
import { DATABASE_KIND } from './database.ts';
import { captureLogger } from './logs.ts';

/**
 * Runs `work` with a run's dependencies the way the CLI and the worker get them: under the
 * writer lock, built by withWriter (which makes the client and closes it afterwards).
 */
export function asWriter<T>(
  db: Kysely<Database>,
  run: WriterRun,
  work: (deps: SyncDeps) => Promise<T>,
): Promise<T> {
  const handle = { db, kind: DATABASE_KIND };
  return withLockSession(handle, (session) =>
    withWriter(session, handle, run, { onWait: () => undefined }, work),
  );
}

/** One sync into `db`, as a writer (see asWriter). */
export function syncAsWriter(
  db: Kysely<Database>,
  run: WriterRun,
  options: SyncOptions = {},
): Promise<SyncResult> {
  return asWriter(db, run, (deps) => runSync(deps, options));
}

/** One sync of the simulator into `db`, with users that have subscriptions. */
export async function syncSimulator(
  sim: RunningSimulator,
  db: Kysely<Database>,
  options: SyncOptions & {
    client?: Partial<WeblateClientOptions>;
    projects?: string[] | null;
    log?: Logger;
  } = {},
): Promise<SyncResult> {
  const log = options.log ?? captureLogger('info').log;
  const users = sim.instance.users.filter((u) => u.subscriptions.length > 0).map((u) => u.username);
  return syncAsWriter(
    db,
    {
      log,
      scope: { projects: options.projects ?? null, users },
      client: () => createTestClient(sim.url, { concurrency: 4, log, ...options.client }),
    },
    options,
  );
}

/** Requests a sync made, by resource. */
export function requestsByResource(result: SyncResult): Record<string, number> {
  return Object.fromEntries(result.summary.resources.map((r) => [r.resource, r.requests]));
}

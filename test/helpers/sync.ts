import { sql } from 'kysely';
import { expect } from 'vitest';

import { withLockSession } from '../../src/db/advisory-lock.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { apiRootOf } from '../../src/lib/instance-url.ts';
import type { Logger } from '../../src/logger.ts';
import type { RequestLogEntry, RunningSimulator } from '../../src/simulator/index.ts';
import type { SyncDeps } from '../../src/sync/context.ts';
import { runSync, type SyncOptions, type SyncResult } from '../../src/sync/run-sync.ts';
import { withWriter, type WriterRun } from '../../src/sync/write-session.ts';
import type { WeblateClientOptions } from '../../src/weblate/client.ts';
import { createTestClient } from './client.ts';
import { captureLogger } from './logs.ts';

/**
 * Runs `work` with a run's dependencies the way the CLI and the worker get them: under the
 * writer lock, built by withWriter (which makes the client and closes it afterwards).
 */
export function asWriter<T>(
  handle: DbHandle,
  run: WriterRun,
  work: (deps: SyncDeps) => Promise<T>,
): Promise<T> {
  return withLockSession(handle, (session) =>
    withWriter(session, handle, run, { onWait: () => undefined }, work),
  );
}

/** One sync into the database, as a writer (see asWriter). */
export function syncAsWriter(
  handle: DbHandle,
  run: WriterRun,
  options: SyncOptions = {},
): Promise<SyncResult> {
  return asWriter(handle, run, (deps) => runSync(deps, options));
}

/**
 * Records `url` as the address of the instance `handle` mirrors, as `move-instance --force`
 * would, without its rewrite of stored links: for a test that reads its simulator through a
 * proxy beside the simulator's own address (a database refuses any address but one).
 */
export async function servedAt(handle: DbHandle, url: string): Promise<void> {
  await sql`update weblate.instances set api_root = ${apiRootOf(url)}`.execute(handle.db);
}

/** The simulator's users that have notification subscriptions: WEBLATE_USERS of a clean sync. */
export function subscribedUsers(sim: RunningSimulator): string[] {
  return sim.instance.users.filter((u) => u.subscriptions.length > 0).map((u) => u.username);
}

type SyncTestOptions = SyncOptions & {
  client?: Partial<WeblateClientOptions>;
  projects?: string[] | null;
  log?: Logger;
};

/** One sync of the simulator into the database, with users that have subscriptions. */
export function syncSimulator(
  sim: RunningSimulator,
  handle: DbHandle,
  options: SyncTestOptions = {},
): Promise<SyncResult> {
  return syncServed(sim.url, subscribedUsers(sim), handle, options);
}

/** One sync of the instance served at `url` (a simulator in another process, say). */
export async function syncServed(
  url: string,
  users: string[],
  handle: DbHandle,
  options: SyncTestOptions = {},
): Promise<SyncResult> {
  const log = options.log ?? captureLogger('info').log;
  return syncAsWriter(
    handle,
    {
      log,
      scope: { projects: options.projects ?? null, users },
      client: () => createTestClient(url, { concurrency: 4, log, ...options.client }),
    },
    options,
  );
}

/**
 * Requests a sync asked for, by resource: a request tried again counts once. How often one
 * is tried again is up to the machine (a keep-alive connection the server closes just as the
 * client reuses it), not the sync, so tests of what a sync asks count this.
 */
export function requestsByResource(result: SyncResult): Record<string, number> {
  return Object.fromEntries(
    result.summary.resources.map((r) => [r.resource, r.requests - r.retries]),
  );
}

/** Requests a sync asked for in all: a request tried again counts once. */
export function requestsAsked(result: SyncResult): number {
  return result.summary.resources.reduce((n, r) => n + r.requests - r.retries, 0);
}

/**
 * The simulator saw between `requestsAsked` and every attempt: an attempt that failed
 * before it reached the server (a reset connection) is counted by the sync only.
 */
export function expectServedRequests(result: SyncResult, served: number): void {
  expect(served).toBeGreaterThanOrEqual(requestsAsked(result));
  expect(served).toBeLessThanOrEqual(result.summary.requests);
}

/**
 * The requests that reached the simulator, of those whose path and query `match` selects,
 * each target once (its first arrival): what a sync asked of the server. The server cannot
 * tell a request tried again from a new one (a busy machine's timeout or reset connection),
 * but a sync never asks for the same page twice in one run.
 */
export function servedOnce(sim: RunningSimulator, match: RegExp = /./): RequestLogEntry[] {
  const seen = new Set<string>();
  return sim.requests.entries.filter((e) => {
    if (!match.test(e.target) || seen.has(e.target)) return false;
    seen.add(e.target);
    return true;
  });
}

/** The targets of servedOnce. */
export function servedTargets(sim: RunningSimulator, match?: RegExp): string[] {
  return servedOnce(sim, match).map((e) => e.target);
}

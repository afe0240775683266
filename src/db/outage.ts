import { type Kysely, sql } from 'kysely';

import {
  DatabaseLostError,
  DatabaseUnreachableError,
  ExplainedError,
  HttpError,
  ResponseError,
  toError,
} from '../errors.ts';
import { sleep } from '../lib/sleep.ts';
import { explainDatabaseError } from './connect-errors.ts';
import type { Database } from './database.ts';

// A PostgreSQL database that goes away under a run (a restart, a crash, a failover) is
// waited for, like a Weblate that does not answer (docs/reliability.md#database-outages).

/**
 * Whether `err`, or an error it wraps, says the database went away rather than refused. A
 * connection PostgreSQL refused is explained where it is opened (DatabaseUnreachableError);
 * an error that explains a Weblate answer or another fault ends the search, whatever it wraps.
 */
export function isDatabaseLost(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof DatabaseLostError || current instanceof DatabaseUnreachableError)
      return true;
    if (
      current instanceof ExplainedError ||
      current instanceof HttpError ||
      current instanceof ResponseError
    )
      return false;
    if (explainDatabaseError(current, '') instanceof DatabaseLostError) return true;
    current = current.cause;
  }
  return false;
}

/** The first wait between two probes; each one doubles it, up to the longest. */
const FIRST_PROBE_MS = 250;
const LONGEST_PROBE_MS = 5_000;

/**
 * Probes the database until it answers, with backoff, and returns true; false once
 * `deadline` (epoch ms) passes first. A probe that fails for another reason than the
 * database's absence is thrown: waiting would not mend it. Rejects when `signal` aborts.
 */
export async function awaitDatabase(
  db: Kysely<Database>,
  deadline: number,
  signal?: AbortSignal,
): Promise<boolean> {
  for (let wait = FIRST_PROBE_MS; ; wait = Math.min(wait * 2, LONGEST_PROBE_MS)) {
    try {
      await sql`select 1`.execute(db);
      return true;
    } catch (err) {
      if (!isDatabaseLost(err)) throw toError(err);
    }
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(wait, left), signal);
  }
}

/** Seconds, to the tenth, for the line that says how long the database was away. */
export function awayFor(sinceMs: number): string {
  return `${((Date.now() - sinceMs) / 1000).toFixed(1)} s`;
}

/** How a run rides through losing its database; without one, such a loss fails it at once. */
export interface OutagePolicy {
  /** The database, as its errors name it (DbHandle.location). */
  location: string;
  /** How long one outage is waited for (DATABASE_RETRY_SECONDS), in ms. */
  windowMs: number;
  /** Takes back what the run held on the database (its locks) once it answers again. */
  regain(signal?: AbortSignal): Promise<void>;
}

/** Outages one run rides through at most: a statement that brings the server down each time fails. */
const MOST_OUTAGES = 10;

export interface OutageHooks {
  signal?: AbortSignal;
  /** The database was lost (the error explained): waiting begins. */
  onLost?: (error: Error) => void;
  /** It answers again, its locks are back, after `away` (e.g. "2.4 s"): `attempt` runs again. */
  onBack?: (away: string) => void;
}

/**
 * Runs `attempt`, and again after each failure that says the database went away, once it
 * answers again and `policy.regain` took back the locks: `attempt` must resume from what was
 * committed. Past the window (or without a policy, or once the signal aborted) the failure
 * is thrown, the first cause leading.
 */
export async function rideThrough<T>(
  db: Kysely<Database>,
  policy: OutagePolicy | null,
  attempt: () => Promise<T>,
  hooks: OutageHooks = {},
): Promise<T> {
  for (let outages = 1; ; outages++) {
    try {
      return await attempt();
    } catch (err) {
      if (policy === null || hooks.signal?.aborted === true || !isDatabaseLost(err)) throw err;
      const lost = Date.now();
      const error = explainDatabaseError(err, policy.location);
      hooks.onLost?.(error);
      const back =
        outages <= MOST_OUTAGES &&
        policy.windowMs > 0 &&
        (await regainWithin(db, policy, lost + policy.windowMs, hooks.signal));
      if (!back) throw unanswered(error, policy.windowMs, outages);
      hooks.onBack?.(awayFor(lost));
    }
  }
}

/** Waits for the database and takes the locks back; false once `deadline` passes first. */
async function regainWithin(
  db: Kysely<Database>,
  policy: OutagePolicy,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  while (await awaitDatabase(db, deadline, signal)) {
    try {
      await policy.regain(signal);
      return true;
    } catch (err) {
      // Gone again between the probe and the locks: wait on.
      if (!isDatabaseLost(err)) throw err;
    }
  }
  return false;
}

/** The first cause, and why the run no longer waits for the database. */
function unanswered(error: Error, windowMs: number, outages: number): Error {
  const why =
    outages > MOST_OUTAGES
      ? `it went away ${MOST_OUTAGES} times in one run`
      : `it did not answer again within DATABASE_RETRY_SECONDS=${windowMs / 1000}`;
  return new DatabaseLostError(`${error.message}; ${why}`, { cause: error });
}

import { MissingDatabaseError, toError, UnreachableError } from '../errors.ts';
import { connectFailureOf } from '../lib/network-errors.ts';

/** Where a PostgreSQL database is, without credentials. */
export interface PostgresTarget {
  /** host:port */
  server: string;
  database: string;
}

/**
 * A failed connection to PostgreSQL, worded with the setting to check; any other error is
 * returned as it is. The only place such errors are told apart: every connection (Kysely's,
 * COPY's, lock sessions') is opened through it.
 */
export function explainConnectError(err: unknown, target: PostgresTarget): Error {
  const location = `${target.server}/${target.database}`;
  const failure = connectFailureOf(err);
  if (failure !== null)
    return new UnreachableError(
      `cannot reach the database at ${location} (${failure}): is PostgreSQL running, and is DATABASE_URL right?`,
      { cause: err },
    );
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '3D000')
    return new MissingDatabaseError(
      `there is no database "${target.database}" on ${target.server}: create it, or check DATABASE_URL`,
      { cause: err },
    );
  // The server's message names the user; the user and password stay out of ours.
  if (code === '28P01')
    return new UnreachableError(
      `the database at ${location} refused the login (password authentication failed): check the user and password in DATABASE_URL`,
      { cause: err },
    );
  return toError(err);
}

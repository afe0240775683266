import {
  DatabaseFailureError,
  DatabaseLostError,
  DatabaseUnreachableError,
  ExplainedError,
  MissingDatabaseError,
  toError,
  UnreachableError,
} from '../errors.ts';
import { connectFailureOf, explainTlsFailure, tlsFailureOf } from '../lib/network-errors.ts';

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
  const tls = tlsFailureOf(err);
  if (tls !== null)
    return new UnreachableError(
      explainTlsFailure(tls, `the database at ${location}`, 'DATABASE_URL (sslrootcert, sslmode)'),
      { cause: err },
    );
  const failure = connectFailureOf(err);
  if (failure !== null)
    return new DatabaseUnreachableError(
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

/** node-postgres's own words for a connection that broke under a query. */
const LOST_CONNECTION = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/** Socket errors of a connection that was open. */
const SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * An error of the mirror's database while a command used it (lost, shut down, out of disk
 * or memory), said in one line that names the database: `location` is host:port/database or
 * the embedded database's folder, without credentials. Any other error, and one already
 * explained, is returned as it is.
 */
export function explainDatabaseError(err: unknown, location: string): Error {
  const error = toError(err);
  if (error instanceof ExplainedError) return error;
  const code = (err as { code?: unknown } | null)?.code;
  const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
  const failure = connectFailureOf(err);
  const where = `the database at ${location}`;
  if (failure !== null)
    return new DatabaseUnreachableError(`lost ${where} (${failure})`, { cause: err });
  if (
    LOST_CONNECTION.some((m) => error.message.startsWith(m)) ||
    (typeof code === 'string' && SOCKET_CODES.has(code)) ||
    sqlState?.startsWith('08') === true ||
    sqlState?.startsWith('57P') === true
  )
    return new DatabaseLostError(`lost ${where}: ${firstLine(error.message)}`, { cause: err });
  if (sqlState === '53100' || /No space left on device/.test(error.message))
    return new DatabaseFailureError(`${where}: its disk is full (${firstLine(error.message)})`, {
      cause: err,
    });
  if (sqlState?.startsWith('53') === true)
    return new DatabaseFailureError(`${where}: ${firstLine(error.message)}`, { cause: err });
  return error;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

/**
 * Error classes of weblate-mirror. The class tells the handler how to react; messages are
 * written for the person running the mirror and never contain the API token.
 */

/** Normalises anything thrown into an Error. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === 'string' ? value : JSON.stringify(value));
}

/** A wrong or missing setting: reported once, exit code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

/**
 * WEBLATE_URL names another instance than the one the database mirrors: a setting that
 * does not fit the database, found before the run reads anything (exit code 2).
 */
export class InstanceMismatchError extends ConfigError {
  override name = 'InstanceMismatchError';
  constructor(message: string) {
    super([message]);
  }
}

/** Bad command-line usage: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * An error whose message says, in words, what failed, where, and what to check: the CLI
 * prints it without the errors it wraps (they stay on `cause`, for the logs).
 */
export class ExplainedError extends Error {
  override name = 'ExplainedError';
}

/** A server (Weblate or the database) that cannot be reached, or that refuses to connect. */
export class UnreachableError extends ExplainedError {
  override name = 'UnreachableError';
}

/** The mirror's database lost, shut down or out of space while a command used it. */
export class DatabaseFailureError extends ExplainedError {
  override name = 'DatabaseFailureError';
}

/**
 * The mirror's PostgreSQL database went away under a command: a lost connection, a restart or
 * failover in progress. Worth waiting for (db/outage.ts), unlike a refusal or a full disk.
 */
export class DatabaseLostError extends DatabaseFailureError {
  override name = 'DatabaseLostError';
}

/** The mirror's PostgreSQL database refused or timed out a new connection: it may come back. */
export class DatabaseUnreachableError extends UnreachableError {
  override name = 'DatabaseUnreachableError';
}

/** A PostgreSQL database that does not exist (SQLSTATE 3D000). */
export class MissingDatabaseError extends ExplainedError {
  override name = 'MissingDatabaseError';
}

/** A command that only reads, pointed at a folder or database that holds no mirror. */
export class NoMirrorError extends ExplainedError {
  override name = 'NoMirrorError';
}

/** A sync that cannot go on; the run is marked failed and the message says why. */
export class SyncError extends Error {
  override name = 'SyncError';
}

/** A sync into the embedded database that stopped at its memory limit (db/embedded-limits.ts). */
export class MemoryLimitError extends SyncError {
  override name = 'MemoryLimitError';
  constructor(rssBytes: number, limitBytes: number) {
    const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
    super(
      `stopped before the embedded database runs out of memory: the process holds ${mb(rssBytes)} MB, ` +
        `over WEBLATE_MIRROR_MEMORY_LIMIT_MB=${mb(limitBytes)}. An instance this large needs PostgreSQL: ` +
        'set DATABASE_URL to a PostgreSQL database and sync into it. What this run committed is ' +
        'kept; a sync with a higher limit resumes from it.',
    );
  }
}

/** What a command was about to write into the embedded database (see DiskRoomError). */
export type DiskWork = 'sync' | 'backfill' | 'migrate' | 'move' | 'check';

/**
 * A write into the embedded database stopped, or never started, while its disk still had
 * room (db/embedded-limits.ts): nothing it had not committed is lost.
 */
export class DiskRoomError extends ExplainedError {
  override name = 'DiskRoomError';
  constructor(folder: string, freeBytes: number, reserveBytes: number, work: DiskWork = 'sync') {
    const room = `${mb(freeBytes)} MB free, under the ${mb(reserveBytes)} MB`;
    super(
      {
        sync:
          `stopped before the disk of the embedded database at ${folder} is full: ${room} a sync ` +
          'keeps free. What this run committed is kept; free some space and sync again to resume from it.',
        backfill:
          `did not estimate the progress history: the disk of the embedded database at ${folder} has ` +
          `${room} a write keeps free. The estimates are as they were; free some space and run ` +
          '`weblate-mirror backfill` again.',
        migrate:
          `did not migrate the embedded database at ${folder}: its disk has ${room} a write keeps ` +
          'free. The database is as it was; free some space and run the command again.',
        move:
          `did not move the embedded database at ${folder} to the new PostgreSQL release: its disk ` +
          `has ${room} the move needs (a copy of the database beside its old folder, which is ` +
          'kept, and the room a write keeps free). The database is as it was; free some space and ' +
          'run the command again.',
        check:
          `the disk of the embedded database at ${folder} has ${room} a sync keeps free: free some ` +
          'space before the next sync.',
      }[work],
    );
  }
}

/** Whole megabytes, rounded down: a reserve is never said to be met when it is not. */
function mb(bytes: number): number {
  return Math.floor(bytes / (1024 * 1024));
}

/** A record of the API that does not have the shape weblate-mirror needs. */
export class TransformError extends Error {
  override name = 'TransformError';
}

export interface HttpErrorDetails {
  status: number;
  url: string;
  /** Machine-readable code from Weblate's error body, e.g. `not_found`. */
  code: string | null;
  /** Human-readable detail from Weblate's error body, shortened. */
  detail: string | null;
}

/** A non-success HTTP answer. `url` never carries credentials. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly url: string;
  readonly code: string | null;
  readonly detail: string | null;
  constructor(message: string, details: HttpErrorDetails) {
    super(message);
    this.status = details.status;
    this.url = details.url;
    this.code = details.code;
    this.detail = details.detail;
  }
}

/** The server refused the credentials (401) or the permission (403). */
export class AuthError extends HttpError {
  override name = 'AuthError';
}

/** A response that could not be used: not JSON, truncated, or a pagination loop. */
export class ResponseError extends Error {
  override name = 'ResponseError';
  /** True when another attempt may succeed (a truncated body), false for a broken server. */
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.retryable = options.retryable;
  }
}

/** Errors worth another attempt: network trouble, timeouts, overload, broken bodies. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof AuthError) return false;
  if (err instanceof HttpError) return [408, 425, 429, 500, 502, 503, 504].includes(err.status);
  if (err instanceof ResponseError) return err.retryable;
  if (err instanceof Error) return NETWORK_CODES.has((err as NodeJS.ErrnoException).code ?? '');
  return false;
}

/**
 * A timeout, or a gateway's 502/503/504: how a request the server takes too long to answer
 * fails (behind a proxy, or with its own worker timeout). A smaller request may succeed.
 */
export function isTimeoutOrGatewayError(err: unknown): boolean {
  if (err instanceof AuthError) return false;
  if (err instanceof HttpError) return [502, 503, 504].includes(err.status);
  return err instanceof Error && TIMEOUT_CODES.has((err as NodeJS.ErrnoException).code ?? '');
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

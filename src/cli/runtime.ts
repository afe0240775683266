import type { Config } from '../config.ts';
import { createDb, type DbHandle, type DbOptions, openMirror } from '../db/client.ts';
import { explainDatabaseError } from '../db/connect-errors.ts';
import { migrateToLatest } from '../db/migrator.ts';
import { redactUrlsInText } from '../lib/redact.ts';
import type { Logger } from '../logger.ts';
import { recordLateEnds } from '../sync/run-record.ts';

/** Writes a line of the command's result to stdout (summaries, tables, reports, rows). */
export function print(text = ''): void {
  if (!process.stdout.destroyed) process.stdout.write(`${text}\n`);
}

/**
 * Writes a line for people to stderr: an error or a warning, which stays out of the result on
 * stdout (a program reading it, `sync >/dev/null` in cron). Logs go to stderr too.
 */
export function printError(text: string): void {
  if (!process.stderr.destroyed) process.stderr.write(`${redactUrlsInText(text)}\n`);
}

/** Writes one JSON document (lib/json-document.ts) on one line of stdout, and nothing else. */
export function printJson(document: object): void {
  print(JSON.stringify(document));
}

/**
 * Opens the configured database, runs `fn`, and always closes it. `migrate` creates the
 * database where it is missing and migrates it; `read` opens an existing mirror only, and
 * read-only (see openMirror).
 */
export async function withDatabase<T>(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'memoryLimitMb'>,
  log: Logger,
  options: Pick<DbOptions, 'lockWaitMs' | 'shareSession' | 'lockHolder'> & {
    mode: 'migrate' | 'read';
  },
  fn: (handle: DbHandle) => Promise<T>,
): Promise<T> {
  const dbOptions: DbOptions = {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    lockWaitMs: options.lockWaitMs,
    shareSession: options.shareSession,
    lockHolder: options.lockHolder,
    memoryLimitMb: config.memoryLimitMb,
    onNotice: (message: string) => log.warn(message),
  };
  const handle = options.mode === 'read' ? await openMirror(dbOptions) : await createDb(dbOptions);
  try {
    if (options.mode === 'migrate') {
      const { applied } = await migrateToLatest(handle);
      // One string: on a terminal, an array would take a line per migration.
      if (applied.length > 0)
        log.info({ applied: applied.join(' '), database: handle.location }, 'migrations applied');
    }
    return await fn(handle);
  } catch (err) {
    // A database lost, shut down or full is said as such, naming it (not its credentials).
    throw explainDatabaseError(err, handle.location);
  } finally {
    // A last attempt at the ends of runs the database was away for (run-record.ts).
    await recordLateEnds(handle.db).catch(() => undefined);
    // A database already gone must not replace the error that said so.
    await handle
      .close()
      .catch((err: unknown) =>
        log.debug({ error: String(err) }, 'the database did not close cleanly'),
      );
  }
}

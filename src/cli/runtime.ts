import type { Config } from '../config.ts';
import { createDb, type DbHandle } from '../db/client.ts';
import { migrateToLatest } from '../db/migrator.ts';
import type { Logger } from '../logger.ts';

/** Writes a line to stdout (summaries, tables); logs go to stderr through the logger. */
export function print(text = ''): void {
  if (!process.stdout.destroyed) process.stdout.write(`${text}\n`);
}

/** Opens the configured database, optionally migrates it, runs `fn`, and always closes it. */
export async function withDatabase<T>(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'memoryLimitMb'>,
  log: Logger,
  options: { migrate: boolean; lockWaitMs?: number },
  fn: (handle: DbHandle) => Promise<T>,
): Promise<T> {
  const handle = await createDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    lockWaitMs: options.lockWaitMs,
    memoryLimitMb: config.memoryLimitMb,
  });
  try {
    if (options.migrate) {
      const { applied } = await migrateToLatest(handle);
      if (applied.length > 0)
        log.info({ applied, database: handle.location }, 'migrations applied');
    }
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

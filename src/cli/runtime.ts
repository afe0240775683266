import type { Config } from '../config.ts';
import { createDb, type DbHandle } from '../db/client.ts';
import { migrateToLatest } from '../db/migrator.ts';
import type { Logger } from '../logger.ts';
import { WeblateClient } from '../weblate/client.ts';

/** Writes a line to stdout (summaries, tables); logs go to stderr through the logger. */
export function print(text = ''): void {
  if (!process.stdout.destroyed) process.stdout.write(`${text}\n`);
}

/** Opens the configured database, optionally migrates it, runs `fn`, and always closes it. */
export async function withDatabase<T>(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  log: Logger,
  options: { migrate: boolean },
  fn: (handle: DbHandle) => Promise<T>,
): Promise<T> {
  const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
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

/** The Weblate client for a configuration that has a WEBLATE_URL. */
export function createClient(config: Config, log: Logger): WeblateClient {
  if (config.weblateUrl === null) throw new Error('WEBLATE_URL is not set');
  return new WeblateClient({
    baseUrl: config.weblateUrl,
    token: config.weblateToken,
    concurrency: config.concurrency,
    maxRps: config.maxRps,
    maxAttempts: config.maxAttempts,
    timeoutMs: config.timeoutMs,
    connectTimeoutMs: config.connectTimeoutMs,
    maxWaitMs: config.maxWaitMs,
    log,
  });
}

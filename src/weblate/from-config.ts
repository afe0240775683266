import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { WeblateClient, type WeblateClientOptions } from './client.ts';

/** The Weblate client for a configuration that has a WEBLATE_URL. */
export function createClient(
  config: Config,
  log: Logger,
  extra: Pick<WeblateClientOptions, 'onResponse'> = {},
): WeblateClient {
  if (config.weblateUrl === null) throw new Error('WEBLATE_URL is not set');
  return new WeblateClient({
    baseUrl: config.weblateUrl,
    token: config.weblateToken,
    concurrency: config.concurrency,
    maxPageSize: config.maxPageSize,
    maxRps: config.maxRps,
    maxAttempts: config.maxAttempts,
    timeoutMs: config.timeoutMs,
    connectTimeoutMs: config.connectTimeoutMs,
    maxWaitMs: config.maxWaitMs,
    log,
    ...extra,
  });
}

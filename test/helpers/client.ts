import { WeblateClient, type WeblateClientOptions } from '../../src/weblate/client.ts';
import { fetchPages, type Page } from '../../src/weblate/pages.ts';
import { type ListAt, type ListOptions, ListPlanner } from '../../src/weblate/pagination.ts';
import { captureLogger } from './logs.ts';

/** A client for a loopback test server, with short backoff so retries do not slow tests. */
export function createTestClient(
  url: string,
  options: Partial<WeblateClientOptions> = {},
): WeblateClient {
  return new WeblateClient({
    baseUrl: new URL(url),
    token: 'wlu_test',
    concurrency: 2,
    maxRps: 0,
    maxAttempts: 3,
    timeoutMs: 10_000,
    log: captureLogger().log,
    retryBaseMs: 1,
    retryCapMs: 20,
    ...options,
  });
}

/** The pages of a list as the read engine walks it (see ListPlanner). */
export function readList(
  client: WeblateClient,
  path: string | URL,
  options: ListOptions,
): AsyncGenerator<Page<ListAt>> {
  const planner = new ListPlanner(client, path, options);
  return fetchPages(client, planner, { resource: options.resource });
}

import type { Kysely } from 'kysely';

import type { Database } from '../../src/db/database.ts';
import type { Logger } from '../../src/logger.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import {
  overlapsCommits,
  runSync,
  type SyncOptions,
  type SyncResult,
} from '../../src/sync/run-sync.ts';
import type { WeblateClientOptions } from '../../src/weblate/client.ts';
import { createTestClient } from './client.ts';
import { DATABASE_KIND } from './database.ts';
import { captureLogger } from './logs.ts';

/** One sync of the simulator into `db`, with users that have subscriptions. */
export async function syncSimulator(
  sim: RunningSimulator,
  db: Kysely<Database>,
  options: SyncOptions & {
    client?: Partial<WeblateClientOptions>;
    projects?: string[] | null;
    log?: Logger;
    overlapCommits?: boolean;
  } = {},
): Promise<SyncResult> {
  const log = options.log ?? captureLogger('info').log;
  const client = createTestClient(sim.url, { concurrency: 4, log, ...options.client });
  const users = sim.instance.users.filter((u) => u.subscriptions.length > 0).map((u) => u.username);
  try {
    return await runSync(
      {
        db,
        client,
        log,
        scope: { projects: options.projects ?? null, users },
        overlapCommits: options.overlapCommits ?? overlapsCommits(DATABASE_KIND),
      },
      options,
    );
  } finally {
    await client.close();
  }
}

/** Requests a sync made, by resource. */
export function requestsByResource(result: SyncResult): Record<string, number> {
  return Object.fromEntries(result.summary.resources.map((r) => [r.resource, r.requests]));
}

import type { Kysely } from 'kysely';
import { expect } from 'vitest';

import type { Database } from '../../../src/db/database.ts';
import type { Logger } from '../../../src/logger.ts';
import type { SyncOptions, SyncResult } from '../../../src/sync/run-sync.ts';
import { WeblateClient, type WeblateClientOptions } from '../../../src/weblate/client.ts';
import { createTestDatabase, handleOf } from '../../helpers/database.ts';
import { captureLogger } from '../../helpers/logs.ts';
import { compareMirrors, snapshotMirror } from '../../helpers/mirror-compare.ts';
import { requestsByResource, syncAsWriter } from '../../helpers/sync.ts';
import type { WeblateInstance } from './instance.ts';
import { SEED } from './seed.ts';

export interface TierSyncOptions extends SyncOptions {
  /** WEBLATE_URL, when not Weblate's own address (e.g. a proxy's). */
  baseUrl?: string;
  projects?: string[] | null;
  users?: string[];
  token?: string;
  log?: Logger;
  client?: Partial<WeblateClientOptions>;
}

/** One sync of the Weblate under test into `db`, as the CLI would run it (admin token by default). */
export async function syncWeblate(
  weblate: WeblateInstance,
  db: Kysely<Database>,
  options: TierSyncOptions = {},
): Promise<SyncResult> {
  const log = options.log ?? captureLogger('info').log;
  const run = {
    log,
    scope: { projects: options.projects ?? null, users: options.users ?? [...SEED.users] },
    client: () =>
      new WeblateClient({
        baseUrl: new URL(options.baseUrl ?? weblate.url),
        token: options.token ?? weblate.tokens.admin!,
        concurrency: 4,
        maxRps: 0,
        maxAttempts: 3,
        timeoutMs: 300_000,
        log,
        retryBaseMs: 50,
        retryCapMs: 1000,
        ...options.client,
      }),
  };
  return syncAsWriter(handleOf(db), run, options);
}

/**
 * Requests a sync asked for, by resource, a request tried again counting once (a busy
 * machine's reset connection is not what the sync asked for; see docs/testing.md).
 */
export function requestsOf(result: SyncResult): Record<string, number> {
  return Object.fromEntries(
    Object.entries(requestsByResource(result)).filter(([, requests]) => requests > 0),
  );
}

/**
 * The mirror in `db` equals a fresh full sync of the Weblate under test, made into a new
 * database; the kept mirror may hold more changes only where `mayBeGone(id)` (their objects
 * were deleted in Weblate, which deletes their history there).
 */
export async function expectEqualToFreshSync(
  weblate: WeblateInstance,
  db: Kysely<Database>,
  mayBeGone: (changeId: string) => boolean = () => false,
): Promise<void> {
  const fresh = await createTestDatabase();
  try {
    const freshDb = (await fresh.migrated()).db;
    const full = await syncWeblate(weblate, freshDb);
    expect([full.status, full.error]).toEqual(['succeeded', null]);
    expect(
      compareMirrors(await snapshotMirror(db), await snapshotMirror(freshDb), mayBeGone),
    ).toEqual([]);
  } finally {
    await fresh.drop();
  }
}

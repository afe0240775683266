import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import type { SyncResult } from '../../src/sync/run-sync.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { useWeblate } from './harness/instance.ts';
import { expectEqualToFreshSync, syncWeblate, type TierSyncOptions } from './harness/mirror.ts';
import { TIER_RELEASE } from './harness/release.ts';
import { findUnit, STATE, unitsOf } from './harness/seed.ts';

const weblate = useWeblate('restart');

/**
 * Weblate's gunicorn stopped and started again in the middle of a sync, its port closed for
 * a few seconds: the run completes (its retries outlast the gap) or fails cleanly, and the
 * next run leaves the mirror equal to a fresh full sync.
 */
describe(`a real Weblate ${TIER_RELEASE} restarted mid-sync`, () => {
  let kept: TestDatabase;
  let db: Kysely<Database>;

  beforeAll(async () => {
    kept = await createTestDatabase();
    db = (await kept.migrated()).db;
  });
  afterAll(async () => {
    await kept.drop();
  });

  /** A sync during which Weblate restarts once, when `resource` first answers. */
  async function syncThroughRestart(
    resource: string,
    options: TierSyncOptions,
  ): Promise<SyncResult> {
    let restarting: Promise<void> | undefined;
    const result = await syncWeblate(weblate.current, db, {
      ...options,
      client: {
        onResponse: (response) => {
          if (restarting === undefined && response.resource === resource)
            restarting = weblate.current.restart(3_000);
        },
      },
    });
    expect(restarting, `no ${resource} request answered`).toBeDefined();
    await restarting;
    // Completed through the gap, or failed cleanly, saying what it could not reach.
    expect(['succeeded', 'failed']).toContain(result.status);
    if (result.status === 'failed')
      expect(result.error?.message).toMatch(
        /^cannot reach Weblate at http:\/\/127\.0\.0\.1:\d+\/ \(connection refused/,
      );
    return result;
  }

  it('during a full sync', async () => {
    await syncThroughRestart('units', { full: true });
    const next = await syncWeblate(weblate.current, db);
    expect([next.status, next.error]).toEqual(['succeeded', null]);
    await expectEqualToFreshSync(weblate.current, db);
  });

  it('during an incremental sync', async () => {
    const de = await unitsOf(weblate.current.admin, 'aurora/app/de');
    await weblate.current.as('alice').patch(`units/${findUnit(de, 'Last synced {date}').id}/`, {
      target: ['Zuletzt abgeglichen {date}'],
      state: STATE.translated,
    });
    await syncThroughRestart('changes', {});
    const next = await syncWeblate(weblate.current, db);
    expect([next.status, next.error]).toEqual(['succeeded', null]);
    await expectEqualToFreshSync(weblate.current, db);
  });
});

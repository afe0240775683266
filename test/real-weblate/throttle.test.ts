import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';

/** A token may make 20 requests a minute: fewer than a full sync of the seeded instance needs. */
const LIMIT = 20;
const weblate = useWeblate('throttle', { userThrottle: `${LIMIT}/minute` });

describe("Weblate's API throttle", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('is never exceeded by a sync that honours its rate-limit headers', async () => {
    const { db } = await database.migrated();
    weblate.current.takeRequests();
    const started = Date.now();
    const result = await syncWeblate(weblate.current, db, {
      token: weblate.current.tokens.alice!,
      users: ['alice'],
    });
    const seconds = (Date.now() - started) / 1000;
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const requests = weblate.current
      .takeRequests()
      .filter((r) => r.authorization.endsWith(weblate.current.tokens.alice!));
    // The premise: the sync needs more requests than one window allows, so it had to wait.
    expect(requests.length).toBeGreaterThan(LIMIT);
    expect(seconds).toBeGreaterThan(30);
    expect(requests.filter((r) => r.status === 429)).toEqual([]);
    expect(requests.filter((r) => r.status !== 200)).toEqual([]);
    // Everything arrived (equality with Weblate is the other files' subject; comparing here
    // would spend the budget the throttle allows every token).
    const incomplete = await sql<{ id: number }>`
      select t.id from weblate.translations t where t.deleted_at is null and t.total <>
        (select count(*) from weblate.units u where u.translation_id = t.id and u.deleted_at is null)`.execute(
      db,
    );
    expect(incomplete.rows).toEqual([]);
  });
});

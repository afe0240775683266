import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseEnv, runCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { useWeblate } from './harness/instance.ts';
import { TIER_RELEASE } from './harness/release.ts';
import { SEED } from './harness/seed.ts';

const weblate = useWeblate('politeness');

describe(`the token against a real Weblate ${TIER_RELEASE}`, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  const env = (token: string) => ({
    ...databaseEnv(database),
    WEBLATE_URL: weblate.current.url,
    WEBLATE_TOKEN: token,
    WEBLATE_USERS: SEED.users.join(','),
    LOG_LEVEL: 'trace',
  });

  it('is sent on every request and written in no log line, at the most verbose level', async () => {
    const token = weblate.current.tokens.admin!;
    weblate.current.takeRequests();
    const result = await runCli(['sync'], env(token), 300_000);
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    const requests = weblate.current.takeRequests();
    expect(requests.length).toBeGreaterThan(20);
    expect(requests.filter((r) => r.authorization !== `Token ${token}`)).toEqual([]);
    expect(requests.filter((r) => r.status !== 200)).toEqual([]);
    // Trace logs every request: the lines are there, the token is not.
    expect(
      result.stderr.split('\n').filter((line) => line.includes('"request"')).length,
    ).toBeGreaterThan(20);
    expect(`${result.stdout}\n${result.stderr}`).not.toContain(token);
    expect(`${result.stdout}\n${result.stderr}`).not.toContain(token.slice(4));
  });

  it('stops with the message about WEBLATE_TOKEN when the token is wrong', async () => {
    const wrong = 'wlu_0000000000000000000000000000000000000000';
    weblate.current.takeRequests();
    const result = await runCli(['sync'], env(wrong), 120_000);
    expect(result.code).toBe(1);
    expect(`${result.stdout}\n${result.stderr}`).toContain('check WEBLATE_TOKEN');
    expect(`${result.stdout}\n${result.stderr}`).not.toContain(wrong.slice(4));
    // It stops at the first answer instead of retrying a credential that cannot work.
    const requests = weblate.current.takeRequests();
    expect(requests.map((r) => r.status)).toEqual([401]);
  });
});

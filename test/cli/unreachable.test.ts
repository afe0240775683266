import { describe, expect, it } from 'vitest';

import { databaseEnv, runCli } from '../helpers/cli.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { parseLogLines } from '../helpers/logs.ts';

const databases = useTestDatabases();

// Nothing listens on port 1 (it needs privileges): every connection is refused.
describe('a server that cannot be reached', () => {
  it('ends a sync with one line that names WEBLATE_URL, after few log lines', async () => {
    const database = await databases.create();
    const result = await runCli(['sync'], {
      ...databaseEnv(database),
      WEBLATE_URL: 'http://127.0.0.1:1/',
      WEBLATE_MAX_ATTEMPTS: '3',
    });
    expect(result.code).toBe(1);
    const location =
      database.databaseUrl === null
        ? database.dataDir
        : new URL(database.databaseUrl).host + new URL(database.databaseUrl).pathname;
    // The result on stdout; the error, for people, on stderr after the logs.
    expect(result.stdout).toBe(
      `full sync run 1 of http://127.0.0.1:1/api/ into ${location}: failed\n`,
    );
    expect(result.stderr.split('\n').filter((l) => !l.startsWith('{'))).toEqual([
      'error: cannot reach Weblate at http://127.0.0.1:1/ (connection refused, 3 attempts): ' +
        'is it running, and is WEBLATE_URL right?',
      '',
    ]);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(/^error: /);
    // Three attempts, and one warning for them.
    expect(parseLogLines(result.stderr).map((l) => [l.level, l.msg])).toEqual([
      [30, 'sync started'],
      [40, 'request failed, retrying'],
      [50, 'sync failed'],
    ]);
  });

  it('ends status with one line that names DATABASE_URL, without the password', async () => {
    const result = await runCli(['status'], {
      DATABASE_URL: 'postgres://analyst:s3cret@127.0.0.1:1/mirror',
    });
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(result.stderr).toBe(
      'weblate-mirror: cannot reach the database at 127.0.0.1:1/mirror (connection refused): ' +
        'is PostgreSQL running, and is DATABASE_URL right?\n',
    );
  });
});

import { Kysely, PostgresDialect } from 'kysely';
import { describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { batchSync } from '../../src/webhooks/batch-sync.ts';
import { captureLogger, parseLogLines } from '../helpers/logs.ts';

/** A database whose every connection fails as PostgreSQL does while it shuts down. */
function shuttingDown(): Kysely<Database> {
  const failure = Object.assign(new Error('the database system is shutting down'), {
    code: '57P03',
  });
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: { connect: () => Promise.reject(failure), end: () => Promise.resolve() },
    }),
  });
}

describe('batchSync', () => {
  it('fails a batch in one line naming the database when its own read fails', async () => {
    const { log, lines } = captureLogger('info');
    let jobs = 0;
    const sync = batchSync({
      db: shuttingDown(),
      location: '127.0.0.1:5432/mirror',
      log,
      run: () => {
        jobs += 1;
        throw new Error('no job may start');
      },
    });
    expect(await sync({ events: 2, projects: null })).toEqual({ status: 'failed' });
    expect(jobs).toBe(0);
    const logged = parseLogLines(lines.join('\n'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 50,
      msg: 'webhook events could not start a sync',
      error: 'lost the database at 127.0.0.1:5432/mirror: the database system is shutting down',
    });
    expect(logged[0]).not.toHaveProperty('err');
  });
});

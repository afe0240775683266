import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { createDb } from '../../src/db/client.ts';
import { explainConnectError } from '../../src/db/connect-errors.ts';
import { MissingDatabaseError, UnreachableError } from '../../src/errors.ts';

const TARGET = { server: 'db.example:5432', database: 'mirror' };

function serverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('explainConnectError', () => {
  it('names DATABASE_URL when the server refuses, is unknown or does not answer', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const cases = [
      [refused, 'connection refused'],
      [serverError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.example'), 'unknown host'],
      [serverError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN db.example'), 'unknown host'],
      [serverError('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:5432'), 'connect timeout'],
      // localhost: one attempt per address, each refused.
      [new AggregateError([refused, refused]), 'connection refused'],
    ] as const;
    for (const [err, failure] of cases) {
      const explained = explainConnectError(err, TARGET);
      expect(explained).toBeInstanceOf(UnreachableError);
      expect(explained.message).toBe(
        `cannot reach the database at db.example:5432/mirror (${failure}): is PostgreSQL running, and is DATABASE_URL right?`,
      );
      expect(explained.cause).toBe(err);
    }
  });

  it('points at the user and password of DATABASE_URL without printing them', () => {
    const explained = explainConnectError(
      serverError('28P01', 'password authentication failed for user "analyst"'),
      TARGET,
    );
    expect(explained.message).toBe(
      'the database at db.example:5432/mirror refused the login (password authentication failed): ' +
        'check the user and password in DATABASE_URL',
    );
    expect(explained.message).not.toContain('analyst');
  });

  it('says which database does not exist, and leaves other errors as they are', () => {
    const missing = explainConnectError(
      serverError('3D000', 'database "mirror" does not exist'),
      TARGET,
    );
    expect(missing).toBeInstanceOf(MissingDatabaseError);
    expect(missing.message).toBe(
      'there is no database "mirror" on db.example:5432: create it, or check DATABASE_URL',
    );
    const other = serverError('53300', 'sorry, too many clients already');
    expect(explainConnectError(other, TARGET)).toBe(other);
  });

  it('is what a query on an unreachable server fails with', async () => {
    const handle = await createDb({
      databaseUrl: 'postgres://admin:s3cret@127.0.0.1:1/mirror',
      dataDir: '/nonexistent',
    });
    try {
      const error = await sql`select 1`.execute(handle.db).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(UnreachableError);
      expect((error as Error).message).toBe(
        'cannot reach the database at 127.0.0.1:1/mirror (connection refused): is PostgreSQL running, and is DATABASE_URL right?',
      );
    } finally {
      await handle.close();
    }
  });
});

import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { explainConnectError } from '../../src/db/connect-errors.ts';
import { guardedPool } from '../../src/db/copy.ts';
import type { Database } from '../../src/db/database.ts';
import { isDatabaseLost, type OutagePolicy, rideThrough } from '../../src/db/outage.ts';
import {
  DatabaseLostError,
  DatabaseUnreachableError,
  HttpError,
  ResponseError,
  SyncError,
  UnreachableError,
} from '../../src/errors.ts';
import { freePort } from '../helpers/ports.ts';

// Which failures a run waits out, and how: the decisions behind riding through a database
// restart (the restarts themselves: test/sync/postgres-restart.test.ts).

/** An error as node-postgres raises it. */
function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe('isDatabaseLost', () => {
  const cases: Array<[string, unknown, boolean]> = [
    ['admin shutdown (a restart)', pgError('terminating connection', '57P01'), true],
    ['crash of another backend', pgError('terminating connection', '57P02'), true],
    ['starting up', pgError('the database system is starting up', '57P03'), true],
    ['connection failure class', pgError('connection failure', '08006'), true],
    ['socket gone under a query', pgError('Connection terminated unexpectedly'), true],
    [
      'refused, as the pool explains it',
      new DatabaseUnreachableError('cannot reach the database at 127.0.0.1:5432/mirror'),
      true,
    ],
    // PostgreSQL's refusals are explained where they happen: a bare one is someone else's.
    ['refused, unexplained', pgError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'), false],
    ['reset', pgError('read ECONNRESET', 'ECONNRESET'), true],
    [
      'wrapped by a sync error',
      new SyncError('page failed', { cause: pgError('x', '57P01') }),
      true,
    ],
    ['disk full', pgError('could not extend file: No space left on device', '53100'), false],
    ['unique violation', pgError('duplicate key', '23505'), false],
    ['login refused', pgError('password authentication failed', '28P01'), false],
    ['query canceled', pgError('canceling statement due to statement timeout', '57014'), false],
    [
      'Weblate unreachable',
      new UnreachableError('cannot reach Weblate at x', {
        cause: pgError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'),
      }),
      false,
    ],
    [
      'a Weblate page cut short',
      new ResponseError('units: GET … failed after 3 attempts: other side closed', {
        retryable: false,
        cause: pgError('read ECONNRESET', 'ECONNRESET'),
      }),
      false,
    ],
    [
      'Weblate overloaded',
      new HttpError('503', { status: 503, url: 'u', code: null, detail: null }),
      false,
    ],
    ['not an error', 'ECONNREFUSED', false],
  ];
  it.each(cases)('%s', (_name, err, lost) => {
    expect(isDatabaseLost(err)).toBe(lost);
  });
});

describe('rideThrough', () => {
  let answering: Kysely<Database>;
  let absent: Kysely<Database>;
  const lost = () => pgError('terminating connection due to administrator command', '57P01');

  beforeAll(async () => {
    answering = new Kysely<Database>({ dialect: new PGliteDialect(new PGlite()) });
    // A port nobody listens on: every probe is refused, explained as the handle's pool does.
    const port = await freePort();
    const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'x' });
    pool.on('error', () => undefined);
    const target = { server: `127.0.0.1:${port}`, database: 'mirror' };
    const guarded = guardedPool(pool, (err) => explainConnectError(err, target));
    absent = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guarded }) });
  });
  afterAll(async () => {
    await answering.destroy();
    await absent.destroy();
  });

  function policy(windowMs: number): OutagePolicy & { regained: number } {
    return {
      location: '127.0.0.1:5432/mirror',
      windowMs,
      regained: 0,
      regain() {
        this.regained += 1;
        return Promise.resolve();
      },
    };
  }

  /** An attempt that fails with each of `failures` in turn, then returns how often it ran. */
  function failing(failures: Error[]) {
    let runs = 0;
    return () => {
      runs += 1;
      return runs <= failures.length ? Promise.reject(failures[runs - 1]!) : Promise.resolve(runs);
    };
  }

  it('runs the attempt again once the database answers and the locks are back', async () => {
    const p = policy(60_000);
    const back: string[] = [];
    const runs = await rideThrough(answering, p, failing([lost(), lost()]), {
      onBack: (away) => back.push(away),
    });
    expect(runs).toBe(3);
    expect(p.regained).toBe(2);
    expect(back).toHaveLength(2);
    for (const away of back) expect(away).toMatch(/^\d+\.\d s$/);
  });

  it('a database gone again before the locks are back is waited for again', async () => {
    let regains = 0;
    const flaky: OutagePolicy = {
      location: 'x',
      windowMs: 60_000,
      regain: () => (++regains === 1 ? Promise.reject(lost()) : Promise.resolve()),
    };
    await expect(rideThrough(answering, flaky, failing([lost()]))).resolves.toBe(2);
    expect(regains).toBe(2);
  });

  it('throws at once without a policy, for another failure, or once stopped', async () => {
    const first = lost();
    await expect(rideThrough(answering, null, failing([first]))).rejects.toBe(first);
    const refused = pgError('duplicate key', '23505');
    const p = policy(60_000);
    await expect(rideThrough(answering, p, failing([refused]))).rejects.toBe(refused);
    const stopped = new AbortController();
    stopped.abort(new Error('SIGTERM'));
    await expect(
      rideThrough(answering, p, failing([lost()]), { signal: stopped.signal }),
    ).rejects.toThrow('terminating connection');
    expect(p.regained).toBe(0);
  });

  it('past the window: the first cause, naming the database and the setting', async () => {
    const p = policy(300);
    const lostSeen: string[] = [];
    const error = await rideThrough(absent, p, failing([lost()]), {
      onLost: (e) => lostSeen.push(e.message),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseLostError);
    expect((error as Error).message).toBe(
      'lost the database at 127.0.0.1:5432/mirror: terminating connection due to administrator command; ' +
        'it did not answer again within DATABASE_RETRY_SECONDS=0.3',
    );
    expect(lostSeen).toEqual([
      'lost the database at 127.0.0.1:5432/mirror: terminating connection due to administrator command',
    ]);
    expect(p.regained).toBe(0);
  });

  it('a window of 0 fails at once', async () => {
    const error = await rideThrough(answering, policy(0), failing([lost()])).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/within DATABASE_RETRY_SECONDS=0$/);
  });

  it('a database that goes away again and again: the run stops after ten outages', async () => {
    const p = policy(60_000);
    const error = await rideThrough(answering, p, failing(Array.from({ length: 20 }, lost))).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/it went away 10 times in one run$/);
    expect(p.regained).toBe(10);
  });
});

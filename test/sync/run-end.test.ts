import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isLockHeld, withLockSession } from '../../src/db/advisory-lock.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { explainDatabaseError } from '../../src/db/connect-errors.ts';
import { ABANDONED_RUN } from '../../src/db/queries/sync-runs.ts';
import { DatabaseFailureError, UnreachableError } from '../../src/errors.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { WRITER_LOCK } from '../../src/sync/write-session.ts';
import { DATABASE_KIND, useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { syncSimulator } from '../helpers/sync.ts';

// A run whose end cannot be recorded (the database lost as it ends) keeps its first cause
// as its error. The next run of the same process records that end late, as it was; a run
// of another process (or after a kill) closes the row as abandoned.

const databases = useTestDatabases();
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 31,
    projects: 1,
    components: 2,
    languages: 2,
    units: 60,
    changes: 20,
  });
});

afterAll(async () => {
  await sim.close();
});

/** Stands for a database lost as a run ends: closing a run fails. */
async function refuseRunEnds(handle: DbHandle, refuse: boolean): Promise<void> {
  if (!refuse) {
    await sql`drop trigger refuse_end on weblate.sync_runs`.execute(handle.db);
    return;
  }
  await sql`
    create or replace function weblate.test_refuse_end() returns trigger language plpgsql as $$
    begin raise exception 'the database went away'; end $$`.execute(handle.db);
  await sql`
    create trigger refuse_end before update on weblate.sync_runs for each row
    when (new.status <> 'running') execute function weblate.test_refuse_end()`.execute(handle.db);
}

async function runsOf(handle: DbHandle) {
  const { rows } = await sql<{ id: number; status: string; error: string | null }>`
    select id, status, error from weblate.sync_runs order by id`.execute(handle.db);
  return rows;
}

describe('a run that cannot record its end', () => {
  it('keeps its first cause, and the next run closes it as failed', async () => {
    const handle = await databases.migrated();
    await refuseRunEnds(handle, true);
    // The server answers every page with HTML: the run fails for that, then cannot record it.
    sim.setFaults({ rate: 1, kinds: ['html'], match: /^\/api\/projects\// });
    const { log, lines: text } = captureLogger('info');
    const lines = () =>
      text.map((l) => JSON.parse(l) as Record<string, unknown> & { msg?: string });
    const failed = await syncSimulator(sim, handle, { full: true, log });
    sim.setFaults(null);
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).not.toMatch(/went away/);
    const line = lines().find((l) => l.msg === 'sync ended, but its end could not be recorded');
    expect(line?.error).toBe(failed.error?.message);
    expect(String(line?.recording)).toMatch(/the database went away/);

    await refuseRunEnds(handle, false);
    const next = await syncSimulator(sim, handle, { log });
    expect(next.status).toBe('succeeded');
    let runs = await runsOf(handle);
    expect(runs.map((r) => r.status)).toEqual(['failed', 'succeeded']);
    expect(runs[0]!.error).toBe(
      `${failed.error!.message}; its end recorded late: the database went away`,
    );
    const late = lines().find((l) => l.msg === 'runs whose end could not be recorded, recorded');
    expect(late?.runs).toEqual([runs[0]!.id]);

    // A run that succeeds but cannot record it says so as a failure.
    await refuseRunEnds(handle, true);
    const unrecorded = await syncSimulator(sim, handle, { log });
    expect(unrecorded.status).toBe('failed');
    expect(unrecorded.error?.message).toMatch(/its end could not be recorded: .*went away/);
    await refuseRunEnds(handle, false);
    // Left running by a process that is gone (killed, say): closed as abandoned.
    await sql`update weblate.sync_runs set status = 'running', error = null
      where id = ${unrecorded.runId}`.execute(handle.db);
    await sql`insert into weblate.sync_runs (kind, weblate_url) values ('full', 'x')`.execute(
      handle.db,
    );
    expect((await syncSimulator(sim, handle, { log })).status).toBe('succeeded');
    runs = await runsOf(handle);
    expect(runs.map((r) => r.status)).toEqual([
      'failed',
      'succeeded',
      'failed',
      'failed',
      'succeeded',
    ]);
    // Its own late end was recorded first, then the other process's run closed.
    expect(runs[2]!.error).toMatch(/^succeeded; its end recorded late: .*went away/);
    expect(runs[3]!.error).toContain(ABANDONED_RUN);
    const closing = lines().find((l) => l.msg?.startsWith('runs that ended without recording'));
    expect(closing?.runs).toEqual([runs[3]!.id]);
    // No stack at the default level, whatever failed.
    expect(lines().filter((l) => 'stack' in l || 'err' in l)).toEqual([]);
  });
});

describe('a writer that holds the lock', () => {
  // status tells a run in progress from one whose process is gone by the writer lock; on the
  // embedded database, a reader that opened the folder is its only process.
  it.runIf(DATABASE_KIND === 'postgres')(
    'is seen in its own database only, and not after it let go',
    async () => {
      const handle = await databases.migrated();
      const other = await databases.migrated();
      expect(await isLockHeld(handle, WRITER_LOCK)).toBe(false);
      await withLockSession(handle, async (session) => {
        expect(await session.tryLock(WRITER_LOCK)).toBe(true);
        expect(await isLockHeld(handle, WRITER_LOCK)).toBe(true);
        expect(await isLockHeld(other, WRITER_LOCK)).toBe(false);
      });
      expect(await isLockHeld(handle, WRITER_LOCK)).toBe(false);
    },
  );
});

describe("the database's errors", () => {
  const where = '127.0.0.1:55433/mirror';
  it('are said in one line that names the database', () => {
    const cases: [unknown, RegExp][] = [
      [
        new Error('Connection terminated unexpectedly'),
        /^lost the database at 127\.0\.0\.1:55433\/mirror: Connection terminated unexpectedly$/,
      ],
      [
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:55433'), { code: 'ECONNREFUSED' }),
        /^lost the database at .*55433\/mirror \(connection refused\)$/,
      ],
      [
        Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        }),
        /^lost the database at .*: terminating connection due to administrator command$/,
      ],
      [
        Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
        /^lost the database at .*: the database system is starting up$/,
      ],
      [
        new Error('Client has encountered a connection error and is not queryable'),
        /^lost the database at /,
      ],
      [
        Object.assign(
          new Error(
            'could not extend file "base/5/16528": No space left on device\nHINT: Check free disk space.',
          ),
          { code: '53100' },
        ),
        /^the database at .*: its disk is full \(could not extend file "base\/5\/16528": No space left on device\)$/,
      ],
    ];
    for (const [err, message] of cases) {
      const explained = explainDatabaseError(err, where);
      expect(explained.message).toMatch(message);
      expect([DatabaseFailureError, UnreachableError].some((t) => explained instanceof t)).toBe(
        true,
      );
      expect(explained.cause).toBe(err);
    }
  });

  it('leave other errors as they are', () => {
    const other = Object.assign(new Error('duplicate key value'), { code: '23505' });
    expect(explainDatabaseError(other, where)).toBe(other);
  });
});

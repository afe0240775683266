import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LOCK_NAMESPACE, lockKey, withLockSession } from '../../src/db/advisory-lock.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { createTestDatabase, DATABASE_KIND, type TestDatabase } from '../helpers/database.ts';

let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
});

afterAll(async () => {
  await database.drop();
});

/** Resolves when `release` is called, to hold a session open. */
function gate(): { wait: Promise<void>; release: () => void } {
  let release = () => undefined as void;
  const wait = new Promise<void>((resolve) => (release = resolve));
  return { wait, release };
}

describe('job locks', () => {
  it('lets one session of the process hold a name at a time, and frees it when the session ends', async () => {
    const held = gate();
    const entered = gate();
    const first = withLockSession(handle, async (session) => {
      expect(await session.tryLock('job:a')).toBe(true);
      entered.release();
      await held.wait;
    });
    await entered.wait;
    const second = await withLockSession(handle, async (session) => ({
      same: await session.tryLock('job:a'),
      other: await session.tryLock('job:b'),
    }));
    expect(second).toEqual({ same: false, other: true });
    held.release();
    await first;
    expect(await withLockSession(handle, (session) => session.tryLock('job:a'))).toBe(true);
  });

  it('waits for a lock until it is free, and stops waiting when the signal aborts', async () => {
    const held = gate();
    const entered = gate();
    const holder = withLockSession(handle, async (session) => {
      await session.tryLock('writer');
      entered.release();
      await held.wait;
    });
    await entered.wait;
    const controller = new AbortController();
    let waits = 0;
    const aborted = withLockSession(handle, (session) =>
      session.waitLock('writer', {
        signal: controller.signal,
        pollMs: 20,
        onWait: () => waits++,
      }),
    );
    setTimeout(() => controller.abort(new Error('SIGTERM')), 100);
    await expect(aborted).rejects.toThrow('SIGTERM');
    const waiting = withLockSession(handle, (session) =>
      session.waitLock('writer', { pollMs: 20 }).then(() => 'taken'),
    );
    setTimeout(() => held.release(), 100);
    await holder;
    await expect(waiting).resolves.toBe('taken');
    expect(waits).toBe(1);
  });

  it.runIf(DATABASE_KIND === 'postgres')(
    'keeps the lock from another process on PostgreSQL, and the server frees it when the holder disconnects',
    async () => {
      // A second pool stands for another process: it shares no in-process registry.
      const other = await database.open();
      const entered = gate();
      const held = gate();
      const holder = withLockSession(other, async (session) => {
        expect(await session.tryLock('job:sync')).toBe(true);
        entered.release();
        await held.wait;
      });
      await entered.wait;
      expect(await withLockSession(handle, (s) => s.tryLock('job:sync'))).toBe(false);
      const holders = await sql<{ pid: number }>`
        select pid from pg_locks
        where locktype = 'advisory' and classid = ${LOCK_NAMESPACE}::int4::oid
          and objid = ${lockKey('job:sync')}::int4::oid and objsubid = 2
          and database = (select oid from pg_database where datname = current_database())`.execute(
        handle.db,
      );
      expect(holders.rows).toHaveLength(1);
      // The holding process dies: the server ends its session.
      await sql`select pg_terminate_backend(${holders.rows[0]!.pid}::int)`.execute(handle.db);
      let free = false;
      for (let i = 0; i < 50 && !free; i++) {
        free = await withLockSession(handle, (s) => s.tryLock('job:sync'));
        if (!free) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(free).toBe(true);
      // The holder's connection is gone: releasing its lock fails quietly, and it ends normally.
      held.release();
      await holder;
    },
  );

  it.runIf(DATABASE_KIND === 'postgres')(
    'a session whose connection died takes its locks back, after another process let go of them',
    async () => {
      const other = await database.open();
      const holderOf = async (name: string) => {
        const { rows } = await sql<{ pid: number }>`
          select pid from pg_locks
          where locktype = 'advisory' and classid = ${LOCK_NAMESPACE}::int4::oid
            and objid = ${lockKey(name)}::int4::oid and objsubid = 2 and granted
            and database = (select oid from pg_database where datname = current_database())`.execute(
          other.db,
        );
        return rows[0]?.pid ?? null;
      };
      try {
        await withLockSession(handle, async (session) => {
          expect(await session.tryLock('mirror-writer')).toBe(true);
          // A connection that survived keeps its locks: regain leaves them where they are.
          const first = await holderOf('mirror-writer');
          await session.regain({ pollMs: 20 });
          expect(await holderOf('mirror-writer')).toBe(first);

          // The server ends the session (a restart): the lock is free, and another takes it.
          await sql`select pg_terminate_backend(${first}::int)`.execute(other.db);
          const taken = gate();
          const letGo = gate();
          const another = withLockSession(other, async (s) => {
            for (let i = 0; i < 100 && !(await s.tryLock('mirror-writer')); i++)
              await new Promise((resolve) => setTimeout(resolve, 50));
            taken.release();
            await letGo.wait;
          });
          await taken.wait;
          let waits = 0;
          const regained = session.regain({ pollMs: 20, onWait: () => waits++ });
          // It waits for the other holder, however long that takes here.
          for (let i = 0; i < 600 && waits === 0; i++)
            await new Promise((resolve) => setTimeout(resolve, 50));
          expect(waits).toBe(1);
          letGo.release();
          await another;
          await regained;
          const now = await holderOf('mirror-writer');
          expect(now).not.toBeNull();
          expect(now).not.toBe(first);
        });
        // The session ended: its new connection let go of the lock.
        expect(await holderOf('mirror-writer')).toBeNull();
      } finally {
        await other.close();
      }
    },
  );

  it('derives distinct keys from names, stable across processes', () => {
    expect(lockKey('job:sync')).toBe(lockKey('job:sync'));
    const keys = new Set(
      ['job:sync', 'job:statistics', 'job:reconcile', 'mirror-writer'].map(lockKey),
    );
    expect(keys.size).toBe(4);
    for (const key of keys) expect(Number.isInteger(key) && Math.abs(key) < 2 ** 31).toBe(true);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { DISK_RESERVE_BYTES, DiskRoom } from '../../src/db/embedded-limits.ts';
import { checkRoomToMove } from '../../src/db/pglite-upgrade.ts';
import { DiskRoomError } from '../../src/errors.ts';

describe('the room a sync keeps free on the embedded database disk', () => {
  it('stops below the reserve and names the folder and what is free', () => {
    const asked: string[] = [];
    const room = (free: number) =>
      new DiskRoom('/data/mirror', (folder) => {
        asked.push(folder);
        return free;
      });
    expect(() => room(DISK_RESERVE_BYTES).check()).not.toThrow();
    expect(() => room(DISK_RESERVE_BYTES - 1).check()).toThrow(DiskRoomError);
    expect(() => room(5 * 1024 * 1024).check()).toThrow(
      'stopped before the disk of the embedded database at /data/mirror is full: 5 MB free, under the 48 MB a sync keeps free.',
    );
    expect(new Set(asked)).toEqual(new Set(['/data/mirror']));
  });

  it('is kept by backfill and migrate too, each saying what it did not do', () => {
    const room = new DiskRoom('/data/mirror', () => 5 * 1024 * 1024);
    expect(() => room.check('backfill')).toThrow(
      'did not estimate the progress history: the disk of the embedded database at /data/mirror has 5 MB free, under the 48 MB a write keeps free. The estimates are as they were; free some space and run `weblate-mirror backfill` again.',
    );
    expect(() => room.check('migrate')).toThrow(
      'did not migrate the embedded database at /data/mirror: its disk has 5 MB free, under the 48 MB a write keeps free. The database is as it was; free some space and run the command again.',
    );
  });

  it('reads the free space of a real folder', () => {
    // The folder this test runs in has more than the reserve free, or nothing could run.
    expect(() => new DiskRoom(process.cwd()).check()).not.toThrow();
  });
});

describe('the room the move to a new PostgreSQL release needs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wm-move-room-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const MB = 1024 * 1024;
  // A folder of 3 MB in two levels, and what a crashed move left: 1 MB.
  mkdirSync(join(dataDir, 'pgdata/base/1'), { recursive: true });
  writeFileSync(join(dataDir, 'pgdata/PG_VERSION'), Buffer.alloc(MB));
  writeFileSync(join(dataDir, 'pgdata/base/1/1259'), Buffer.alloc(2 * MB));
  mkdirSync(join(dataDir, 'pgdata.upgrading'));
  writeFileSync(join(dataDir, 'pgdata.upgrading/PG_VERSION'), Buffer.alloc(MB));

  it('is a copy of the old folder beside it and the reserve, counting a crashed move as room', () => {
    const needed = 3 * MB + DISK_RESERVE_BYTES;
    expect(() => checkRoomToMove(dataDir, () => needed - MB)).not.toThrow();
    expect(() => checkRoomToMove(dataDir, () => needed - MB - 1)).toThrow(
      `did not move the embedded database at ${dataDir} to the new PostgreSQL release: its disk has 50 MB free, under the 51 MB the move needs (a copy of the database beside its old folder, which is kept, and the room a write keeps free). The database is as it was; free some space and run the command again.`,
    );
  });
});

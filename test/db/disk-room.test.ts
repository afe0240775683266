import { describe, expect, it } from 'vitest';

import { DISK_RESERVE_BYTES, DiskRoom } from '../../src/db/embedded-limits.ts';
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

  it('reads the free space of a real folder', () => {
    // The folder this test runs in has more than the reserve free, or nothing could run.
    expect(() => new DiskRoom(process.cwd()).check()).not.toThrow();
  });
});

import { statfsSync } from 'node:fs';

import { DiskRoomError } from '../errors.ts';

/**
 * What a sync keeps free on the embedded database's disk. PostgreSQL inside PGlite writes its
 * log in 16 MB files: a page that needs a new one on a disk without room for it leaves the
 * process spinning, deaf to signals, instead of failing (seen with PGlite 0.5.16). A page's
 * rows take far less than the rest of the reserve.
 */
export const DISK_RESERVE_BYTES = 48 * 1024 * 1024;

/**
 * Checked before every page a sync commits into the embedded database: it stops the sync,
 * with what it committed kept, while the disk still has room for the database to fail cleanly.
 */
export class DiskRoom {
  readonly #folder: string;
  readonly #free: (folder: string) => number;

  constructor(folder: string, free: (folder: string) => number = freeBytes) {
    this.#folder = folder;
    this.#free = free;
  }

  /** Throws DiskRoomError when the folder's disk has less than the reserve free. */
  check(): void {
    const free = this.#free(this.#folder);
    if (free < DISK_RESERVE_BYTES) throw new DiskRoomError(this.#folder, free, DISK_RESERVE_BYTES);
  }
}

/** Bytes free to this process on the disk that holds `folder`. */
export function freeBytes(folder: string): number {
  const stats = statfsSync(folder);
  return stats.bavail * stats.bsize;
}

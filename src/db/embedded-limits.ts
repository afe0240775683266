import { statfsSync } from 'node:fs';

import { DiskRoomError, type DiskWork, MemoryLimitError } from '../errors.ts';

/** The default of WEBLATE_MIRROR_MEMORY_LIMIT_MB. */
export const DEFAULT_MEMORY_LIMIT_MB = 1500;

/**
 * What a sync keeps free on the embedded database's disk. PostgreSQL inside PGlite writes its
 * log in 16 MB files: a page that needs a new one on a disk without room for it leaves the
 * process spinning, deaf to signals, instead of failing (seen with PGlite 0.5.16). A page's
 * rows take far less than the rest of the reserve.
 */
export const DISK_RESERVE_BYTES = 48 * 1024 * 1024;

/**
 * The embedded database lives in the mirror's own process, in WebAssembly memory that grows
 * and never shrinks, up to a hard 2 GB at which PostgreSQL inside it aborts. PostgreSQL holds
 * its data in its own server: a sync into it has no such limit.
 */
export class MemoryLimit {
  readonly limitBytes: number;
  readonly #rss: () => number;

  constructor(limitMb: number, rss: () => number = () => process.memoryUsage.rss()) {
    this.limitBytes = limitMb * 1024 * 1024;
    this.#rss = rss;
  }

  /** Throws MemoryLimitError when the process holds more than the limit. */
  check(): void {
    const rss = this.#rss();
    if (rss > this.limitBytes) throw new MemoryLimitError(rss, this.limitBytes);
  }
}

/** The room a sync keeps free on the disk that holds the embedded database's folder. */
export class DiskRoom {
  readonly #folder: string;
  readonly #free: (folder: string) => number;

  constructor(folder: string, free: (folder: string) => number = freeBytes) {
    this.#folder = folder;
    this.#free = free;
  }

  /**
   * Throws DiskRoomError, worded for `work`, unless the folder's disk holds the reserve and the
   * bytes `work` writes; bytes it frees first (a folder it replaces) count as room.
   */
  check(work: DiskWork = 'sync', { writes = 0, frees = 0 } = {}): void {
    const available = this.#free(this.#folder) + frees;
    const needed = DISK_RESERVE_BYTES + writes;
    if (available < needed) throw new DiskRoomError(this.#folder, available, needed, work);
  }
}

/** Bytes free to this process on the disk that holds `folder`. */
export function freeBytes(folder: string): number {
  const stats = statfsSync(folder);
  return stats.bavail * stats.bsize;
}

/**
 * The embedded database's limits, checked around every page a sync commits into it: the sync
 * stops there, with what it committed kept, rather than run out of memory or disk.
 */
export class EmbeddedLimits {
  constructor(
    readonly memory: MemoryLimit,
    readonly disk: DiskRoom,
  ) {}

  /** Before a page: room on the disk for its write. */
  beforePage(): void {
    this.disk.check();
  }

  /** After a page: the memory its write grew. */
  afterPage(): void {
    this.memory.check();
  }
}

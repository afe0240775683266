import { MemoryLimitError } from '../errors.ts';

/** The default of WEBLATE_MIRROR_MEMORY_LIMIT_MB. */
export const DEFAULT_MEMORY_LIMIT_MB = 1500;

/**
 * The embedded database lives in the mirror's own process, in WebAssembly memory that grows
 * and never shrinks, up to a hard 2 GB at which PostgreSQL inside it aborts. A sync into it
 * checks this limit after every page it commits and stops there, with what it committed kept,
 * rather than ever running out of memory. PostgreSQL holds its data in its own server: a sync
 * into it has no such limit.
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

import { formatDuration } from '../sync/summary.ts';
import type { SyncTally } from '../sync/tally.ts';

/**
 * A one-line progress display on a terminal: pages done out of pages known so far (lists
 * reveal their size with `count` on their first page), rows written and elapsed time.
 */
export class ProgressLine {
  readonly #stream: NodeJS.WriteStream;
  readonly #started = Date.now();
  #timer: NodeJS.Timeout | null = null;
  #tally: SyncTally | null = null;

  constructor(stream: NodeJS.WriteStream) {
    this.#stream = stream;
  }

  /** Whether progress can be shown at all (only on a terminal). */
  static isSupported(stream: NodeJS.WriteStream): boolean {
    return stream.isTTY === true;
  }

  attach(tally: SyncTally): void {
    this.#tally = tally;
    this.#timer = setInterval(() => this.#render(), 250);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#stream.write('\r\x1b[2K');
  }

  #render(): void {
    const tally = this.#tally;
    if (tally === null) return;
    const known = Math.max(tally.pagesKnown, tally.pagesDone);
    const share = known > 0 ? Math.floor((tally.pagesDone / known) * 100) : 0;
    const line = `syncing: ${tally.pagesDone}/${known} pages (${share}%) · ${tally.rowsWritten} rows written · ${formatDuration(Date.now() - this.#started)}`;
    this.#stream.write(`\r\x1b[2K${line.slice(0, (this.#stream.columns || 100) - 1)}`);
  }
}

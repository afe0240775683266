import { MIRRORED_TABLES, type MirroredTable } from '../db/database.ts';

/** Resources of a sync: one per mirrored table, in the order the summary lists them. */
export const RESOURCES = MIRRORED_TABLES;
export type Resource = MirroredTable;

export interface ResourceTally {
  /** Records read from the API. */
  records: number;
  /** Records that could not be stored (kept in rejected_records). */
  rejected: number;
  /** Rows inserted or changed in the warehouse. */
  rows: number;
  pages: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/**
 * What a sync did, per resource: records read, rows written, pages, and the span of time
 * it was active. Also drives the progress line (pages done out of pages known so far).
 */
export class SyncTally {
  readonly #byResource = new Map<Resource, ResourceTally>();
  readonly #now: () => number;
  readonly warnings: string[] = [];
  pagesKnown = 0;
  pagesDone = 0;
  onChange: (() => void) | null = null;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Marks the resource active (the start of its span). */
  begin(resource: Resource): void {
    const entry = this.get(resource);
    entry.startedAt ??= this.#now();
  }

  /** Pages expected for a list; called again as `count` reveals more. */
  expectPages(pages: number): void {
    this.pagesKnown += pages;
    this.onChange?.();
  }

  pageRead(resource: Resource, records: number): void {
    const entry = this.get(resource);
    entry.pages++;
    entry.records += records;
    this.pagesDone++;
    this.onChange?.();
  }

  wrote(resource: Resource, rows: number): void {
    const entry = this.get(resource);
    entry.rows += rows;
    entry.finishedAt = this.#now();
  }

  reject(resource: Resource): void {
    this.get(resource).rejected++;
  }

  get rejected(): number {
    let rejected = 0;
    for (const entry of this.#byResource.values()) rejected += entry.rejected;
    return rejected;
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  get(resource: Resource): ResourceTally {
    let entry = this.#byResource.get(resource);
    if (!entry) {
      entry = { records: 0, rejected: 0, rows: 0, pages: 0, startedAt: null, finishedAt: null };
      this.#byResource.set(resource, entry);
    }
    return entry;
  }

  /** Rows written per table. */
  get rowsByTable(): Map<Resource, number> {
    return new Map([...this.#byResource].map(([resource, entry]) => [resource, entry.rows]));
  }

  get rowsWritten(): number {
    let rows = 0;
    for (const entry of this.#byResource.values()) rows += entry.rows;
    return rows;
  }
}

import { idValueText } from './record-id.ts';

/**
 * Ids a walk by id window is told exist, ahead of reading them: the unit ids the change
 * history names. A walk crossing a gap
 * ends its next window a page past the next hint instead of growing blindly, so the window
 * that finds a cluster millions of ids away does not count all of it (docs/performance.md,
 * "Sparse, clustered unit ids"). Hints only move where windows are cut, never what they cover.
 */
export class IdHints {
  #sorted = new BigInt64Array(0);
  #pending: bigint[] = [];
  /** Ids a source read beside the walk has yet to note before a walk in a gap goes on. */
  #awaitedIds = 0;
  #arrival: { promise: Promise<void>; resolve: () => void } | null = null;

  /**
   * Hints come from a read beside the walk until `done` settles. Until it has noted `enough`
   * ids (the first pages of a change history may name only a few units, all in one
   * cluster), a walk in a gap waits (see `isAwaited`) rather than cross the
   * gap blind or jump past clusters no hint shows. It waits for no more than that, so it never
   * idles long.
   */
  expectUntil(done: Promise<unknown>, enough: number): void {
    this.#awaitedIds = enough;
    const end = () => {
      this.#awaitedIds = 0;
      this.#wake();
    };
    done.then(end, end);
  }

  /** Whether a walk in a gap should wait for `arrival` (see expectUntil). */
  get isAwaited(): boolean {
    return this.#awaitedIds > 0;
  }

  /** Settles at the next batch noted, or when the source ends. */
  arrival(): Promise<void> {
    if (this.#arrival === null) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      this.#arrival = { promise, resolve };
    }
    return this.#arrival.promise;
  }

  /** Notes a batch of ids (decimal text or numbers); any that cannot be an id are ignored. */
  add(ids: Iterable<string | number | bigint | null>): void {
    const before = this.#pending.length;
    for (const id of ids) {
      if (id === null) continue;
      const value = typeof id === 'bigint' ? id : toBigInt(idValueText(id));
      if (value !== null && value > 0n && value <= MAX_ID) this.#pending.push(value);
    }
    this.#awaitedIds = Math.max(0, this.#awaitedIds - (this.#pending.length - before));
    if (this.#pending.length >= MERGE_AT) this.#merge();
    this.#wake();
  }

  #wake(): void {
    const arrival = this.#arrival;
    this.#arrival = null;
    arrival?.resolve();
  }

  /** The smallest hinted id above `after` (null: before the first), or null: none known. */
  above(after: bigint | null): bigint | null {
    this.#merge();
    const sorted = this.#sorted;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (after !== null && sorted[mid]! <= after) low = mid + 1;
      else high = mid;
    }
    return low < sorted.length ? sorted[low]! : null;
  }

  get size(): number {
    this.#merge();
    return this.#sorted.length;
  }

  /** Merges the pending ids into the sorted ones: a sort of the few new, then one pass. */
  #merge(): void {
    if (this.#pending.length === 0) return;
    const fresh = BigInt64Array.from(this.#pending).sort();
    this.#pending = [];
    const old = this.#sorted;
    const all = new BigInt64Array(old.length + fresh.length);
    let kept = 0;
    for (let i = 0, j = 0; i < old.length || j < fresh.length;) {
      const next =
        j >= fresh.length || (i < old.length && old[i]! <= fresh[j]!) ? old[i++]! : fresh[j++]!;
      if (kept === 0 || all[kept - 1] !== next) all[kept++] = next;
    }
    // Bounded memory: past the cap, every other hint goes (each still marks where ids are).
    let sorted = all.subarray(0, kept);
    while (sorted.length > MAX_HINTS) sorted = sorted.filter((_, i) => i % 2 === 0);
    this.#sorted = sorted.slice();
  }
}

/** Digits past 19 cannot be an id (MAX_ID has 19), and BigInt of them costs for nothing. */
function toBigInt(text: string | null): bigint | null {
  return text !== null && text.length <= 19 ? BigInt(text) : null;
}

const MAX_ID = 2n ** 63n - 1n;

/** Hints kept at most: 8 MB. */
const MAX_HINTS = 1_000_000;

/** Pending hints merged into the sorted ones once this many wait (or when asked). */
const MERGE_AT = 50_000;

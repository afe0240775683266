import { fromEpochMicros, toEpochMicros } from '../lib/timestamps.ts';
import { idKey } from '../weblate/record-id.ts';

/** How far a walk's stored ranges reach from its start without a gap. */
export interface Reach<Key> {
  /** Where the gapless prefix ends (see CoveredIds, CoveredTimes). */
  through: Key;
  /** Whether the stored ranges reach the end of the walk. */
  complete: boolean;
}

/**
 * The ranges of a walk that are stored, when they arrive in any order (windows read side by
 * side, see weblate/read-ahead.ts), on a line of bigint keys walked upwards: a range (after,
 * through] joins the prefix once `after` is within it; `through` null is the end of the walk.
 * A cursor built from the reach claims only the gapless prefix from the walk's start, so a
 * run that stops resumes with no gap; ranges stored past a gap are read again then, which
 * upserts the same rows. Ranges may overlap.
 */
class CoveredKeys {
  #reach: bigint;
  #complete = false;
  /** Stored ranges beyond a gap: at most those of the windows in flight. */
  #ahead: Array<{ after: bigint; through: bigint | null }> = [];

  constructor(start: bigint) {
    this.#reach = start;
  }

  copy(): CoveredKeys {
    const next = new CoveredKeys(this.#reach);
    next.#complete = this.#complete;
    next.#ahead = [...this.#ahead];
    return next;
  }

  add(after: bigint, through: bigint | null): void {
    this.#ahead.push({ after, through });
    for (let i = 0; i < this.#ahead.length;) {
      const range = this.#ahead[i]!;
      if (this.#complete || range.after > this.#reach) {
        i += 1;
        continue;
      }
      if (range.through === null) this.#complete = true;
      else if (range.through > this.#reach) this.#reach = range.through;
      this.#ahead.splice(i, 1);
      i = 0;
    }
    if (this.#complete) this.#ahead = [];
  }

  get reach(): Reach<bigint> {
    return { through: this.#reach, complete: this.#complete };
  }
}

/**
 * The id ranges (after, through] of a walk by id that are stored (through null: to the end
 * of the list). `reach.through`: every id in (start, through] is stored; null when nothing is
 * yet, for a walk from the first id.
 */
export class CoveredIds {
  #keys: CoveredKeys;

  /** A walk that starts after `start` (null: at the first id). */
  constructor(start: string | null) {
    this.#keys = new CoveredKeys(idKey(start));
  }

  /** The reach once (after, through] is stored too; nothing changes. */
  with(after: string | null, through: string | null): Reach<string | null> {
    const next = this.#keys.copy();
    next.add(idKey(after), through === null ? null : BigInt(through));
    return CoveredIds.#reachOf(next);
  }

  /** Notes (after, through] as stored. */
  add(after: string | null, through: string | null): void {
    this.#keys.add(idKey(after), through === null ? null : BigInt(through));
  }

  get reach(): Reach<string | null> {
    return CoveredIds.#reachOf(this.#keys);
  }

  static #reachOf(keys: CoveredKeys): Reach<string | null> {
    const { through, complete } = keys.reach;
    return { through: through < 0n ? null : String(through), complete };
  }
}

/**
 * The time ranges of a change walk (newest first) that are stored: a page that covers
 * (from, upTo] holds every change newer than `from` up to `upTo` (from null: down to the
 * walk's lower bound, which completes it). `reach.through`: every change newer than it, up
 * to the walk's start, is stored; the changes at that very instant are read again on resume.
 */
export class CoveredTimes {
  #keys: CoveredKeys;

  /** A walk down from `start` (canonical UTC). */
  constructor(start: string) {
    this.#keys = new CoveredKeys(-toEpochMicros(start));
  }

  /** The reach once (from, upTo] is stored too; nothing changes. */
  with(from: string | null, upTo: string): Reach<string> {
    const next = this.#keys.copy();
    CoveredTimes.#add(next, from, upTo);
    return CoveredTimes.#reachOf(next);
  }

  /** Notes (from, upTo] as stored. */
  add(from: string | null, upTo: string): void {
    CoveredTimes.#add(this.#keys, from, upTo);
  }

  get reach(): Reach<string> {
    return CoveredTimes.#reachOf(this.#keys);
  }

  static #add(keys: CoveredKeys, from: string | null, upTo: string): void {
    keys.add(-toEpochMicros(upTo), from === null ? null : -toEpochMicros(from));
  }

  static #reachOf(keys: CoveredKeys): Reach<string> {
    const { through, complete } = keys.reach;
    return { through: fromEpochMicros(-through), complete };
  }
}

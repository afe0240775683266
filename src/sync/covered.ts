/** How far a walk's stored ranges reach from its start without a gap. */
export interface Reach {
  /** Every id in (start, through] is stored (through null: none yet, or from the very start). */
  through: string | null;
  /** Whether the stored ranges reach the end of the list. */
  complete: boolean;
}

/** A range (after, through] of a walk by id; through null: to the end of the list. */
interface Range {
  after: bigint;
  through: bigint | null;
}

const key = (id: string | null) => (id === null ? -1n : BigInt(id));

/**
 * The ranges of a walk by id that are stored, when they arrive in any order (windows read
 * side by side, see weblate/keyset.ts): a cursor built from `reach` claims only the gapless
 * prefix from the walk's start, so a run that stops resumes with no gap; ranges stored past
 * a gap are read again then, which upserts the same rows. Ranges may overlap.
 */
export class CoveredIds {
  #reach: bigint;
  #complete = false;
  /** Stored ranges beyond a gap: at most those of the windows in flight. */
  #ahead: Range[] = [];

  /** A walk that starts after `start` (null: at the first id). */
  constructor(start: string | null) {
    this.#reach = key(start);
  }

  /** The reach once (after, through] is stored too; nothing changes. */
  with(after: string | null, through: string | null): Reach {
    const next = new CoveredIds(null);
    next.#reach = this.#reach;
    next.#complete = this.#complete;
    next.#ahead = [...this.#ahead];
    next.add(after, through);
    return next.reach;
  }

  /** Notes (after, through] as stored. */
  add(after: string | null, through: string | null): void {
    this.#ahead.push({ after: key(after), through: through === null ? null : BigInt(through) });
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

  get reach(): Reach {
    return { through: this.#reach < 0n ? null : String(this.#reach), complete: this.#complete };
  }
}

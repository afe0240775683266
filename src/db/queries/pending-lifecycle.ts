import { type Transition, transition } from './sync-state.ts';

/**
 * The pending lifecycle (docs/architecture.md, Sync state): what each stage notes and settles,
 * as pure functions of what it saw. Stages return these transitions with their rows; only
 * applyTransitions interprets them. test/sync/pending-lifecycle.test.ts runs the lifecycle as tables.
 */

type Id = string | number;

/** A change as its page stores it. */
export interface StoredChange {
  id: string;
  unitId: Id | bigint | null;
}

/** A change page: only changes new to the mirror owe their unit and their discovery. */
export function changesStored(
  changes: readonly StoredChange[],
  fresh: ReadonlySet<string>,
): Transition[] {
  const added = changes.filter((c) => fresh.has(c.id));
  return [
    transition.note(
      'namedUnits',
      added.flatMap((c) => (c.unitId === null ? [] : [String(c.unitId)])),
    ),
    transition.note(
      'newChanges',
      added.map((c) => c.id),
    ),
  ];
}

/** A translation page: those whose record moved owe units and statistics (all, rechecking). */
export function translationsStored(
  listed: readonly Id[],
  moved: readonly Id[],
  { everyOne }: { everyOne: boolean },
): Transition[] {
  return [transition.note('movedTranslations', everyOne ? listed : moved)];
}

/**
 * Discovery from the changes done. A webhook run notes the translations it read right after a
 * change of them (their counts may lag); a run of another kind settled the rechecks it read.
 */
export function discoveryDone(
  changes: readonly Id[],
  {
    recheckRead,
    reread,
    webhooks,
  }: { recheckRead: readonly Id[]; reread: readonly Id[]; webhooks: boolean },
): Transition[] {
  return [
    transition.settle('newChanges', changes),
    webhooks
      ? transition.note('recheckTranslations', reread)
      : transition.settle('recheckTranslations', recheckRead),
  ];
}

/** Units read: those named are settled, all of them by a complete walk of every project. */
export function unitsRead(ids: readonly Id[], { coversAll }: { coversAll: boolean }): Transition[] {
  return [coversAll ? transition.settleAll('namedUnits') : transition.settle('namedUnits', ids)];
}

/** Which pending translations a statistics stage reads; the rest are gone or out of scope. */
export function snapshotsDue<T>(
  moved: readonly number[],
  owed: readonly number[],
  lookup: (id: number) => T | undefined,
): { read: T[]; gone: number[] } {
  const read: T[] = [];
  const gone: number[] = [];
  for (const id of new Set([...moved, ...owed])) {
    const found = lookup(id);
    if (found === undefined) gone.push(id);
    else read.push(found);
  }
  return { read, gone };
}

/** A run that reads no statistics owes the moved translations' snapshots to the next. */
export function snapshotsDeferred(moved: readonly Id[]): Transition[] {
  return [transition.note('owedSnapshots', moved), transition.settle('movedTranslations', moved)];
}

/**
 * Translations about to be snapshot: their languages' sums are owed from before the first
 * snapshot settles, so that a run stopped between the two reads leaves them for the next.
 */
export function languagesDue(languages: readonly Id[]): Transition[] {
  return [transition.note('staleLanguages', languages)];
}

/** Translations whose statistics were read, or need none any more. */
export function snapshotsTaken(ids: readonly Id[]): Transition[] {
  return [transition.settle('movedTranslations', ids), transition.settle('owedSnapshots', ids)];
}

/** Languages read: those pending are settled, those whose sums lag stay for the next run. */
export function languagesRead(
  pendingLanguages: readonly Id[],
  lagging: readonly Id[],
): Transition[] {
  return [
    transition.settle('staleLanguages', pendingLanguages),
    transition.note('staleLanguages', lagging),
  ];
}

/** Translations deleted: their languages' sums are stale. */
export function translationsDeleted(languages: readonly Id[]): Transition[] {
  return [transition.note('staleLanguages', languages)];
}

/**
 * How Weblate 5.14.3 logs a unit's state (`Unit.generate_change`, weblate/trans/models/unit.py):
 * every change written through a unit carries `details: { state, old_state, source,
 * context }`, and its action, unless the caller names one, follows from the two states. The
 * simulator writes its changes the same way and keeps each move in `instance.history`.
 */
import { PLURAL_SEPARATOR } from './generate-units.ts';
import type { SimChange, SimInstance, SimStateMove, SimUnit } from './model.ts';

/** `old_state` of a string created from a file (NEW_UNIT_REPO 71, NEW_UNIT_UPLOAD 73). */
export const NO_STRING = -1;

/**
 * The action Weblate picks when none is passed: MARKED_EDIT (37) into fuzzy, APPROVE (36)
 * into approved, else CHANGE (2) from a state >= fuzzy and NEW (5) from empty.
 */
export function stateAction(oldState: number, newState: number): number {
  if (newState === 10) return 37;
  if (newState === 30) return 36;
  return oldState >= 10 ? 2 : 5;
}

/** The `details` Weblate writes for a unit change (`old_state` is the state just before). */
export function stateDetails(
  unit: Pick<SimUnit, 'source' | 'context'>,
  oldState: number,
  newState: number,
): Record<string, unknown> {
  return {
    state: newState,
    old_state: oldState,
    source: unit.source.join(PLURAL_SEPARATOR),
    context: unit.context,
  };
}

/** The move a change that carries states records for its unit (the unit as it is now). */
export function loggedMove(change: SimChange, unit: SimUnit): SimStateMove {
  const details = change.details as { state: number; old_state: number };
  const isCreation = change.action === 13 || change.action === 31;
  return {
    us: change.timestampUs,
    unitId: unit.id,
    translationId: unit.translationId,
    words: unit.numWords,
    from: isCreation ? NO_STRING : details.old_state,
    to: details.state,
    changeId: change.id,
  };
}

/** Moves not logged by any change, e.g. a `QuerySet.update()` of states. */
export function silentMove(unit: SimUnit, to: number, us: number): SimStateMove {
  return {
    us,
    unitId: unit.id,
    translationId: unit.translationId,
    words: unit.numWords,
    from: unit.state,
    to,
    changeId: null,
  };
}

export function recordMoves(instance: SimInstance, moves: readonly SimStateMove[]): void {
  for (const move of moves) instance.history.moves.push(move);
}

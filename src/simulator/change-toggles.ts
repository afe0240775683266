/**
 * What Weblate does to unit states without logging it: `Unit.update_state()` makes a string
 * read-only (100) when its source gets the "read-only" flag, and restores its state when the
 * flag goes, with a plain `save()` and no change (weblate/trans/models/unit.py). The
 * generator toggles a few strings that have no change at all, for a few days each, so the
 * change log stays coherent and the true history still differs from it now and then.
 */
import type { ChangeState } from './change-state.ts';
import type { SimStateMove, SimUnit } from './model.ts';
import { MICROS_PER_DAY, MICROS_PER_HOUR } from './time.ts';

/** Toggles per target unit: rare enough for a change-log estimate to stay close. */
const TOGGLE_SHARE = 0.0005;

function silentPair(unit: SimUnit, fromUs: number, untilUs: number): SimStateMove[] {
  const base = { unitId: unit.id, translationId: unit.translationId, words: unit.numWords };
  return [
    { ...base, us: fromUs, from: unit.state, to: 100, changeId: null },
    { ...base, us: untilUs, from: 100, to: unit.state, changeId: null },
  ];
}

/** Read-only periods of strings without changes, all ended before the newest change. */
export function readOnlyToggles(state: ChangeState, startUs: number): SimStateMove[] {
  const { rng, world } = state;
  const endUs = state.changes[state.changes.length - 1]?.timestampUs ?? startUs;
  const spanUs = endUs - startUs - 11 * MICROS_PER_DAY;
  if (spanUs <= 0 || world.targetTranslations.length === 0) return [];
  let targetUnits = 0;
  for (const t of world.targetTranslations)
    targetUnits += world.unitsByTranslation.get(t.id)?.length ?? 0;
  const wanted = Math.round(targetUnits * TOGGLE_SHARE);
  const moves: SimStateMove[] = [];
  const toggled = new Set<number>();
  for (let attempt = 0; attempt < wanted * 4 && toggled.size < wanted; attempt += 1) {
    const units = world.unitsByTranslation.get(rng.pick(world.targetTranslations).id) ?? [];
    if (units.length === 0) continue;
    const unit = rng.pick(units);
    const isQuiet = (state.changeCounts[unit.id] ?? 0) === 0 && !toggled.has(unit.id);
    if (!isQuiet || state.removedUnitIds.has(unit.id) || unit.state >= 100) continue;
    const fromUs = startUs + Math.floor(rng.next() * spanUs);
    toggled.add(unit.id);
    moves.push(...silentPair(unit, fromUs, fromUs + rng.int(1, 240) * MICROS_PER_HOUR));
  }
  return moves;
}

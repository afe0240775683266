import { UNIT_SAVING_ACTIONS } from './actions.ts';
import {
  runComponentSession,
  runContentSession,
  runFutureSession,
  runProjectSession,
  runRepositorySession,
} from './change-sessions.ts';
import { AVERAGE_SESSION, type ChangeState, type ChangeWorld, isFull } from './change-state.ts';
import { TIMELINE_SPAN_US, TIMELINE_START_US } from './clock.ts';
import { PLURAL_SEPARATOR } from './generate-units.ts';
import type { SimChange, SimUnit } from './model.ts';
import type { Rng } from './prng.ts';

export type { ChangeWorld } from './change-state.ts';

/**
 * Resolves each unit's history: its newest saving change carries the unit's current target
 * (and sets `last_updated`), its newest explanation change sets `explanation`.
 */
function settleUnits(changes: readonly SimChange[], unitById: ReadonlyMap<number, SimUnit>): void {
  const saved = new Set<number>();
  const explained = new Set<number>();
  for (let i = changes.length - 1; i >= 0; i -= 1) {
    const change = changes[i] as SimChange;
    const unit = change.unitId === null ? undefined : unitById.get(change.unitId);
    if (unit === undefined) continue;
    if (UNIT_SAVING_ACTIONS.has(change.action) && !saved.has(unit.id)) {
      saved.add(unit.id);
      change.target = unit.target.join(PLURAL_SEPARATOR);
      unit.lastUpdated = change.timestamp;
      unit.lastUpdatedUs = change.timestampUs;
    } else if (change.action === 66 && !explained.has(unit.id)) {
      explained.add(unit.id);
      unit.explanation = change.target;
    }
  }
}

/** Generates `total` changes in sessions over the timeline, ids ascending with time. */
export function generateChanges(
  rng: Rng,
  world: ChangeWorld,
  total: number,
  startUs: number = TIMELINE_START_US,
): SimChange[] {
  const sessions = Math.max(1, total / AVERAGE_SESSION);
  const state: ChangeState = {
    rng,
    world,
    total,
    changes: [],
    nextId: 0,
    clockUs: startUs,
    meanSessionGapUs: TIMELINE_SPAN_US / sessions,
  };
  let hasFuture = false;
  while (!isFull(state) && world.translations.length > 0) {
    state.clockUs += Math.floor(rng.next() * 2 * state.meanSessionGapUs);
    if (!hasFuture && state.changes.length >= total * 0.6) {
      hasFuture = true;
      runFutureSession(state);
      continue;
    }
    const kind = rng.weighted([
      ['content', 80],
      ['repository', 7],
      ['component', 8],
      ['project', 5],
    ] as const);
    if (kind === 'content') runContentSession(state);
    else if (kind === 'repository') runRepositorySession(state);
    else if (kind === 'component') runComponentSession(state);
    else runProjectSession(state);
  }
  const unitById = new Map<number, SimUnit>();
  for (const units of world.unitsByTranslation.values())
    for (const unit of units) unitById.set(unit.id, unit);
  settleUnits(state.changes, unitById);
  return state.changes;
}

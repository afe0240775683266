import { UNIT_SAVING_ACTIONS } from './actions.ts';
import { resolveChanges } from './change-resolve.ts';
import {
  runComponentSession,
  runContentSession,
  runFutureSession,
  runProjectSession,
  runRepositorySession,
} from './change-sessions.ts';
import {
  AVERAGE_SESSION,
  type ChangeState,
  type ChangeWorld,
  isFull,
  type StringPool,
} from './change-state.ts';
import { runAddSession, runRemoveSession } from './change-strings.ts';
import { readOnlyToggles } from './change-toggles.ts';
import { TIMELINE_SPAN_US, TIMELINE_START_US } from './clock.ts';
import { PLURAL_SEPARATOR } from './generate-units.ts';
import type { SimChange, SimStateMove, SimUnit } from './model.ts';
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

/** Share of each component's strings (the last ones) that are added during the timeline. */
const ADDED_SHARE = 0.03;

function stringPools(world: ChangeWorld): Map<number, StringPool> {
  const pools = new Map<number, StringPool>();
  const growing = new Set(world.growingComponents);
  for (const component of world.components) {
    const translations = world.translationsByComponent.get(component.id) ?? [];
    const source = translations.find((t) => t.isSource) ?? translations[0];
    const count = source === undefined ? 0 : (world.unitsByTranslation.get(source.id)?.length ?? 0);
    pools.set(component.id, {
      count,
      born: growing.has(component) ? count - Math.floor(count * ADDED_SHARE) : count,
      removed: new Set(),
    });
  }
  return pools;
}

function runSession(state: ChangeState): void {
  const kind = state.rng.weighted([
    ['content', 80],
    ['repository', 7],
    ['component', 8],
    ['project', 5],
    ['added', 3],
  ] as const);
  if (kind === 'content') runContentSession(state);
  else if (kind === 'repository') runRepositorySession(state);
  else if (kind === 'component') runComponentSession(state);
  else if (kind === 'project') runProjectSession(state);
  else runAddSession(state);
}

export interface GeneratedHistory {
  /** Ascending id and time; without the changes of removed strings. */
  changes: SimChange[];
  /** Every unit's true moves, in order, those of removed strings and unlogged ones included. */
  moves: SimStateMove[];
  /** Units of strings removed during the timeline (their changes are gone already). */
  removedUnitIds: ReadonlySet<number>;
}

/**
 * Generates `total` changes in sessions over the timeline, ids ascending with time, then
 * resolves them newest first so that every unit's logged states lead to its final state.
 */
export function generateChanges(
  rng: Rng,
  world: ChangeWorld,
  total: number,
  startUs: number = TIMELINE_START_US,
): GeneratedHistory {
  const sessions = Math.max(1, total / AVERAGE_SESSION);
  const state: ChangeState = {
    rng,
    world,
    total,
    changes: [],
    nextId: 0,
    clockUs: startUs,
    meanSessionGapUs: TIMELINE_SPAN_US / sessions,
    plans: [],
    dropped: 0,
    changeCounts: new Int32Array(world.maxUnitId + 1),
    removedUnitIds: new Set(),
    pools: stringPools(world),
  };
  let hasFuture = false;
  let removed = 0;
  const { removals } = world;
  while (!isFull(state) && world.translations.length > 0) {
    state.clockUs += Math.floor(rng.next() * 2 * state.meanSessionGapUs);
    const logged = state.changes.length - state.dropped;
    if (!hasFuture && logged >= total * 0.6) {
      hasFuture = true;
      runFutureSession(state);
    } else if (
      removed < removals.length &&
      logged >= ((removed + 1) * total) / (removals.length + 1)
    ) {
      // Removals spread evenly over the timeline, one per extra string the catalog made.
      runRemoveSession(state, removals[removed] as number);
      removed += 1;
    } else runSession(state);
  }
  const moves = resolveChanges(state);
  const { removedUnitIds } = state;
  const changes = state.changes.filter((c) => c.unitId === null || !removedUnitIds.has(c.unitId));
  const unitById = new Map<number, SimUnit>();
  for (const units of world.unitsByTranslation.values())
    for (const unit of units) unitById.set(unit.id, unit);
  settleUnits(changes, unitById);
  for (const move of readOnlyToggles(state, startUs)) moves.push(move);
  // Stable: moves at one instant keep the order in which they happened.
  moves.sort((a, b) => a.us - b.us);
  return { changes, moves, removedUnitIds };
}

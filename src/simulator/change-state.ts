import { actionName } from './actions.ts';
import { pickOffset } from './clock.ts';
import type { SimChange, SimComponent, SimTranslation, SimUnit } from './model.ts';
import type { Rng } from './prng.ts';
import type { TextScript } from './text-bank.ts';
import { formatInstant, MICROS_PER_SECOND } from './time.ts';

/** What the change generator needs to know about the instance being built. */
export interface ChangeWorld {
  components: readonly SimComponent[];
  translations: readonly SimTranslation[];
  /** Translations into a language other than the component's source language. */
  targetTranslations: readonly SimTranslation[];
  translationsByComponent: ReadonlyMap<number, SimTranslation[]>;
  unitsByTranslation: ReadonlyMap<number, SimUnit[]>;
  scriptByTranslation: ReadonlyMap<number, TextScript>;
  projectOfComponent: ReadonlyMap<number, number>;
  /** Real users (not `anonymous`). */
  usernames: readonly string[];
  /** Projects that review translations (approved strings exist only there). */
  reviewingProjects: ReadonlySet<number>;
  /** Components in a bilingual format (no template). */
  bilingualComponents: ReadonlySet<number>;
  /** Highest unit id, for per-unit arrays. */
  maxUnitId: number;
  /** Components whose last strings are added during the timeline. */
  growingComponents: readonly SimComponent[];
  /** The component of each string removed during the timeline, in order. */
  removals: readonly number[];
}

/**
 * What a unit change does, decided when it is placed in time; its states, action and texts
 * are resolved afterwards, newest first, from the unit's final state (change-resolve.ts).
 */
export type PlanKind =
  | 'edit'
  | 'accept'
  | 'bulk'
  | 'repository'
  | 'comment'
  | 'suggestion'
  | 'explanation'
  | 'added-repository'
  | 'added'
  | 'removed';

export interface ChangePlan {
  kind: PlanKind;
  unit: SimUnit;
}

/**
 * The strings of a component as the timeline goes: the first `born` positions exist (the
 * last ones are added during the timeline), minus those removed (0-based positions).
 */
export interface StringPool {
  count: number;
  born: number;
  removed: Set<number>;
}

export type ChangeDraft = Pick<SimChange, 'action' | 'projectId'> & Partial<SimChange>;

export interface ChangeState {
  rng: Rng;
  world: ChangeWorld;
  total: number;
  changes: SimChange[];
  nextId: number;
  clockUs: number;
  meanSessionGapUs: number;
  /** Per change, what it does to its unit (unit changes only). */
  plans: (ChangePlan | undefined)[];
  /** Changes of units removed since, which Weblate deletes with them (CASCADE). */
  dropped: number;
  /** Changes so far per unit id. */
  changeCounts: Int32Array;
  removedUnitIds: Set<number>;
  pools: Map<number, StringPool>;
}

export const AVERAGE_SESSION = 8;

export function isFull(state: ChangeState, room = 1): boolean {
  return state.changes.length - state.dropped + room > state.total;
}

/** Appends a change a few seconds after the previous one, or (tie) at the very same instant. */
export function emit(
  state: ChangeState,
  draft: ChangeDraft,
  isTie = false,
  plan?: ChangePlan,
): void {
  const { rng, changes } = state;
  const previous = changes[changes.length - 1];
  let timestamp: string;
  if (isTie && previous !== undefined) {
    state.clockUs = previous.timestampUs;
    timestamp = previous.timestamp;
  } else {
    state.clockUs += rng.int(1, 90) * MICROS_PER_SECOND + rng.int(0, 999_999);
    timestamp = formatInstant(state.clockUs, pickOffset(rng));
  }
  state.nextId += rng.chance(0.01) ? rng.int(2, 4) : 1;
  changes.push({
    id: state.nextId,
    actionName: actionName(draft.action),
    componentId: null,
    translationId: null,
    unitId: null,
    user: null,
    author: null,
    target: '',
    old: '',
    details: {},
    ...draft,
    timestamp,
    timestampUs: state.clockUs,
  });
  state.plans.push(plan);
  if (plan !== undefined && plan.kind !== 'removed') {
    const id = plan.unit.id;
    state.changeCounts[id] = (state.changeCounts[id] ?? 0) + 1;
  }
}

/** Whether the unit's string exists now (positions are 1..n while generating). */
export function isLive(state: ChangeState, translation: SimTranslation, unit: SimUnit): boolean {
  const pool = state.pools.get(translation.componentId);
  const index = unit.position - 1;
  return pool === undefined || (index < pool.born && !pool.removed.has(index));
}

/** A unit of `units` (one translation's, by position) whose string exists now, if found. */
export function pickLiveUnit(
  state: ChangeState,
  translation: SimTranslation,
  units: readonly SimUnit[],
): SimUnit | undefined {
  const pool = state.pools.get(translation.componentId);
  const born = Math.min(units.length, pool?.born ?? units.length);
  if (born === 0) return undefined;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const position = state.rng.int(0, born - 1);
    if (pool === undefined || !pool.removed.has(position)) return units[position];
  }
  return undefined;
}

export function pickUser(state: ChangeState): string | null {
  return state.world.usernames.length === 0 ? null : state.rng.pick(state.world.usernames);
}

export function translationScope(state: ChangeState, translation: SimTranslation): ChangeDraft {
  const projectId = state.world.projectOfComponent.get(translation.componentId) ?? 0;
  return {
    action: 0,
    projectId,
    componentId: translation.componentId,
    translationId: translation.id,
  };
}

export function componentScope(state: ChangeState, component: SimComponent): ChangeDraft {
  return { action: 0, projectId: component.projectId, componentId: component.id };
}

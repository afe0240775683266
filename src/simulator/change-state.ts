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
}

export const AVERAGE_SESSION = 8;

export function isFull(state: ChangeState, room = 1): boolean {
  return state.changes.length + room > state.total;
}

/** Appends a change a few seconds after the previous one, or (tie) at the very same instant. */
export function emit(state: ChangeState, draft: ChangeDraft, isTie = false): void {
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

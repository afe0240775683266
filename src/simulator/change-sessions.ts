import { FUTURE_ACTION } from './actions.ts';
import {
  AVERAGE_SESSION,
  type ChangeDraft,
  type ChangeState,
  componentScope,
  emit,
  isFull,
  pickUser,
  translationScope,
} from './change-state.ts';
import { randomRevision } from './clock.ts';
import { PLURAL_SEPARATOR } from './generate-units.ts';
import type { SimTranslation, SimUnit } from './model.ts';
import type { Rng } from './prng.ts';
import { COMMENT_TEXTS, pickTarget } from './text-bank.ts';

/**
 * Content actions by unit state, with relative weights: the actions that fit a string in
 * that state, so a unit's newest change agrees with its current state.
 */
const ACTIONS_BY_STATE: Record<
  'empty' | 'fuzzy' | 'translated' | 'approved' | 'source',
  [number, number][]
> = {
  empty: [
    [4, 6],
    [3, 4],
  ],
  fuzzy: [
    [37, 5],
    [2, 3],
    [4, 1],
    [3, 1],
  ],
  translated: [
    [2, 45],
    [5, 30],
    [7, 10],
    [3, 8],
    [4, 7],
  ],
  approved: [
    [36, 55],
    [2, 20],
    [5, 15],
    [7, 10],
  ],
  source: [
    [3, 1],
    [66, 1],
  ],
};

function pickContentAction(rng: Rng, unitState: number): number {
  if (unitState === 0) return rng.weighted(ACTIONS_BY_STATE.empty);
  if (unitState < 20) return rng.weighted(ACTIONS_BY_STATE.fuzzy);
  if (unitState === 20) return rng.weighted(ACTIONS_BY_STATE.translated);
  if (unitState === 30) return rng.weighted(ACTIONS_BY_STATE.approved);
  return rng.weighted(ACTIONS_BY_STATE.source);
}

function contentAuthor(state: ChangeState, action: number, user: string | null): string | null {
  const { rng } = state;
  if (action === 7) return rng.chance(0.3) ? 'anonymous' : pickUser(state);
  if (action === 4 && rng.chance(0.35)) return 'anonymous';
  if (user === null) return rng.chance(0.5) ? 'anonymous' : null;
  return rng.chance(0.03) ? null : user;
}

function contentDraft(
  state: ChangeState,
  translation: SimTranslation,
  unit: SimUnit,
  user: string | null,
): ChangeDraft {
  const { rng, world } = state;
  const action = pickContentAction(rng, unit.state);
  const script = world.scriptByTranslation.get(translation.id) ?? 'latin';
  let target = '';
  if (action === 3) target = rng.pick(COMMENT_TEXTS);
  else if (action === 66) target = `Explanation: ${rng.pick(COMMENT_TEXTS)}`;
  else target = pickTarget(rng, script);
  const draft: ChangeDraft = {
    action,
    projectId: world.projectOfComponent.get(translation.componentId) ?? 0,
    componentId: translation.componentId,
    translationId: translation.id,
    unitId: unit.id,
    user,
    author: contentAuthor(state, action, user),
    target,
  };
  if (action === 2) draft.old = pickTarget(rng, script);
  if (action !== 3 && action !== 4 && rng.chance(0.5)) {
    draft.details = {
      state: unit.state,
      old_state: rng.pick([0, 10, 20]),
      source: unit.source.join(PLURAL_SEPARATOR),
    };
  }
  return draft;
}

/** A user editing one translation for a while, then maybe committing it. */
export function runContentSession(state: ChangeState): void {
  const { rng, world } = state;
  const targets = world.targetTranslations;
  // Source strings get the odd comment or explanation edit too.
  const pool = targets.length === 0 || rng.chance(0.08) ? world.translations : targets;
  const translation = rng.pick(pool);
  const units = world.unitsByTranslation.get(translation.id) ?? [];
  if (units.length === 0) return;
  const user = pickUser(state);
  const length = rng.int(1, AVERAGE_SESSION * 2);
  for (let i = 0; i < length && !isFull(state); i += 1) {
    emit(state, contentDraft(state, translation, rng.pick(units), user), i > 0 && rng.chance(0.05));
  }
  if (!isFull(state) && rng.chance(0.3))
    emit(state, {
      ...translationScope(state, translation),
      action: 17,
      user: rng.chance(0.5) ? user : null,
      details: { revision: randomRevision(rng) },
    });
}

/**
 * A repository merge: the component-level merge, then per updated translation one
 * "String updated in the repository" (59) per string, immediately followed by
 * "Resource updated" (0) for that translation, as Weblate logs one after a repository update.
 */
export function runRepositorySession(state: ChangeState): void {
  const { rng, world } = state;
  const component = rng.pick(world.components);
  emit(state, { ...componentScope(state, component), action: 20 });
  const ofComponent = world.translationsByComponent.get(component.id) ?? [];
  const targets = ofComponent.filter((t) => !t.isSource);
  for (const translation of rng.shuffled(targets).slice(0, rng.int(1, 2))) {
    const units = (world.unitsByTranslation.get(translation.id) ?? []).filter((u) => u.state >= 20);
    const count = Math.min(units.length, rng.int(1, 3));
    if (count === 0 || isFull(state, count + 1)) return;
    for (const unit of rng.shuffled(units).slice(0, count)) {
      emit(state, {
        ...translationScope(state, translation),
        action: 59,
        unitId: unit.id,
        old: pickTarget(rng, 'latin'),
      });
    }
    emit(state, { ...translationScope(state, translation), action: 0 });
  }
}

export function runComponentSession(state: ChangeState): void {
  const { rng, world } = state;
  const component = rng.pick(world.components);
  const action = rng.pick([14, 15, 18, 18, 60, 61, 96]);
  const details: Record<string, unknown> = {};
  if (action === 60 || action === 61) details.addon = 'weblate.gettext.linguas';
  if (action === 96) details.setting = rng.pick(['priority', 'enforced_checks', 'license']);
  emit(state, {
    ...componentScope(state, component),
    action,
    user: rng.chance(0.7) ? pickUser(state) : null,
    details,
  });
}

export function runProjectSession(state: ChangeState): void {
  const { rng, world } = state;
  const component = rng.pick(world.components);
  const action = rng.pick([95, 34, 35, 46]);
  const draft: ChangeDraft = { action, projectId: component.projectId, user: pickUser(state) };
  if (action === 95) draft.details = { setting: 'translation_review', old: false, new: true };
  if (action === 34 || action === 35)
    draft.details = { username: pickUser(state) ?? 'anonymous', group: 'Translate' };
  if (action === 46) draft.target = 'String freeze starts on Friday 🧊';
  emit(state, draft);
}

export function runFutureSession(state: ChangeState): void {
  const translation = state.rng.pick(state.world.translations);
  emit(state, {
    ...translationScope(state, translation),
    action: FUTURE_ACTION,
    user: pickUser(state),
    details: { future_field: 'value', count: 2 },
  });
}

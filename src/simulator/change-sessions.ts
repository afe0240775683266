import { FUTURE_ACTION } from './actions.ts';
import {
  AVERAGE_SESSION,
  type ChangeDraft,
  type ChangeState,
  componentScope,
  emit,
  isFull,
  isLive,
  pickLiveUnit,
  pickUser,
  type PlanKind,
  translationScope,
} from './change-state.ts';
import { randomRevision } from './clock.ts';

/** What a user does to a string of a target translation, with relative weights. */
const TARGET_KINDS: readonly (readonly [PlanKind, number])[] = [
  ['edit', 62],
  ['accept', 8],
  ['comment', 12],
  ['suggestion', 12],
  ['bulk', 1],
];

/** Source strings only get comments and explanation edits. */
const SOURCE_KINDS: readonly (readonly [PlanKind, number])[] = [
  ['comment', 1],
  ['explanation', 1],
];

/**
 * A user editing one translation for a while, then maybe committing it. What each change
 * does is planned here; its states, action and texts are resolved later (change-resolve.ts).
 */
export function runContentSession(state: ChangeState): void {
  const { rng, world } = state;
  const targets = world.targetTranslations;
  // Source strings get the odd comment or explanation edit too.
  const pool = targets.length === 0 || rng.chance(0.08) ? world.translations : targets;
  const translation = rng.pick(pool);
  const units = world.unitsByTranslation.get(translation.id) ?? [];
  if (units.length === 0) return;
  const user = pickUser(state);
  const kinds = translation.isSource ? SOURCE_KINDS : TARGET_KINDS;
  const length = rng.int(1, AVERAGE_SESSION * 2);
  for (let i = 0; i < length && !isFull(state); i += 1) {
    const unit = pickLiveUnit(state, translation, units);
    if (unit === undefined) continue;
    const draft = { ...translationScope(state, translation), unitId: unit.id, user };
    emit(state, draft, i > 0 && rng.chance(0.05), { kind: rng.weighted(kinds), unit });
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
    // Mostly strings translated by now: a file brings translations more often than it drops them.
    const units = (world.unitsByTranslation.get(translation.id) ?? []).filter(
      (u) => u.state >= 20 && isLive(state, translation, u),
    );
    const count = Math.min(units.length, rng.int(1, 3));
    if (count === 0 || isFull(state, count + 1)) return;
    for (const unit of rng.shuffled(units).slice(0, count)) {
      const draft = { ...translationScope(state, translation), unitId: unit.id };
      emit(state, draft, false, { kind: 'repository', unit });
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

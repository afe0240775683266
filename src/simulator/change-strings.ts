/**
 * Strings added and removed during the timeline, as Weblate logs them. Added: a unit in
 * every translation of the component, each with "String added in the repository" (71, or
 * 13 for a bilingual source) and a "Resource updated" (0) per translation, or "String added"
 * (31) from the editor. Removed: one "String removed" (63) per translation, the source last
 * (weblate/trans/models/translation.py delete_unit), after the units and their changes are
 * gone.
 */
import {
  type ChangeState,
  emit,
  isFull,
  pickUser,
  type StringPool,
  translationScope,
} from './change-state.ts';
import type { SimTranslation } from './model.ts';

function translationsOf(state: ChangeState, componentId: number): SimTranslation[] {
  return state.world.translationsByComponent.get(componentId) ?? [];
}

/** The next strings of a component come into existence, in all its translations at once. */
export function runAddSession(state: ChangeState): void {
  const { rng, world } = state;
  if (world.growingComponents.length === 0) return;
  const component = rng.pick(world.growingComponents);
  const pool = state.pools.get(component.id);
  if (pool === undefined || pool.born >= pool.count) return;
  const count = Math.min(pool.count - pool.born, rng.int(1, 3));
  const translations = translationsOf(state, component.id);
  const isFromRepository = rng.chance(0.6);
  const room = count * translations.length + (isFromRepository ? translations.length : 0);
  if (isFull(state, room)) return;
  const user = isFromRepository ? null : pickUser(state);
  for (const [t, translation] of translations.entries()) {
    const units = world.unitsByTranslation.get(translation.id) ?? [];
    for (let s = 0; s < count; s += 1) {
      const unit = units[pool.born + s];
      if (unit === undefined) continue;
      const draft = { ...translationScope(state, translation), unitId: unit.id, user };
      const kind = isFromRepository ? 'added-repository' : 'added';
      // One bulk_create: the rows share their timestamp.
      emit(state, draft, t > 0 || s > 0, { kind, unit });
    }
    if (isFromRepository)
      emit(state, {
        ...translationScope(state, translation),
        details: { reason: 'content changed' },
      });
  }
  pool.born += count;
}

function pickRemovable(state: ChangeState, pool: StringPool): number | undefined {
  if (pool.born - pool.removed.size < 5) return undefined;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const index = state.rng.int(0, pool.born - 1);
    if (!pool.removed.has(index)) return index;
  }
  return undefined;
}

/** A string removed from a component: its units and their changes go (CASCADE). */
export function runRemoveSession(state: ChangeState, componentId: number): void {
  const { world } = state;
  const pool = state.pools.get(componentId);
  const index = pool === undefined ? undefined : pickRemovable(state, pool);
  if (pool === undefined || index === undefined) return;
  const all = translationsOf(state, componentId);
  const ordered = [...all.filter((t) => !t.isSource), ...all.filter((t) => t.isSource)];
  if (isFull(state, ordered.length)) return;
  const user = pickUser(state);
  for (const [t, translation] of ordered.entries()) {
    const unit = world.unitsByTranslation.get(translation.id)?.[index];
    if (unit === undefined) continue;
    const draft = { ...translationScope(state, translation), action: 63, user, author: user };
    emit(state, draft, t > 0, { kind: 'removed', unit });
    state.dropped += state.changeCounts[unit.id] ?? 0;
    state.removedUnitIds.add(unit.id);
  }
  pool.removed.add(index);
}

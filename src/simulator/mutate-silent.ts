/**
 * Unit changes Weblate makes with `QuerySet.update()`, which leave no trace: no change
 * entry, `last_updated` (what `last_changed` searches) untouched, and so no new
 * `last_change` on the translation either (that comes from changes). Statistics are
 * recomputed from the units, so counts such as `fuzzy` and `translated` do move; the
 * revision does not (the translation file's content is the same).
 */
import { recordMoves, silentMove } from './history.ts';
import type { UnitState } from './model.ts';
import { UNIT_STATES } from './model.ts';
import { requireComponent } from './mutate-catalog.ts';
import { requireUnit } from './mutate-units.ts';
import { type MutationContext, stamp } from './mutation-context.ts';

export interface SilentUnitUpdate {
  state?: UnitState;
  position?: number;
}

export interface SilentResult {
  /** Units whose values changed. */
  unitIds: number[];
}

/**
 * Sets values on units as `Unit.objects.filter(…).update(…)` does: e.g. the positions
 * Weblate renumbers (`position=F("position") - 1`) after a string is removed from a file.
 */
export function updateUnitsSilently(
  context: MutationContext,
  updates: ReadonlyMap<number, SilentUnitUpdate>,
): SilentResult {
  const units = [...updates.keys()].map((id) => requireUnit(context.instance, id));
  const changed: number[] = [];
  const { us } = stamp(context, 0);
  for (const unit of units) {
    const update = updates.get(unit.id) ?? {};
    const state = update.state ?? unit.state;
    const position = update.position ?? unit.position;
    if (state === unit.state && position === unit.position) continue;
    if (state !== unit.state) recordMoves(context.instance, [silentMove(unit, state, us)]);
    unit.state = state;
    unit.position = position;
    changed.push(unit.id);
  }
  return { unitIds: changed.sort((a, b) => a - b) };
}

/**
 * A monolingual component's template file renamed (`Component.create_translations`):
 * Weblate then "removes the fuzzy flag on template name change", turning every fuzzy
 * string (state 10 only) of every translation into translated with
 * `unit_set.filter(state=STATE_FUZZY).update(state=STATE_TRANSLATED)`. The component
 * record and its source translation's file name show the new template.
 */
export function renameTemplate(
  context: MutationContext,
  componentId: number,
  template: string,
): SilentResult {
  const { instance } = context;
  const component = requireComponent(instance, componentId);
  if (component.template === '') {
    throw new Error(`component ${componentId} is bilingual: it has no template to rename`);
  }
  if (template === '' || template === component.template) {
    throw new Error(`template "${template}" is not a new name for "${component.template}"`);
  }
  component.template = template;
  const updates = new Map<number, SilentUnitUpdate>();
  for (const translation of instance.index.translationsByComponent.get(componentId) ?? []) {
    // The source translation of a monolingual component is the template file itself.
    if (translation.isSource) translation.filename = template;
    for (const unit of instance.index.unitsByTranslation.get(translation.id) ?? []) {
      if (unit.state === UNIT_STATES.fuzzy) {
        updates.set(unit.id, { state: UNIT_STATES.translated });
      }
    }
  }
  return updateUnitsSilently(context, updates);
}

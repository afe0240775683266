/**
 * Mutations of strings, as Weblate records them: edits (2/5), bulk state edits (32), new
 * strings (13/31) and removed strings (63). Each returns the ids it created or changed.
 */
import { AUTOMATICALLY_TRANSLATED } from './actions.ts';
import { PLURAL_SEPARATOR } from './generate-units.ts';
import { loggedMove, NO_STRING, recordMoves, stateAction, stateDetails } from './history.ts';
import { removeChanges, removeUnits } from './index-updates.ts';
import type { SimChange, SimInstance, SimTranslation, SimUnit, UnitState } from './model.ts';
import {
  actingUser,
  bumpRevision,
  type ChangeDraft,
  type MutationContext,
  nextEdit,
  recordChanges,
  translationScope,
} from './mutation-context.ts';

export interface EditUnitsOptions {
  /** New target: one text (plural forms get " [n]" appended) or the forms; default generated. */
  target?: string | readonly string[];
  /** New state (default 20, translated); 0 empties the target. */
  state?: UnitState;
  /** Acting user (default the first real user); must exist, or null. */
  user?: string | null;
  /** Author (default the acting user). */
  author?: string | null;
  /**
   * As Weblate's automatic translation does it (the add-on, or the bulk action): every change
   * is 6, "Automatically translated", whatever the states.
   */
  automatic?: boolean;
}

export interface EditUnitsResult {
  unitIds: number[];
  changeIds: number[];
}

const EDIT_STATES: ReadonlySet<number> = new Set([0, 10, 11, 12, 20, 30]);

export function requireUnit(instance: SimInstance, id: number): SimUnit {
  const unit = instance.index.unitById.get(id);
  if (unit === undefined) throw new Error(`unknown unit ${id}`);
  return unit;
}

export function requireTranslation(instance: SimInstance, id: number): SimTranslation {
  const translation = instance.index.translationById.get(id);
  if (translation === undefined) throw new Error(`unknown translation ${id}`);
  return translation;
}

function uniqueUnits(instance: SimInstance, ids: readonly number[]): SimUnit[] {
  return [...new Set(ids)].map((id) => requireUnit(instance, id));
}

function editedTarget(
  unit: SimUnit,
  options: EditUnitsOptions,
  state: number,
  edit: number,
): string[] {
  const forms = Math.max(1, unit.target.length);
  if (state === 0) return Array<string>(forms).fill('');
  const wanted = options.target;
  if (wanted !== undefined && typeof wanted !== 'string') return [...wanted];
  const base = wanted ?? `${unit.source[0] ?? ''} (edit ${edit})`;
  return Array.from({ length: forms }, (_, form) => (form === 0 ? base : `${base} [${form}]`));
}

/** The change recording an edit of `unit` to `target` (before the unit is changed). */
function editDraft(
  instance: SimInstance,
  unit: SimUnit,
  target: readonly string[],
  edit: { state: number; user: string | null; author: string | null; automatic: boolean },
): ChangeDraft {
  const isEmpty = unit.state === 0;
  return {
    ...translationScope(instance, requireTranslation(instance, unit.translationId)),
    action: edit.automatic ? AUTOMATICALLY_TRANSLATED : stateAction(unit.state, edit.state),
    unitId: unit.id,
    user: edit.user,
    author: edit.author,
    target: target.join(PLURAL_SEPARATOR),
    old: isEmpty ? '' : unit.target.join(PLURAL_SEPARATOR),
    details: stateDetails(unit, unit.state, edit.state),
  };
}

/** Records in the history the moves these changes (of these units, in order) logged. */
function recordLogged(
  instance: SimInstance,
  changes: readonly SimChange[],
  units: readonly SimUnit[],
): void {
  recordMoves(
    instance,
    changes.map((change, i) => loggedMove(change, units[i] as SimUnit)),
  );
}

/**
 * Saves new targets: `last_updated` moves to the change's timestamp, the unit becomes
 * pending (not yet committed), and each unit gets the action Weblate picks from its old and
 * new state (history.ts): 5 when it was empty, 2 when not, 37 into fuzzy, 36 into approved.
 * Strings of a source translation cannot be edited this way.
 */
export function editUnits(
  context: MutationContext,
  unitIds: readonly number[],
  options: EditUnitsOptions = {},
): EditUnitsResult {
  const { instance } = context;
  const state = options.state ?? 20;
  if (!EDIT_STATES.has(state)) throw new Error(`cannot edit a unit into state ${state}`);
  const user = actingUser(instance, options.user);
  const author = options.author === undefined ? user : actingUser(instance, options.author);
  const units = uniqueUnits(instance, unitIds);
  const targets = units.map((unit) => {
    if (requireTranslation(instance, unit.translationId).isSource) {
      throw new Error(`unit ${unit.id} is a source string; edit its translations instead`);
    }
    return editedTarget(unit, options, state, nextEdit(instance));
  });
  const edit = { state, user, author, automatic: options.automatic === true };
  const drafts = units.map((unit, i) => editDraft(instance, unit, targets[i] ?? [], edit));
  const changes = recordChanges(context, drafts);
  recordLogged(instance, changes, units);
  units.forEach((unit, i) => {
    const change = changes[i];
    unit.target = targets[i] ?? unit.target;
    unit.state = state;
    unit.pending = state !== 0;
    if (change !== undefined) {
      unit.lastUpdated = change.timestamp;
      unit.lastUpdatedUs = change.timestampUs;
    }
  });
  bumpTranslationsOf(instance, units, false);
  return { unitIds: units.map((u) => u.id), changeIds: changes.map((c) => c.id) };
}

function bumpTranslationsOf(
  instance: SimInstance,
  units: readonly SimUnit[],
  hasTemplateChanged: boolean,
): void {
  for (const id of new Set(units.map((unit) => unit.translationId))) {
    const translation = instance.index.translationById.get(id);
    if (translation !== undefined) bumpRevision(instance, translation, hasTemplateChanged);
  }
}

export interface BulkEditResult {
  /** Units whose state changed (one action-32 change each). */
  unitIds: number[];
  /** Units left alone: empty, read-only, or already in that state. */
  skippedUnitIds: number[];
  changeIds: number[];
}

const BULK_STATES: ReadonlySet<number> = new Set([10, 11, 12, 20, 30]);

/**
 * Weblate's bulk edit (`weblate/trans/bulk.py`): the state is written with
 * `QuerySet.update()`, so `last_updated` does NOT move (weblate/trans/models/unit.py, the `last_changed`
 * caveat); one change with action 32 per unit names it. Like Weblate, empty and read-only
 * strings are skipped.
 */
export function bulkEditStates(
  context: MutationContext,
  unitIds: readonly number[],
  state: UnitState,
  options: { user?: string | null } = {},
): BulkEditResult {
  const { instance } = context;
  if (!BULK_STATES.has(state)) throw new Error(`bulk edit cannot set state ${state}`);
  const user = actingUser(instance, options.user);
  const units = uniqueUnits(instance, unitIds);
  const edited = units.filter((u) => u.state !== 0 && u.state !== 100 && u.state !== state);
  const drafts = edited.map((unit): ChangeDraft => ({
    ...translationScope(instance, requireTranslation(instance, unit.translationId)),
    action: 32,
    unitId: unit.id,
    user,
    author: user,
    target: unit.target.join(PLURAL_SEPARATOR),
    details: stateDetails(unit, unit.state, state),
  }));
  const changes = recordChanges(context, drafts);
  recordLogged(instance, changes, edited);
  for (const unit of edited) unit.state = state;
  bumpTranslationsOf(instance, edited, false);
  const isEdited = new Set(edited);
  return {
    unitIds: edited.map((u) => u.id),
    skippedUnitIds: units.filter((u) => !isEdited.has(u)).map((u) => u.id),
    changeIds: changes.map((c) => c.id),
  };
}

export interface DeleteUnitsResult {
  /** Every removed unit: the strings in all translations of their components. */
  unitIds: number[];
  /** Changes removed with them (cascade). */
  removedChangeIds: number[];
  /** The new action-63 changes, one per removed unit (the translation of the id given first). */
  changeIds: number[];
}

/** Units of the strings `keys` (source unit ids) in every translation of their components. */
function unitsOfStrings(instance: SimInstance, strings: ReadonlyMap<number, SimUnit>): SimUnit[] {
  const components = new Set<number>();
  for (const unit of strings.values()) {
    components.add(requireTranslation(instance, unit.translationId).componentId);
  }
  const found: SimUnit[] = [];
  for (const componentId of components) {
    for (const translation of instance.index.translationsByComponent.get(componentId) ?? []) {
      for (const unit of instance.index.unitsByTranslation.get(translation.id) ?? []) {
        if (strings.has(unit.sourceUnitId)) found.push(unit);
      }
    }
  }
  return found;
}

/**
 * The removed units in the order Weblate logs their removal: the translation of the id
 * given first, then the other translations, the source last (translation.py delete_unit).
 */
function removalOrder(
  instance: SimInstance,
  removed: readonly SimUnit[],
  given: ReadonlyMap<number, SimUnit>,
): SimUnit[] {
  const rank = (unit: SimUnit): number => {
    if (given.get(unit.sourceUnitId)?.translationId === unit.translationId) return 0;
    return requireTranslation(instance, unit.translationId).isSource ? 2 : 1;
  };
  return removed
    .map((unit) => ({ unit, rank: rank(unit) }))
    .sort((a, b) => a.unit.sourceUnitId - b.unit.sourceUnitId || a.rank - b.rank)
    .map(({ unit }) => unit);
}

/** Weblate's STRING_REMOVE (63): no unit (it is gone), no state, the text it had. */
function removalDraft(instance: SimInstance, unit: SimUnit, user: string | null): ChangeDraft {
  const target = unit.target.join(PLURAL_SEPARATOR);
  return {
    ...translationScope(instance, requireTranslation(instance, unit.translationId)),
    action: 63,
    user,
    author: user,
    target,
    details: { source: unit.source.join(PLURAL_SEPARATOR), target, context: unit.context },
  };
}

/**
 * Deletes strings: any unit id (source or translation) names its string, which goes from
 * every translation of the component, with every change of those units. Each removed unit
 * then gets one change with action 63 in its translation, not bound to a unit; the first is
 * in the translation of the id given.
 */
export function deleteUnits(
  context: MutationContext,
  unitIds: readonly number[],
  options: { user?: string | null } = {},
): DeleteUnitsResult {
  const { instance } = context;
  const user = actingUser(instance, options.user);
  const strings = new Map<number, SimUnit>();
  for (const unit of uniqueUnits(instance, unitIds)) {
    if (!strings.has(unit.sourceUnitId)) strings.set(unit.sourceUnitId, unit);
  }
  const removed = removalOrder(instance, unitsOfStrings(instance, strings), strings);
  const removedIds = new Set(removed.map((unit) => unit.id));
  const removedChangeIds = removeChanges(
    instance,
    (change) => change.unitId !== null && removedIds.has(change.unitId),
  );
  removeUnits(instance, removedIds);
  const changes = recordChanges(
    context,
    removed.map((unit) => removalDraft(instance, unit, user)),
  );
  recordMoves(
    instance,
    changes.map((change, i) => {
      const unit = removed[i] as SimUnit;
      return { ...loggedMove(change, unit), from: unit.state, to: NO_STRING };
    }),
  );
  bumpTranslationsOf(instance, removed, true);
  return {
    unitIds: [...removedIds].sort((a, b) => a - b),
    removedChangeIds,
    changeIds: changes.map((c) => c.id),
  };
}

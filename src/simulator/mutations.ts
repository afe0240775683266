/**
 * The instance changes as a real Weblate's would, between syncs or mid-walk; the rules every
 * operation keeps: docs/internals.md#simulated-mutations.
 */
import { ACTION_NAMES } from './actions.ts';
import type { SimChange, SimInstance } from './model.ts';
import type { UnitState } from './model.ts';
import {
  addComponent,
  type AddComponentOptions,
  type AddComponentResult,
  addLanguage,
  addProject,
  type AddProjectResult,
} from './mutate-additions.ts';
import {
  addTranslation,
  type AddTranslationResult,
  addUnits,
  type AddUnitsResult,
} from './mutate-catalog.ts';
import { deleteCategory, setUnitLabel } from './mutate-labels.ts';
import {
  deleteComponent,
  deleteProject,
  type DeleteResult,
  deleteTranslation,
} from './mutate-removals.ts';
import {
  renameTemplate,
  type SilentResult,
  type SilentUnitUpdate,
  updateUnitsSilently,
} from './mutate-silent.ts';
import {
  type BulkEditResult,
  bulkEditStates,
  deleteUnits,
  type DeleteUnitsResult,
  editUnits,
  type EditUnitsOptions,
  type EditUnitsResult,
  requireTranslation,
} from './mutate-units.ts';
import {
  actingUser,
  type ChangeDraft,
  type MutationContext,
  nextEdit,
  realNow,
  recordChanges,
  startSequences,
  translationScope,
} from './mutation-context.ts';
import { bumpRenderGeneration } from './render-cache.ts';
import { COMMENT_TEXTS } from './text-bank.ts';

export type {
  AddComponentOptions,
  AddComponentResult,
  AddProjectResult,
  AddTranslationResult,
  AddUnitsResult,
  BulkEditResult,
  DeleteResult,
  DeleteUnitsResult,
  EditUnitsOptions,
  EditUnitsResult,
  MutationContext,
  SilentResult,
  SilentUnitUpdate,
};
export {
  addComponent,
  addLanguage,
  addProject,
  addTranslation,
  addUnits,
  bulkEditStates,
  deleteCategory,
  deleteComponent,
  deleteProject,
  deleteTranslation,
  deleteUnits,
  editUnits,
  renameTemplate,
  setUnitLabel,
  updateUnitsSilently,
};

export interface AddChangesOptions {
  /** Stamp the changes this many seconds in the past: a transaction that committed late. */
  backdate?: number;
  /** Action code (default 3, "Comment added"). */
  action?: number;
  /** Acting user and author (default the first real user). */
  user?: string | null;
  /** The changes' details (default none), e.g. `{ alert: 'BrokenProjectURL' }` of an alert. */
  details?: Record<string, unknown>;
}

export interface AddChangesResult {
  changeIds: number[];
}

/**
 * Records `count` changes on a translation, each bound to one of its units in turn (none
 * if it has no units). They are records only: units stay as they are, except that a
 * comment (action 3) sets the unit's `has_comment`.
 */
export function addChanges(
  context: MutationContext,
  translationId: number,
  count: number,
  options: AddChangesOptions = {},
): AddChangesResult {
  const { instance } = context;
  const translation = requireTranslation(instance, translationId);
  const action = options.action ?? 3;
  if (!ACTION_NAMES.has(action)) throw new Error(`unknown action ${action}`);
  const user = actingUser(instance, options.user);
  const units = instance.index.unitsByTranslation.get(translation.id) ?? [];
  const drafts = Array.from({ length: count }, (): ChangeDraft => {
    const edit = nextEdit(instance);
    const unit = units.length === 0 ? undefined : units[edit % units.length];
    if (unit !== undefined && action === 3) unit.hasComment = true;
    return {
      ...translationScope(instance, translation),
      action,
      unitId: unit?.id ?? null,
      user,
      author: user,
      target: COMMENT_TEXTS[edit % COMMENT_TEXTS.length] ?? '',
      details: { ...options.details },
    };
  });
  const changes = recordChanges(context, drafts, options.backdate ?? 0);
  return { changeIds: changes.map((change) => change.id) };
}

/** The mutation API bound to one instance and clock (`sim.mutate`). */
export interface Mutator {
  editUnits(unitIds: readonly number[], options?: EditUnitsOptions): EditUnitsResult;
  bulkEditStates(
    unitIds: readonly number[],
    state: UnitState,
    options?: { user?: string | null },
  ): BulkEditResult;
  addUnits(componentId: number, count: number, options?: { user?: string | null }): AddUnitsResult;
  deleteUnits(unitIds: readonly number[], options?: { user?: string | null }): DeleteUnitsResult;
  addChanges(translationId: number, count: number, options?: AddChangesOptions): AddChangesResult;
  deleteTranslation(translationId: number, options?: { user?: string | null }): DeleteResult;
  deleteComponent(componentId: number, options?: { user?: string | null }): DeleteResult;
  deleteProject(projectId: number): DeleteResult;
  addTranslation(
    componentId: number,
    languageCode: string,
    options?: { user?: string | null },
  ): AddTranslationResult;
  addProject(slug: string, options?: { name?: string; user?: string | null }): AddProjectResult;
  addLanguage(code: string, options?: { name?: string }): { languageId: number };
  addComponent(projectId: number, slug: string, options?: AddComponentOptions): AddComponentResult;
  /** Values set without a trace (QuerySet.update()): no change, `last_changed` kept. */
  updateUnitsSilently(updates: ReadonlyMap<number, SilentUnitUpdate>): SilentResult;
  /** A monolingual component's template renamed: its fuzzy strings silently become translated. */
  renameTemplate(componentId: number, template: string): SilentResult;
  /** A label added to (`isAdded`) or removed from a unit, logged on it (actions 86, 87). */
  setUnitLabel(unitId: number, labelId: number, isAdded: boolean): { changeIds: number[] };
  /** A category removed with the categories inside it, logged on its project (action 67). */
  deleteCategory(categoryId: number): {
    categoryIds: number[];
    componentIds: number[];
    changeIds: number[];
  };
}

/**
 * Binds every mutation to `instance`; `now` is epoch milliseconds (default real time);
 * `onChanges` hears the changes each mutation records.
 */
export function createMutator(
  instance: SimInstance,
  now: () => number = realNow,
  onChanges?: (changes: readonly SimChange[]) => void,
): Mutator {
  const context: MutationContext = { instance, now, onChanges };
  startSequences(instance);
  return bumpingAfterEach(instance, {
    editUnits: (unitIds, options) => editUnits(context, unitIds, options),
    bulkEditStates: (unitIds, state, options) => bulkEditStates(context, unitIds, state, options),
    addUnits: (componentId, count, options) => addUnits(context, componentId, count, options),
    deleteUnits: (unitIds, options) => deleteUnits(context, unitIds, options),
    addChanges: (translationId, count, options) =>
      addChanges(context, translationId, count, options),
    deleteTranslation: (id, options) => deleteTranslation(context, id, options),
    deleteComponent: (id, options) => deleteComponent(context, id, options),
    deleteProject: (id) => deleteProject(context, id),
    addTranslation: (componentId, code, options) =>
      addTranslation(context, componentId, code, options),
    addProject: (slug, options) => addProject(context, slug, options),
    addLanguage: (code, options) => addLanguage(context, code, options),
    addComponent: (projectId, slug, options) => addComponent(context, projectId, slug, options),
    updateUnitsSilently: (updates) => updateUnitsSilently(context, updates),
    renameTemplate: (componentId, template) => renameTemplate(context, componentId, template),
    setUnitLabel: (unitId, labelId, isAdded) => setUnitLabel(context, unitId, labelId, isAdded),
    deleteCategory: (categoryId) => deleteCategory(context, categoryId),
  });
}

/** Every mutation invalidates cached renderings, also those that touch no index. */
function bumpingAfterEach(instance: SimInstance, mutator: Mutator): Mutator {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(mutator) as Array<
    [string, (...args: unknown[]) => unknown]
  >) {
    wrapped[name] = (...args: unknown[]) => {
      try {
        return method(...args);
      } finally {
        bumpRenderGeneration(instance);
      }
    };
  }
  return wrapped as unknown as Mutator;
}

/**
 * Mutations that add strings and translations. New units get ids above every unit id ever
 * handed out, in blocks per translation (source first) as the generator lays them out.
 */
import { PLURAL_SEPARATOR } from './generate-units.ts';
import { loggedMove, NO_STRING, recordMoves, stateDetails } from './history.ts';
import { appendUnits } from './index-updates.ts';
import type { SimComponent, SimInstance, SimTranslation, SimUnit } from './model.ts';
import { requireTranslation } from './mutate-units.ts';
import {
  actingUser,
  bumpRevision,
  type ChangeDraft,
  type MutationContext,
  nextId,
  recordChanges,
  type Stamp,
  stamp,
  translationScope,
} from './mutation-context.ts';
import { calculateHash } from './siphash.ts';
import { countChars, countWords } from './text-bank.ts';

/** What every translation's unit of one string shares (see generate-units.ts). */
type SourceString = Pick<
  SimUnit,
  | 'source'
  | 'context'
  | 'location'
  | 'note'
  | 'flags'
  | 'explanation'
  | 'idHash'
  | 'contentHash'
  | 'numWords'
  | 'numChars'
>;

export function requireComponent(instance: SimInstance, id: number): SimComponent {
  const component = instance.index.componentById.get(id);
  if (component === undefined) throw new Error(`unknown component ${id}`);
  return component;
}

function sourceTranslationOf(instance: SimInstance, component: SimComponent): SimTranslation {
  const translations = instance.index.translationsByComponent.get(component.id) ?? [];
  const source = translations.find((translation) => translation.isSource);
  if (source === undefined) throw new Error(`component ${component.id} has no source translation`);
  return source;
}

/** A new string; `key` (its source unit id) keeps sources and keys distinct. */
function makeString(component: SimComponent, key: number): SourceString {
  const isBilingual = component.template === '';
  const source = [`New string ${key}`];
  const separator = component.fileFormat === 'aresource' ? '_' : '.';
  const context = isBilingual ? '' : ['added', 'string', String(key)].join(separator);
  const joined = source.join(PLURAL_SEPARATOR);
  const contentHash = calculateHash(joined, context);
  return {
    source,
    context,
    location: component.fileFormat === 'json' ? context : '',
    note: '',
    flags: '',
    explanation: '',
    // weblate/utils/hash.py and Unit.update_from_unit: bilingual formats hash source+context, monolingual ones the key only.
    idHash: isBilingual ? contentHash : calculateHash(context),
    contentHash,
    numWords: countWords(source[0] ?? ''),
    numChars: countChars(joined),
  };
}

interface UnitPlacement {
  id: number;
  translation: SimTranslation;
  position: number;
  sourceUnitId: number;
  when: Stamp;
}

/** A source unit (read-only, target = source) or an empty target unit of a string. */
function unitOf(instance: SimInstance, string: SourceString, place: UnitPlacement): SimUnit {
  const { isSource } = place.translation;
  const language = instance.index.languageById.get(place.translation.languageId);
  const forms = string.source.length > 1 ? (language?.plural.number ?? 1) : 1;
  return {
    source: string.source,
    context: string.context,
    location: string.location,
    note: string.note,
    flags: string.flags,
    idHash: string.idHash,
    contentHash: string.contentHash,
    numWords: string.numWords,
    numChars: string.numChars,
    id: place.id,
    translationId: place.translation.id,
    previousSource: '',
    target: isSource ? [...string.source] : Array<string>(forms).fill(''),
    explanation: isSource ? string.explanation : '',
    extraFlags: '',
    state: isSource ? 100 : 0,
    position: place.position,
    hasSuggestion: false,
    hasComment: false,
    hasFailingCheck: false,
    sourceUnitId: place.sourceUnitId,
    priority: 100,
    pending: false,
    timestamp: place.when.text,
    lastUpdated: place.when.text,
    lastUpdatedUs: place.when.us,
  };
}

/** Empty units of `translation` for the given source units, with new ids. */
function translatedUnits(
  instance: SimInstance,
  translation: SimTranslation,
  sourceUnits: readonly SimUnit[],
  when: Stamp,
): SimUnit[] {
  return sourceUnits.map((sourceUnit) =>
    unitOf(instance, sourceUnit, {
      id: nextId(instance, 'unit'),
      translation,
      position: sourceUnit.position,
      sourceUnitId: sourceUnit.id,
      when,
    }),
  );
}

export interface AddUnitsResult {
  /** The new strings' units in the source translation. */
  sourceUnitIds: number[];
  /** Every new unit, ascending. */
  unitIds: number[];
  changeIds: number[];
}

/**
 * Adds `count` source strings to a component: a read-only unit in the source translation
 * and an empty one in every other translation, positioned after the last string.
 * Changes: action 13 "Source string added" for each source unit and action 31 "String
 * added" for each new unit of a target translation, each bound to its unit.
 */
export function addUnits(
  context: MutationContext,
  componentId: number,
  count: number,
  options: { user?: string | null } = {},
): AddUnitsResult {
  const { instance } = context;
  const component = requireComponent(instance, componentId);
  const user = actingUser(instance, options.user);
  const source = sourceTranslationOf(instance, component);
  const targets = (instance.index.translationsByComponent.get(component.id) ?? [])
    .filter((translation) => !translation.isSource)
    .sort((a, b) => a.id - b.id);
  const lastPosition = Math.max(
    0,
    ...(instance.index.unitsByTranslation.get(source.id) ?? []).map((u) => u.position),
  );
  const when = stamp(context, component.id);
  const sourceUnits = Array.from({ length: count }, (_, i): SimUnit => {
    const id = nextId(instance, 'unit');
    const place = { id, translation: source, position: lastPosition + i + 1, sourceUnitId: id };
    return unitOf(instance, makeString(component, id), { ...place, when });
  });
  const targetUnits = targets.flatMap((t) => translatedUnits(instance, t, sourceUnits, when));
  const units = [...sourceUnits, ...targetUnits];
  appendUnits(instance, units);
  const drafts = units.map((unit): ChangeDraft => ({
    ...translationScope(instance, requireTranslation(instance, unit.translationId)),
    action: unit.state === 100 ? 13 : 31,
    unitId: unit.id,
    user,
    author: user,
    target: unit.source.join(PLURAL_SEPARATOR),
    // A unit is created in its state: Weblate logs old_state == state (translation.py add_unit).
    details: stateDetails(unit, unit.state, unit.state),
  }));
  const changes = recordChanges(context, drafts);
  recordMoves(
    instance,
    changes.map((change, i) => loggedMove(change, units[i] as SimUnit)),
  );
  for (const translation of [source, ...targets]) bumpRevision(instance, translation, true);
  return {
    sourceUnitIds: sourceUnits.map((u) => u.id),
    unitIds: units.map((u) => u.id),
    changeIds: changes.map((c) => c.id),
  };
}

export interface AddTranslationResult {
  translationId: number;
  unitIds: number[];
  changeIds: number[];
}

function registerTranslation(instance: SimInstance, translation: SimTranslation): void {
  const { index } = instance;
  const component = requireComponent(instance, translation.componentId);
  const project = index.projectById.get(component.projectId);
  const language = index.languageById.get(translation.languageId);
  instance.translations.push(translation);
  index.translationById.set(translation.id, translation);
  index.translationByPath.set(`${project?.slug}/${component.slug}/${language?.code}`, translation);
  const push = (map: Map<number, SimTranslation[]>, key: number): void => {
    map.set(key, [...(map.get(key) ?? []), translation]);
  };
  push(index.translationsByComponent, translation.componentId);
  push(index.translationsByLanguage, translation.languageId);
}

/** A new, registered target translation of `component` into `languageCode`. */
function createTranslation(
  instance: SimInstance,
  component: SimComponent,
  languageCode: string,
): SimTranslation {
  const language = instance.index.languageByCode.get(languageCode);
  if (language === undefined) throw new Error(`unknown language "${languageCode}"`);
  const existing = instance.index.translationsByComponent.get(component.id) ?? [];
  if (existing.some((t) => t.languageId === language.id)) {
    throw new Error(`component ${component.id} already has a "${languageCode}" translation`);
  }
  const translation: SimTranslation = {
    id: nextId(instance, 'translation'),
    componentId: component.id,
    languageId: language.id,
    isSource: false,
    isTemplate: false,
    filename: component.filemask.replace('*', language.code),
    // Monolingual translations keep "file,template" revisions; bumpRevision fills both.
    revision: component.template === '' ? '' : ',',
  };
  bumpRevision(instance, translation, true);
  registerTranslation(instance, translation);
  return translation;
}

/**
 * Adds a translation of a component into a language (as Weblate's "Start new translation"):
 * an empty unit for every source string, and a change with action 48 "Language added".
 */
export function addTranslation(
  context: MutationContext,
  componentId: number,
  languageCode: string,
  options: { user?: string | null } = {},
): AddTranslationResult {
  const { instance } = context;
  const component = requireComponent(instance, componentId);
  const user = actingUser(instance, options.user);
  const source = sourceTranslationOf(instance, component);
  const translation = createTranslation(instance, component, languageCode);
  const sourceUnits = instance.index.unitsByTranslation.get(source.id) ?? [];
  const when = stamp(context, translation.id);
  const units = translatedUnits(instance, translation, sourceUnits, when);
  appendUnits(instance, units);
  // Logged by Weblate only as the translation-level changes (48, and 0 "new file").
  recordMoves(
    instance,
    units.map((unit) => ({
      us: when.us,
      unitId: unit.id,
      translationId: unit.translationId,
      words: unit.numWords,
      from: NO_STRING,
      to: unit.state,
      changeId: null,
    })),
  );
  const draft: ChangeDraft = {
    ...translationScope(instance, translation),
    action: 48,
    user,
    author: user,
    target: instance.index.languageById.get(translation.languageId)?.name ?? languageCode,
  };
  const changes = recordChanges(context, [draft]);
  return {
    translationId: translation.id,
    unitIds: units.map((u) => u.id),
    changeIds: changes.map((c) => c.id),
  };
}

import { TIMELINE_START_US } from './clock.ts';
import {
  buildComponents,
  buildLanguages,
  buildProjects,
  buildTranslation,
  pickComponentLanguages,
} from './generate-catalog.ts';
import { type ChangeWorld, generateChanges } from './generate-changes.ts';
import { addCategoriesAndLabels } from './generate-labels.ts';
import { buildTranslationUnits, makeSourceStrings, pickCompleteness } from './generate-units.ts';
import { buildUsers } from './generate-users.ts';
import { buildIndex } from './indexes.ts';
import type { LanguageSeed } from './languages.ts';
import type {
  SimComponent,
  SimInstance,
  SimLanguage,
  SimProject,
  SimTranslation,
  SimUnit,
} from './model.ts';
import { createRng, type Rng } from './prng.ts';
import type { SimulatorSize } from './size.ts';
import { MICROS_PER_DAY, MICROS_PER_SECOND } from './time.ts';
import { layUnitIds, type UnitIdLayout } from './unit-ids.ts';

function normalizeSize(size: SimulatorSize): SimulatorSize {
  const whole = (value: number, min: number): number => Math.max(min, Math.floor(value));
  const projects = whole(size.projects, 1);
  return {
    projects,
    components: whole(size.components, projects),
    languages: whole(size.languages, 1),
    units: whole(size.units, 0),
    changes: whole(size.changes, 0),
    users: whole(size.users, 0),
  };
}

/**
 * Strings per component so that the units over all translations add up to about `total`:
 * components get random weights, and a component with t translations costs t units per string.
 */
function planStringCounts(rng: Rng, translationCounts: readonly number[], total: number): number[] {
  const weights = translationCounts.map(() => 0.5 + rng.next());
  const cost = weights.reduce((sum, w, i) => sum + w * (translationCounts[i] ?? 1), 0);
  return weights.map((w) => Math.max(1, Math.round((w * total) / cost)));
}

interface CatalogResult {
  translations: SimTranslation[];
  units: SimUnit[];
  /** Components that gain and lose strings during the timeline. */
  growing: SimComponent[];
  /** The component of each string removed during the timeline, in order. */
  removals: number[];
}

/** Share of strings removed during the timeline: as many extra strings are made, so sizes hold. */
const REMOVED_SHARE = 0.004;

/**
 * Every other component gains and loses strings during the timeline (the others keep theirs,
 * so that some source translations never change); picks the removals among them and adds
 * one extra string to the component of each.
 */
function planRemovals(
  rng: Rng,
  components: readonly SimComponent[],
  counts: number[],
): Pick<CatalogResult, 'growing' | 'removals'> {
  const growing = components.filter((_, c) => c % 2 === 0);
  const total = counts.reduce((sum, count) => sum + count, 0);
  const removals: number[] = [];
  for (let k = 0; k < Math.round(total * REMOVED_SHARE); k += 1) {
    const c = 2 * rng.int(0, growing.length - 1);
    counts[c] = (counts[c] ?? 0) + 1;
    removals.push((components[c] as SimComponent).id);
  }
  return { growing, removals };
}

interface CatalogInput {
  rng: Rng;
  size: SimulatorSize;
  projects: readonly SimProject[];
  components: readonly SimComponent[];
  languages: readonly SimLanguage[];
  seeds: ReadonlyMap<number, LanguageSeed>;
  /** Epoch microseconds at which the change history starts. */
  timelineStartUs: number;
}

interface ComponentPlan {
  component: SimComponent;
  languages: readonly SimLanguage[];
  stringCount: number;
}

/** One component's translations (source first, then targets) and their units. */
function buildComponentCatalog(
  input: CatalogInput,
  plan: ComponentPlan,
  result: CatalogResult,
  nextUnitId: { value: number },
): void {
  const { rng, seeds } = input;
  const { component } = plan;
  const project = input.projects.find((p) => p.id === component.projectId);
  const strings = makeSourceStrings(rng, component, plan.stringCount);
  const createdUs = input.timelineStartUs - rng.int(30, 400) * MICROS_PER_DAY;
  let sourceUnitIds: number[] = [];
  for (const [t, language] of plan.languages.entries()) {
    const translation = buildTranslation(rng, result.translations.length + 1, component, language);
    result.translations.push(translation);
    const unitPlan = {
      translation,
      language,
      script: seeds.get(language.id)?.script ?? 'latin',
      strings,
      sourceUnitIds,
      completeness: pickCompleteness(rng),
      hasReview: project?.translationReview ?? false,
      createdUs: createdUs + t * rng.int(60, 3600) * MICROS_PER_SECOND,
    };
    const units = buildTranslationUnits(rng, unitPlan, nextUnitId);
    if (translation.isSource) sourceUnitIds = units.map((u) => u.id);
    for (const unit of units) result.units.push(unit);
  }
}

/** Translations and units of every component, unit ids ascending across the instance. */
function buildTranslationsAndUnits(input: CatalogInput): CatalogResult {
  const { rng, size, components, languages } = input;
  const source = languages[0] as SimLanguage;
  const targets = languages.slice(1, 1 + size.languages);
  const perComponent = components.map(() => [source, ...pickComponentLanguages(rng, targets)]);
  const counts = planStringCounts(
    rng,
    perComponent.map((l) => l.length),
    size.units,
  );
  const result: CatalogResult = {
    translations: [],
    units: [],
    ...planRemovals(rng, components, counts),
  };
  const nextUnitId = { value: 1 };
  for (const [c, component] of components.entries()) {
    const plan = { component, languages: perComponent[c] ?? [], stringCount: counts[c] ?? 1 };
    buildComponentCatalog(input, plan, result, nextUnitId);
  }
  return result;
}

function changeWorld(
  input: CatalogInput,
  catalog: CatalogResult,
  usernames: string[],
): ChangeWorld {
  const unitsByTranslation = new Map<number, SimUnit[]>();
  for (const unit of catalog.units) {
    const list = unitsByTranslation.get(unit.translationId);
    if (list === undefined) unitsByTranslation.set(unit.translationId, [unit]);
    else list.push(unit);
  }
  const translationsByComponent = new Map<number, SimTranslation[]>();
  for (const translation of catalog.translations) {
    const list = translationsByComponent.get(translation.componentId) ?? [];
    list.push(translation);
    translationsByComponent.set(translation.componentId, list);
  }
  return {
    components: input.components,
    translations: catalog.translations,
    targetTranslations: catalog.translations.filter((t) => !t.isSource),
    translationsByComponent,
    unitsByTranslation,
    scriptByTranslation: new Map(
      catalog.translations.map((t) => [t.id, input.seeds.get(t.languageId)?.script ?? 'latin']),
    ),
    projectOfComponent: new Map(input.components.map((c) => [c.id, c.projectId])),
    usernames,
    reviewingProjects: new Set(input.projects.filter((p) => p.translationReview).map((p) => p.id)),
    bilingualComponents: new Set(
      input.components.filter((c) => c.template === '').map((c) => c.id),
    ),
    maxUnitId: catalog.units[catalog.units.length - 1]?.id ?? 0,
    growingComponents: catalog.growing,
    removals: catalog.removals,
  };
}

/**
 * Takes the strings removed during the timeline out of the units, and renumbers the
 * positions after them as Weblate does (`position=F("position") - 1`).
 */
function dropRemovedUnits(units: SimUnit[], removed: ReadonlySet<number>): SimUnit[] {
  if (removed.size === 0) return units;
  const kept = units.filter((unit) => !removed.has(unit.id));
  const positions = new Map<number, number>();
  for (const unit of kept) {
    const position = (positions.get(unit.translationId) ?? 0) + 1;
    positions.set(unit.translationId, position);
    unit.position = position;
  }
  return kept;
}

/**
 * Generates a complete instance, deterministic for a seed. `projects`, `components` (at
 * least one per project), `languages` (target languages; English is the source language
 * of every component), `changes` and `users` (besides `anonymous`) are exact; `units`
 * (over all translations, source translations included) is met within a few percent.
 */
export function generateInstance(
  options: SimulatorSize & {
    seed: number;
    /** Epoch microseconds at which the change history starts (default 2024-01-01). */
    timelineStartUs?: number;
    /** Generate categories and labels, and labels on some source units (default none). */
    categoriesAndLabels?: boolean;
    /** How unit ids are laid out (unit-ids.ts); default `dense`. */
    unitIds?: UnitIdLayout;
  },
): SimInstance {
  const timelineStartUs = options.timelineStartUs ?? TIMELINE_START_US;
  const size = normalizeSize(options);
  const rng = createRng(options.seed);
  const { languages, seeds } = buildLanguages(size.languages);
  const projects = buildProjects(size.projects);
  const components = buildComponents(rng, projects, size.components);
  const input: CatalogInput = {
    rng,
    size,
    projects,
    components,
    languages,
    seeds,
    timelineStartUs,
  };
  const catalog = buildTranslationsAndUnits(input);
  const users = buildUsers(rng, size.users, { projects, components });
  const usernames = users.filter((u) => u.username !== 'anonymous').map((u) => u.username);
  const world = changeWorld(input, catalog, usernames);
  const { changes, moves, removedUnitIds } = generateChanges(
    rng,
    world,
    size.changes,
    timelineStartUs,
  );
  const units = dropRemovedUnits(catalog.units, removedUnitIds);
  layUnitIds(options.unitIds ?? 'dense', options.seed, { units, changes, moves });
  const history = { startUs: timelineStartUs, moves };
  const data = {
    seed: options.seed,
    languages,
    projects,
    components,
    translations: catalog.translations,
    units,
    changes,
    users,
    categories: [],
    labels: [],
    history,
  };
  if (options.categoriesAndLabels === true) addCategoriesAndLabels(data);
  return { ...data, index: buildIndex(data) };
}

/**
 * The instance generateInstance makes for these options, moved in time so that its newest
 * change is at `endUs` (epoch microseconds): everything else is identical, because the
 * history only ever counts forward from its start. For a demo whose history is recent.
 */
export function generateInstanceEndingAt(
  options: SimulatorSize & { seed: number; categoriesAndLabels?: boolean; unitIds?: UnitIdLayout },
  endUs: number,
): SimInstance {
  const probe = generateInstance(options);
  const newest = probe.changes.reduce((max, c) => Math.max(max, c.timestampUs), TIMELINE_START_US);
  return generateInstance({ ...options, timelineStartUs: TIMELINE_START_US + (endUs - newest) });
}

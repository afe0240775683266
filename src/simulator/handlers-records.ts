import { isFilterEmpty, matchesChange, parseChangeFilter } from './change-filter.ts';
import { findProject, type Handler, sortedById } from './handlers-catalog.ts';
import type { SimChange, SimInstance, SimTranslation, SimUnit } from './model.ts';
import {
  arraySelection,
  filteredSelection,
  LARGE_PAGINATION,
  lowerBoundById,
  paginate,
  paginateText,
  type Pagination,
  type Selection,
  STANDARD_PAGINATION,
} from './pagination.ts';
import {
  renderChange,
  renderLanguageStatistics,
  renderProjectStatistics,
  renderTranslationStatistics,
  renderUnit,
} from './render.ts';
import { changeText, unitText } from './render-cache.ts';
import { notFound, ok, type SimRequest, type SimResponse, validationError } from './responses.ts';
import { unitMatcher } from './unit-match.ts';
import { hasScope, parseUnitQuery, type UnitQuery } from './unit-query.ts';
import { linkBaseOf } from './urls.ts';

function findTranslation(
  instance: SimInstance,
  params: readonly string[],
): SimTranslation | undefined {
  return instance.index.translationByPath.get(params.slice(0, 3).join('/'));
}

/** Translations the query's project/component/language terms allow, or null for all. */
function allowedTranslations(instance: SimInstance, query: UnitQuery): Set<number> | null {
  if (!hasScope(query)) return null;
  const { index } = instance;
  const allowed = new Set<number>();
  for (const translation of instance.translations) {
    const component = index.componentById.get(translation.componentId);
    const project = index.projectById.get(component?.projectId ?? 0);
    const language = index.languageById.get(translation.languageId);
    const matches = (wanted: string[], actual: string | undefined): boolean =>
      wanted.every((value) => value === actual?.toLowerCase());
    if (
      matches(query.projects, project?.slug) &&
      matches(query.components, component?.slug) &&
      matches(query.languages, language?.code)
    ) {
      allowed.add(translation.id);
    }
  }
  return allowed;
}

/**
 * Narrows an id-ascending list by the id bounds (binary search), then filters the rest:
 * by the bounds and scopes alone for a plain conjunction, else by the whole expression.
 */
function unitSelection(
  instance: SimInstance,
  units: readonly SimUnit[],
  query: UnitQuery,
): Selection<SimUnit> {
  const start = query.idMin === -Infinity ? 0 : lowerBoundById(units, query.idMin);
  const end = query.idMax === Infinity ? units.length : lowerBoundById(units, query.idMax + 1);
  if (!query.isConjunction) {
    return filteredSelection(units, { start, end }, unitMatcher(instance, query.expression));
  }
  const allowed = allowedTranslations(instance, query);
  const isTimeBounded = query.changedMin !== -Infinity || query.changedMax !== Infinity;
  if (allowed === null && !isTimeBounded) return arraySelection(units, start, Math.max(start, end));
  return filteredSelection(units, { start, end }, (unit) => {
    if (unit.lastUpdatedUs < query.changedMin || unit.lastUpdatedUs > query.changedMax)
      return false;
    return allowed === null || allowed.has(unit.translationId);
  });
}

function listUnitsOf(
  instance: SimInstance,
  request: SimRequest,
  units: readonly SimUnit[],
  pagination: Pagination,
): SimResponse {
  const parsed = parseUnitQuery(request.url.searchParams.get('q'));
  if ('error' in parsed) {
    const detail = `Could not parse query string: ${parsed.error}`;
    return validationError([{ attr: 'q', code: 'invalid', detail }]);
  }
  return paginateText(
    request,
    pagination,
    unitSelection(instance, units, parsed.query),
    (unit) => unitText(instance, linkBaseOf(request), unit),
    'units',
  );
}

export const listTranslationUnits: Handler = (instance, request, params) => {
  const translation = findTranslation(instance, params);
  if (!translation) return notFound();
  const units = instance.index.unitsByTranslation.get(translation.id) ?? [];
  return listUnitsOf(instance, request, units, STANDARD_PAGINATION);
};

export const listUnits: Handler = (instance, request) =>
  listUnitsOf(instance, request, instance.units, LARGE_PAGINATION);

export const getUnit: Handler = (instance, request, [id]) => {
  const unit = /^\d+$/.test(id ?? '') ? instance.index.unitById.get(Number(id)) : undefined;
  return unit ? ok(renderUnit(instance, linkBaseOf(request), unit)) : notFound();
};

/** Changes newest first, filtered by Weblate's ChangeFilter. */
function listChangesOf(
  instance: SimInstance,
  request: SimRequest,
  changes: readonly SimChange[],
): SimResponse {
  const parsed = parseChangeFilter(request.url);
  if ('errors' in parsed) return validationError(parsed.errors);
  const { filter } = parsed;
  const selection = isFilterEmpty(filter)
    ? arraySelection(changes)
    : filteredSelection(changes, { start: 0, end: changes.length }, (change) =>
        matchesChange(filter, change),
      );
  return paginateText(
    request,
    STANDARD_PAGINATION,
    selection,
    (change) => changeText(instance, linkBaseOf(request), change),
    'records',
  );
}

export const listChanges: Handler = (instance, request) =>
  listChangesOf(instance, request, instance.index.changesNewestFirst);

export const listProjectChanges: Handler = (instance, request, [slug]) => {
  const project = findProject(instance, slug);
  if (!project) return notFound();
  return listChangesOf(instance, request, instance.index.changesByProject.get(project.id) ?? []);
};

export const listComponentChanges: Handler = (instance, request, [project, slug]) => {
  const component = instance.index.componentByPath.get(`${project}/${slug}`);
  if (!component) return notFound();
  return listChangesOf(
    instance,
    request,
    instance.index.changesByComponent.get(component.id) ?? [],
  );
};

export const listTranslationChanges: Handler = (instance, request, params) => {
  const translation = findTranslation(instance, params);
  if (!translation) return notFound();
  return listChangesOf(
    instance,
    request,
    instance.index.changesByTranslation.get(translation.id) ?? [],
  );
};

export const getChange: Handler = (instance, request, [id]) => {
  const change = /^\d+$/.test(id ?? '') ? instance.index.changeById.get(Number(id)) : undefined;
  return change ? ok(renderChange(instance, linkBaseOf(request), change)) : notFound();
};

export const translationStatistics: Handler = (instance, request, params) => {
  const translation = findTranslation(instance, params);
  return translation
    ? ok(renderTranslationStatistics(instance, linkBaseOf(request), translation))
    : notFound();
};

/** One row per translation, LargePagination (weblate/api/pagination.py, weblate/api/views.py). */
export const componentStatistics: Handler = (instance, request, [project, slug]) => {
  const component = instance.index.componentByPath.get(`${project}/${slug}`);
  if (!component) return notFound();
  const translations = sortedById(instance.index.translationsByComponent.get(component.id) ?? []);
  return paginate(request, LARGE_PAGINATION, arraySelection(translations), (translation) =>
    renderTranslationStatistics(instance, linkBaseOf(request), translation),
  );
};

export const projectStatistics: Handler = (instance, request, [slug]) => {
  const project = findProject(instance, slug);
  return project ? ok(renderProjectStatistics(instance, linkBaseOf(request), project)) : notFound();
};

export const languageStatistics: Handler = (instance, request, [code]) => {
  const language = instance.index.languageByCode.get(code ?? '');
  return language
    ? ok(renderLanguageStatistics(instance, linkBaseOf(request), language))
    : notFound();
};

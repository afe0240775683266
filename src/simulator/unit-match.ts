import type { SimInstance, SimUnit } from './model.ts';
import type { UnitQueryNode, UnitTerm } from './unit-query.ts';

interface TranslationScope {
  project: string;
  component: string;
  language: string;
}

/** Lower-case slugs and code of every translation, computed once per request. */
function scopesOf(instance: SimInstance): Map<number, TranslationScope> {
  const { index } = instance;
  const scopes = new Map<number, TranslationScope>();
  for (const translation of instance.translations) {
    const component = index.componentById.get(translation.componentId);
    const project = index.projectById.get(component?.projectId ?? 0);
    const language = index.languageById.get(translation.languageId);
    scopes.set(translation.id, {
      project: project?.slug.toLowerCase() ?? '',
      component: component?.slug.toLowerCase() ?? '',
      language: language?.code.toLowerCase() ?? '',
    });
  }
  return scopes;
}

function matchesTerm(
  term: UnitTerm,
  unit: SimUnit,
  scopes: ReadonlyMap<number, TranslationScope>,
): boolean {
  switch (term.field) {
    case 'id':
      return unit.id >= term.min && unit.id <= term.max;
    case 'id-set':
      return term.ids.has(unit.id);
    case 'last_changed':
      return unit.lastUpdatedUs >= term.min && unit.lastUpdatedUs <= term.max;
    case 'project':
    case 'component':
    case 'language':
      return scopes.get(unit.translationId)?.[term.field] === term.value;
  }
}

function evaluate(
  node: UnitQueryNode,
  unit: SimUnit,
  scopes: ReadonlyMap<number, TranslationScope>,
): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((child) => evaluate(child, unit, scopes));
    case 'or':
      return node.children.some((child) => evaluate(child, unit, scopes));
    case 'not':
      return !evaluate(node.child, unit, scopes);
    case 'term':
      return matchesTerm(node.term, unit, scopes);
  }
}

/** A predicate for the whole expression of a unit query (null matches everything). */
export function unitMatcher(
  instance: SimInstance,
  expression: UnitQueryNode | null,
): (unit: SimUnit) => boolean {
  if (expression === null) return () => true;
  const scopes = scopesOf(instance);
  return (unit) => evaluate(expression, unit, scopes);
}

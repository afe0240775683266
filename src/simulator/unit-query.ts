import { parseExpression, type QueryNode } from './query-syntax.ts';
import { isDateOnly, MICROS_PER_DAY, parseInstant } from './time.ts';

/**
 * The subset of Weblate's search language (`weblate/utils/search.py`) a mirror uses on unit
 * lists: `id:` with `>`, `>=`, `<`, `<=`, an exact value or a set (`id:1,2,3`);
 * `last_changed:` with the same operators (value optionally quoted); the scoping fields
 * `project:`, `component:`, `language:`; combined with `AND`, `OR`, `NOT`, parentheses and
 * juxtaposition (query-syntax.ts). Anything else is rejected the way Weblate rejects
 * unparsable queries (400, attr "q").
 */
export type UnitTerm =
  | { field: 'id'; min: number; max: number }
  | { field: 'id-set'; ids: ReadonlySet<number> }
  | { field: 'last_changed'; min: number; max: number }
  | { field: 'project' | 'component' | 'language'; value: string };

export type UnitQueryNode = QueryNode<UnitTerm>;

export interface UnitQuery {
  /**
   * Inclusive bounds every matching unit lies within (for OR, the hull of the branches;
   * NOT bounds nothing), so a list can be narrowed by binary search before filtering.
   */
  idMin: number;
  idMax: number;
  /** Inclusive bounds on `last_updated`, in microseconds, in the same sense. */
  changedMin: number;
  changedMax: number;
  /** Scoping values every match must have (terms of the top-level AND only), lower case. */
  projects: string[];
  components: string[];
  languages: string[];
  /** The whole query; null when it is empty. */
  expression: UnitQueryNode | null;
  /** True when the fields above say everything: ranges and scopes joined by AND only. */
  isConjunction: boolean;
}

export type UnitQueryResult = { query: UnitQuery } | { error: string };

const TERM = /^([a-z_]+):(>=|<=|>|<)?(.+)$/i;

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

function readIdTerm(operator: string, value: string): { term: UnitTerm } | { error: string } {
  if (operator === '' && value.includes(',')) {
    const parts = value.split(',');
    const bad = parts.find((part) => !/^\d+$/.test(part));
    if (bad !== undefined) return { error: `Invalid number "${bad}"` };
    return { term: { field: 'id-set', ids: new Set(parts.map(Number)) } };
  }
  if (!/^\d+$/.test(value)) return { error: `Invalid number "${value}"` };
  const id = Number(value);
  const min = operator === '>' ? id + 1 : operator.startsWith('<') ? -Infinity : id;
  const max = operator === '<' ? id - 1 : operator.startsWith('>') ? Infinity : id;
  return { term: { field: 'id', min, max } };
}

/** A date alone covers that whole day (as Weblate's search does); a timestamp is exact. */
function readChangedTerm(operator: string, value: string): { term: UnitTerm } | { error: string } {
  const start = parseInstant(value);
  if (start === null) return { error: `Invalid timestamp "${value}"` };
  const end = isDateOnly(value) ? start + MICROS_PER_DAY - 1 : start;
  const bounds: Record<string, [number, number]> = {
    '>': [end + 1, Infinity],
    '>=': [start, Infinity],
    '<': [-Infinity, start - 1],
    '<=': [-Infinity, end],
    '': [start, end],
  };
  const [min, max] = bounds[operator] ?? [start, end];
  return { term: { field: 'last_changed', min, max } };
}

export function readUnitTerm(token: string): { term: UnitTerm } | { error: string } {
  const match = TERM.exec(token);
  if (match === null) return { error: `Unsupported term "${token}"` };
  const field = (match[1] ?? '').toLowerCase();
  const operator = match[2] ?? '';
  const value = unquote(match[3] ?? '');
  if (field === 'id') return readIdTerm(operator, value);
  if (field === 'last_changed') return readChangedTerm(operator, value);
  if ((field === 'project' || field === 'component' || field === 'language') && operator === '') {
    return { term: { field, value: value.toLowerCase() } };
  }
  return { error: `Unsupported term "${token}"` };
}

interface Range {
  min: number;
  max: number;
}

const UNBOUNDED: Range = { min: -Infinity, max: Infinity };

/** The hull of the values of `field` a match can have. */
function rangeOf(node: UnitQueryNode, field: 'id' | 'last_changed'): Range {
  switch (node.kind) {
    case 'and':
      return node.children.map((child) => rangeOf(child, field)).reduce(intersect, UNBOUNDED);
    case 'or':
      return node.children.map((child) => rangeOf(child, field)).reduce(unite);
    case 'not':
      return UNBOUNDED;
    case 'term':
      return termRange(node.term, field);
  }
}

function termRange(term: UnitTerm, field: 'id' | 'last_changed'): Range {
  if (term.field === 'id' || term.field === 'last_changed') {
    return term.field === field ? { min: term.min, max: term.max } : UNBOUNDED;
  }
  if (term.field === 'id-set' && field === 'id') {
    const ids = [...term.ids];
    return { min: Math.min(...ids), max: Math.max(...ids) };
  }
  return UNBOUNDED;
}

const intersect = (a: Range, b: Range): Range => ({
  min: Math.max(a.min, b.min),
  max: Math.min(a.max, b.max),
});
const unite = (a: Range, b: Range): Range => ({
  min: Math.min(a.min, b.min),
  max: Math.max(a.max, b.max),
});

/** The top-level AND's operands (or the whole expression as the only one). */
function conjuncts(expression: UnitQueryNode | null): UnitQueryNode[] {
  if (expression === null) return [];
  return expression.kind === 'and' ? expression.children : [expression];
}

export function parseUnitQuery(text: string | null): UnitQueryResult {
  const parsed = parseExpression(text ?? '', readUnitTerm);
  if ('error' in parsed) return parsed;
  const { expression } = parsed;
  const ids = expression === null ? UNBOUNDED : rangeOf(expression, 'id');
  const changed = expression === null ? UNBOUNDED : rangeOf(expression, 'last_changed');
  const operands = conjuncts(expression);
  const terms = operands.flatMap((node) => (node.kind === 'term' ? [node.term] : []));
  const scoped = (field: 'project' | 'component' | 'language'): string[] =>
    terms.flatMap((term) => (term.field === field ? [term.value] : []));
  return {
    query: {
      idMin: ids.min,
      idMax: ids.max,
      changedMin: changed.min,
      changedMax: changed.max,
      projects: scoped('project'),
      components: scoped('component'),
      languages: scoped('language'),
      expression,
      isConjunction:
        terms.length === operands.length && terms.every((term) => term.field !== 'id-set'),
    },
  };
}

export function hasScope(query: UnitQuery): boolean {
  return query.projects.length + query.components.length + query.languages.length > 0;
}

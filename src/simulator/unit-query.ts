import { isDateOnly, MICROS_PER_DAY, parseInstant } from './time.ts';

/**
 * The subset of Weblate's search language (`weblate/utils/search.py`) a mirror uses on unit
 * lists: `id:` and `last_changed:` with `>`, `>=`, `<`, `<=` (or exact), the scoping fields
 * `project:`, `component:`, `language:`, joined by `AND` or by juxtaposition. Anything else
 * is rejected the way Weblate rejects unparsable queries (400, attr "q").
 */
export interface UnitQuery {
  /** Inclusive bounds. */
  idMin: number;
  idMax: number;
  /** Inclusive bounds on `last_updated`, in microseconds. */
  changedMin: number;
  changedMax: number;
  projects: string[];
  components: string[];
  languages: string[];
}

export type UnitQueryResult = { query: UnitQuery } | { error: string };

const TERM = /^([a-z_]+):(>=|<=|>|<)?(.+)$/i;

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

function applyIdTerm(query: UnitQuery, operator: string, value: string): string | null {
  if (!/^\d+$/.test(value)) return `Invalid number "${value}"`;
  const id = Number(value);
  if (operator === '>' || operator === '>=' || operator === '') {
    query.idMin = Math.max(query.idMin, operator === '>' ? id + 1 : id);
  }
  if (operator === '<' || operator === '<=' || operator === '') {
    query.idMax = Math.min(query.idMax, operator === '<' ? id - 1 : id);
  }
  return null;
}

/** A date alone covers that whole day (as Weblate's search does); a timestamp is exact. */
function applyChangedTerm(query: UnitQuery, operator: string, value: string): string | null {
  const start = parseInstant(value);
  if (start === null) return `Invalid timestamp "${value}"`;
  const end = isDateOnly(value) ? start + MICROS_PER_DAY - 1 : start;
  if (operator === '>') query.changedMin = Math.max(query.changedMin, end + 1);
  if (operator === '>=' || operator === '') query.changedMin = Math.max(query.changedMin, start);
  if (operator === '<') query.changedMax = Math.min(query.changedMax, start - 1);
  if (operator === '<=' || operator === '') query.changedMax = Math.min(query.changedMax, end);
  return null;
}

function applyTerm(query: UnitQuery, token: string): string | null {
  const match = TERM.exec(token);
  if (match === null) return `Unsupported term "${token}"`;
  const field = (match[1] ?? '').toLowerCase();
  const operator = match[2] ?? '';
  const value = unquote(match[3] ?? '');
  if (field === 'id') return applyIdTerm(query, operator, value);
  if (field === 'last_changed') return applyChangedTerm(query, operator, value);
  const scoped = {
    project: query.projects,
    component: query.components,
    language: query.languages,
  }[field];
  if (scoped === undefined || operator !== '') return `Unsupported term "${token}"`;
  scoped.push(value.toLowerCase());
  return null;
}

export function parseUnitQuery(text: string | null): UnitQueryResult {
  const query: UnitQuery = {
    idMin: -Infinity,
    idMax: Infinity,
    changedMin: -Infinity,
    changedMax: Infinity,
    projects: [],
    components: [],
    languages: [],
  };
  const tokens = (text ?? '')
    .trim()
    .split(/\s+/)
    .filter((token) => token !== '');
  let expectsTerm = true;
  for (const token of tokens) {
    if (token.toUpperCase() === 'AND') {
      if (expectsTerm) return { error: `Expected a term, found "${token}"` };
      expectsTerm = true;
      continue;
    }
    const error = applyTerm(query, token);
    if (error !== null) return { error };
    expectsTerm = false;
  }
  if (expectsTerm && tokens.length > 0) return { error: 'Expected a term at the end of the query' };
  return { query };
}

export function hasScope(query: UnitQuery): boolean {
  return query.projects.length + query.components.length + query.languages.length > 0;
}

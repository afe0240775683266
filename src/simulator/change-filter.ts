import { ACTION_NAMES } from './actions.ts';
import type { SimChange } from './model.ts';
import { type FieldError, lastParam } from './responses.ts';
import { parseInstant } from './time.ts';

/** Weblate's ChangeFilter (weblate/api/views.py): inclusive timestamp range, actions, acting user. */
export interface ChangeFilter {
  after: number | null;
  before: number | null;
  actions: ReadonlySet<number> | null;
  user: string | null;
}

export type ChangeFilterResult = { filter: ChangeFilter } | { errors: FieldError[] };

function parseBound(url: URL, name: string, errors: FieldError[]): number | null {
  const raw = lastParam(url, name);
  if (raw === null || raw === '') return null;
  const value = parseInstant(raw);
  if (value === null)
    errors.push({ attr: 'timestamp', code: 'invalid', detail: 'Enter a valid date/time.' });
  return value;
}

function parseActions(url: URL, errors: FieldError[]): Set<number> | null {
  const values = url.searchParams.getAll('action').filter((value) => value !== '');
  if (values.length === 0) return null;
  const actions = new Set<number>();
  for (const value of values) {
    const code = /^\d+$/.test(value) ? Number(value) : NaN;
    // django-filter compares the choice keys as strings, so "02" is not 2.
    if (ACTION_NAMES.has(code) && String(code) === value) {
      actions.add(code);
    } else {
      const detail = `Select a valid choice. ${value} is not one of the available choices.`;
      errors.push({ attr: 'action', code: 'invalid_choice', detail });
    }
  }
  return actions;
}

export function parseChangeFilter(url: URL): ChangeFilterResult {
  const errors: FieldError[] = [];
  const after = parseBound(url, 'timestamp_after', errors);
  const before = parseBound(url, 'timestamp_before', errors);
  const actions = parseActions(url, errors);
  const user = lastParam(url, 'user');
  if (errors.length > 0) return { errors };
  return { filter: { after, before, actions, user: user === '' ? null : user } };
}

export function isFilterEmpty(filter: ChangeFilter): boolean {
  return (
    filter.after === null &&
    filter.before === null &&
    filter.actions === null &&
    filter.user === null
  );
}

export function matchesChange(filter: ChangeFilter, change: SimChange): boolean {
  if (filter.after !== null && change.timestampUs < filter.after) return false;
  if (filter.before !== null && change.timestampUs > filter.before) return false;
  if (filter.actions !== null && !filter.actions.has(change.action)) return false;
  return filter.user === null || change.user === filter.user;
}

/**
 * Checks of the API's relations a mutated instance must keep, through `dispatch` (the same
 * code path as HTTP, without sockets). Used by the mutation tests after every operation.
 */
import { expect } from 'vitest';

import {
  buildIndex,
  dispatch,
  type SimIndex,
  type SimInstance,
  type SimTranslation,
} from '../../src/simulator/index.ts';

export const BASE = 'http://weblate.test/';

export type Json = Record<string, unknown>;

export function get(instance: SimInstance, path: string): { status: number; body: Json } {
  const response = dispatch(instance, {
    method: 'GET',
    url: new URL(`${BASE}${path}`),
    baseUrl: BASE,
    headers: {},
  });
  // Lists answer pre-rendered text (rawBody); their counts, ids and links are what is checked here.
  const body: unknown =
    response.body ?? (response.rawBody === undefined ? undefined : JSON.parse(response.rawBody));
  return { status: response.status, body: body as Json };
}

/** Every result of a list, following `next`. */
export function walk(instance: SimInstance, path: string): { count: number; results: Json[] } {
  const results: Json[] = [];
  let next: string | null = `${BASE}${path}`;
  let count = -1;
  while (next !== null) {
    const page = get(instance, next.slice(BASE.length));
    expect(page.status, next).toBe(200);
    count = page.body.count as number;
    results.push(...(page.body.results as Json[]));
    next = page.body.next as string | null;
  }
  expect(results).toHaveLength(count);
  return { count, results };
}

export function translationKey(instance: SimInstance, translation: SimTranslation): string {
  const component = instance.index.componentById.get(translation.componentId)!;
  const project = instance.index.projectById.get(component.projectId)!;
  const language = instance.index.languageById.get(translation.languageId)!;
  return `${project.slug}/${component.slug}/${language.code}`;
}

/**
 * The incrementally kept index must equal a fresh one, list order included. Compared as
 * text (keys sorted, lists as ids), which is much faster than deep equality at this size.
 */
function expectIndexUpToDate(instance: SimInstance): void {
  const describe = (value: unknown): string =>
    Array.isArray(value)
      ? value.map((item: { id: number }) => item.id).join(',')
      : String((value as { id?: unknown }).id ?? value);
  const text = (entry: unknown): string => {
    if (Array.isArray(entry)) return describe(entry);
    return [...(entry as Map<unknown, unknown>).entries()]
      .filter(([, value]) => !Array.isArray(value) || value.length > 0)
      .map(([key, value]) => `${String(key)}=${describe(value)}`)
      .sort()
      .join('\n');
  };
  const fresh = buildIndex(instance);
  for (const key of Object.keys(fresh) as (keyof SimIndex)[]) {
    expect(text(instance.index[key]), key).toBe(text(fresh[key]));
  }
}

function expectTranslationsConsistent(instance: SimInstance): void {
  for (const translation of instance.translations) {
    const key = translationKey(instance, translation);
    const record = get(instance, `api/translations/${key}/`);
    expect(record.status).toBe(200);
    const list = walk(instance, `api/translations/${key}/units/?page_size=1000`);
    expect(list.count, key).toBe(record.body.total);
    const ids = list.results.map((unit) => unit.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const strangers = list.results.filter((unit) => unit.translation !== record.body.url);
    expect(strangers, key).toEqual([]);
    const stats = get(instance, `api/translations/${key}/statistics/`).body;
    expect(stats.total).toBe(record.body.total);
    expect(stats.last_change).toBe(record.body.last_change);
  }
}

function expectAggregatesConsistent(instance: SimInstance): void {
  const totals = new Map(
    instance.translations.map((t) => [
      t.id,
      instance.index.unitsByTranslation.get(t.id)?.length ?? 0,
    ]),
  );
  const sum = (translations: readonly SimTranslation[]): number =>
    translations.reduce((n, t) => n + (totals.get(t.id) ?? 0), 0);
  for (const project of instance.projects) {
    const components = instance.components.filter((c) => c.projectId === project.id);
    const translations = instance.translations.filter((t) =>
      components.some((c) => c.id === t.componentId),
    );
    const stats = get(instance, `api/projects/${project.slug}/statistics/`).body;
    expect(stats.total).toBe(sum(translations));
  }
  for (const language of instance.languages) {
    const stats = get(instance, `api/languages/${language.code}/statistics/`).body;
    expect(stats.total).toBe(
      sum(instance.translations.filter((t) => t.languageId === language.id)),
    );
  }
}

function expectChangesConsistent(instance: SimInstance): void {
  const { index } = instance;
  // Plain checks, one expect: tens of thousands of expect calls would dominate the suite.
  const dangling = instance.changes.filter(
    (change) =>
      !index.projectById.has(change.projectId) ||
      (change.componentId !== null && !index.componentById.has(change.componentId)) ||
      (change.translationId !== null && !index.translationById.has(change.translationId)) ||
      (change.unitId !== null && !index.unitById.has(change.unitId)),
  );
  expect(dangling.map((change) => change.id)).toEqual([]);
  const all = get(instance, 'api/changes/?page_size=1').body;
  expect(all.count).toBe(instance.changes.length);
  const units = get(instance, 'api/units/?page_size=1').body;
  expect(units.count).toBe(instance.units.length);
}

export function expectConsistent(instance: SimInstance): void {
  const byId = (items: readonly { id: number }[]): number[] => items.map((item) => item.id);
  expect(byId(instance.units)).toEqual(byId(instance.units).sort((a, b) => a - b));
  expect(byId(instance.changes)).toEqual(byId(instance.changes).sort((a, b) => a - b));
  expectIndexUpToDate(instance);
  expectTranslationsConsistent(instance);
  expectAggregatesConsistent(instance);
  expectChangesConsistent(instance);
}

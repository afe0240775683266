import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, type SimUnit, startSimulator } from '../../src/simulator/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';

// Progress per category and per label (migration 0012), checked against sums of the
// simulator's own units, not against the mirror's SQL.

let sim: RunningSimulator;
let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 23,
    projects: 2,
    components: 4,
    languages: 3,
    units: 400,
    changes: 100,
    categoriesAndLabels: true,
  });
  database = await createTestDatabase();
  handle = await database.migrated();
  const result = await syncSimulator(sim, handle, { full: true });
  expect(result.status).toBe('succeeded');
});

afterAll(async () => {
  await handle.close();
  await database.drop();
  await sim.close();
});

interface Counts {
  total: number;
  total_words: number;
  translated: number;
  translated_words: number;
  approved: number;
  fuzzy: number;
}

function countUnits(units: readonly SimUnit[]): Counts {
  const sum = (list: readonly SimUnit[]) => list.reduce((n, u) => n + u.numWords, 0);
  const translated = units.filter((u) => u.state >= 20);
  return {
    total: units.length,
    total_words: sum(units),
    translated: translated.length,
    translated_words: sum(translated),
    approved: units.filter((u) => u.state === 30).length,
    fuzzy: units.filter((u) => u.state >= 10 && u.state < 20).length,
  };
}

/** Units of the simulator's target translations, with their translation's language and component. */
function targetUnits() {
  const { index } = sim.instance;
  return sim.instance.units.flatMap((u) => {
    const translation = index.translationById.get(u.translationId)!;
    if (translation.isSource) return [];
    const component = index.componentById.get(translation.componentId)!;
    const language = index.languageById.get(translation.languageId)!;
    return [{ unit: u, component, language: language.code }];
  });
}

/** The labels a unit carries as Weblate's `label:` search finds them: its own and its source's. */
function labelsOf(unit: SimUnit): Set<number> {
  const source = sim.instance.units.find((u) => u.id === unit.sourceUnitId);
  return new Set([...(unit.labelIds ?? []), ...(source?.labelIds ?? [])]);
}

const FIGURES = 'total, total_words, translated, translated_words, approved, fuzzy';

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await query.execute(handle.db)).rows as T[];
}

function numbers(row: Record<string, unknown>): Counts {
  return {
    total: Number(row.total),
    total_words: Number(row.total_words),
    translated: Number(row.translated),
    translated_words: Number(row.translated_words),
    approved: Number(row.approved),
    fuzzy: Number(row.fuzzy),
  };
}

async function labelProgress(): Promise<Map<string, Counts>> {
  const result = await rows<Record<string, unknown>>(sql`
    select label_id, language_code, ${sql.raw(FIGURES)} from weblate.progress_by_label()`);
  return new Map(
    result.map((r) => [`${String(r.label_id)} ${String(r.language_code)}`, numbers(r)]),
  );
}

function expectedLabelProgress(): Map<string, Counts> {
  const groups = new Map<string, SimUnit[]>();
  for (const { unit, language } of targetUnits()) {
    for (const label of labelsOf(unit)) {
      const key = `${label} ${language}`;
      groups.set(key, [...(groups.get(key) ?? []), unit]);
    }
  }
  return new Map([...groups].map(([key, units]) => [key, countUnits(units)]));
}

describe('progress_by_category', () => {
  it('rolls the components of nested categories up into each ancestor', async () => {
    const { categories, components } = sim.instance;
    const within = (ancestor: number, id: number | null | undefined): boolean => {
      for (let at = id ?? null; at !== null;) {
        if (at === ancestor) return true;
        at = categories.find((c) => c.id === at)?.parentId ?? null;
      }
      return false;
    };
    expect(categories.some((c) => c.parentId !== null)).toBe(true);
    const units = targetUnits();
    const expected = categories.map((k) => {
      const held = units.filter(({ component }) => within(k.id, component.categoryId));
      return {
        category_id: k.id,
        components: components.filter((c) => within(k.id, c.categoryId)).length,
        ...countUnits(held.map((h) => h.unit)),
      };
    });
    expect(expected.some((e) => e.total > 0)).toBe(true);
    const result = await rows<Record<string, unknown>>(sql`
      select category_id, components, ${sql.raw(FIGURES)}
      from weblate.category_progress order by category_id`);
    expect(
      result.map((r) => ({
        category_id: r.category_id,
        components: Number(r.components),
        ...numbers(r),
      })),
    ).toEqual(expected);
  });

  it('writes a nested category path from its root, as Weblate does', async () => {
    const child = sim.instance.categories.find((c) => c.parentId !== null)!;
    const parent = sim.instance.categories.find((c) => c.id === child.parentId)!;
    const result = await rows<{ path: string }>(sql`
      select path from weblate.progress_by_category() where category_id = ${child.id}`);
    expect(result).toEqual([{ path: `${parent.slug}/${child.slug}` }]);
  });
});

describe('progress functions scoped to components', () => {
  it('sum only the components asked for, in every summary', async () => {
    const component = sim.instance.components.find((c) => !c.isGlossary)!;
    const project = sim.instance.index.projectById.get(component.projectId)!;
    const held = targetUnits().filter((u) => u.component.id === component.id);
    const byLanguage = new Map<string, SimUnit[]>();
    for (const { unit, language } of held)
      byLanguage.set(language, [...(byLanguage.get(language) ?? []), unit]);
    const languages = await rows<Record<string, unknown>>(sql`
      select language_code, ${sql.raw(FIGURES)}
      from weblate.progress_by_language(only_projects => array[${project.slug}], only_components => array[${component.slug}])
      order by language_code`);
    expect(languages.map((r) => [r.language_code, numbers(r)])).toEqual(
      [...byLanguage]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([code, units]) => [code, countUnits(units)]),
    );
    const projects = await rows<Record<string, unknown>>(sql`
      select project_slug, components, ${sql.raw(FIGURES)}
      from weblate.progress_by_project(only_projects => array[${project.slug}], only_components => array[${component.slug}])`);
    expect(projects).toEqual([
      {
        project_slug: project.slug,
        components: '1',
        ...Object.fromEntries(
          Object.entries(countUnits(held.map((h) => h.unit))).map(([k, v]) => [k, String(v)]),
        ),
      },
    ]);
    const daily = await rows<{ n: string }>(sql`
      select count(distinct component_id) as n
      from weblate.progress_by_component_daily(only_projects => array[${project.slug}], only_components => array[${component.slug}])`);
    expect(daily).toEqual([{ n: '1' }]);
  });
});

describe('progress_by_label', () => {
  it('counts the units that carry a label themselves or through their source string', async () => {
    const expected = expectedLabelProgress();
    expect(expected.size).toBeGreaterThan(2);
    expect(await labelProgress()).toEqual(expected);
  });

  it('records label history as it moves, and answers it per day', async () => {
    const today = await rows<{ n: string }>(sql`
      select count(*) as n from weblate.label_statistics`);
    expect(Number(today[0]!.n)).toBeGreaterThan(0);
    // A quiet sync records nothing new.
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    expect(
      await rows<{ n: string }>(sql`select count(*) as n from weblate.label_statistics`),
    ).toEqual(today);
    // A label taken off a source string, and a labelled string translated.
    const source = sim.instance.units.find(
      (u) => sim.instance.index.translationById.get(u.translationId)!.isSource && u.labelIds,
    )!;
    const label = source.labelIds![0]!;
    sim.mutate.setUnitLabel(source.id, label, false);
    const labelled = targetUnits().find(
      ({ unit }) => unit.state < 20 && labelsOf(unit).size > 0 && unit.sourceUnitId !== source.id,
    )!.unit;
    sim.mutate.editUnits([labelled.id], { state: 20 });
    expect((await syncSimulator(sim, handle, { full: true })).status).toBe('succeeded');
    expect(await labelProgress()).toEqual(expectedLabelProgress());
    const grown = await rows<{ n: string }>(sql`
      select count(*) as n from weblate.label_statistics`);
    expect(Number(grown[0]!.n)).toBeGreaterThan(Number(today[0]!.n));
    // Today's history is what the units say now, labels gone from a translation included.
    const daily = await rows<Record<string, unknown>>(sql`
      select label_id, language_code, ${sql.raw(FIGURES)}
      from weblate.progress_by_label_daily()
      where day = (now() at time zone 'UTC')::date and total > 0`);
    expect(
      new Map(daily.map((r) => [`${String(r.label_id)} ${String(r.language_code)}`, numbers(r)])),
    ).toEqual(expectedLabelProgress());
  });
});

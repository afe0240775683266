import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import type { SyncResult } from '../../src/sync/run-sync.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import type { TierApi } from './harness/api.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE, tierIsAtLeast } from './harness/release.ts';
import { findUnit, SEED, STATE, translationPath, unitsOf } from './harness/seed.ts';

const weblate = useWeblate('labels');

/** A label's strings in one translation, or summed over a language's translations. */
interface LabelFigures {
  project: string;
  label: number;
  name: string;
  language: string;
  /** Translations with at least one string carrying the label. */
  translations: number;
  total: number;
  translated: number;
  approved: number;
  fuzzy: number;
}

/**
 * Label and category progress (migration 0012) against what Weblate answers: each label's
 * figures per translation from `label:` and `state:` unit searches, each category's from its
 * statistics. After a full sync, after a state edit of labelled strings, and after labels
 * are added and removed (which Weblate 5.14.3 logs no change for).
 */
describe(`labels and categories of a real Weblate ${TIER_RELEASE}`, () => {
  let database: TestDatabase;
  let db: Kysely<Database>;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = (await database.migrated()).db;
    const first = await syncWeblate(weblate.current, db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("counts each label per translation and language as Weblate's label: and state: searches", async () => {
    const api = weblate.current.admin;
    const searched = await labelFiguresOfWeblate(api);
    const expected = await expectedLabelFigures(api, searched);
    // The seed gives the comparison something to find: every figure, in both projects,
    // and the label that only a translation unit carries.
    expect(new Set(expected.map((f) => f.project))).toEqual(new Set(['aurora', 'borealis']));
    expect(new Set(expected.map((f) => f.name)).size).toBe(3);
    for (const figure of ['translated', 'approved', 'fuzzy'] as const)
      expect(
        expected.some((f) => f[figure] > 0 && f[figure] < f.total),
        figure,
      ).toBe(true);
    // Weblate 5.14.3's `label:` finds a label on the translation unit too; 2026's only on
    // the source string (docs/weblate-compatibility.md).
    expect(searched.some((f) => f.name === 'Frage an Übersetzer')).toBe(!tierIsAtLeast('2026'));
    await expectEqualToWeblate(expected);
  });

  it("sums each category's components, the nested category's into its parent, as Weblate's statistics", async () => {
    const weblateFigures = await categoryFiguresOfWeblate(weblate.current.admin);
    expect(weblateFigures.map((c) => [c.path, c.components])).toEqual(
      SEED.categories.map(({ path }) => [path, path === 'handbooks' ? 2 : 1]),
    );
    expect(await categoryFiguresOfMirror(db)).toEqual(weblateFigures);
  });

  it('records where label history starts: the current counts of every labelled translation', async () => {
    const progress = await labelProgressOfMirror(db);
    expect(progress.length).toBeGreaterThan(0);
    expect(await latestLabelHistory(db)).toEqual(progress);
  });

  it(
    tierIsAtLeast('2026')
      ? 'follows labels added to and removed from strings in an incremental sync (actions 86, 87)'
      : 'sees labels added to and removed from strings only in a full sync: Weblate 5.14.3 logs no change',
    async () => {
      const api = weblate.current.admin;
      const before = await labelProgressOfMirror(db);
      const source = await unitsOf(api, translationPath('aurora', 'app'));
      const labels = await api.listAll<{ id: number; name: string }>('projects/aurora/labels/');
      const idOf = (name: string) => labels.find((l) => l.name === name)!.id;
      // `labels` replaces a string's labels: 'Cancel' gains the second, 'Hello, world!' loses
      // its only one. Both moves reach every translation of the component.
      await api.patch(`units/${findUnit(source, 'Cancel').id}/`, {
        labels: [idOf('Release blocker'), idOf('Überprüfung – Menü ✓')],
      });
      await api.patch(`units/${findUnit(source, 'Hello, world!').id}/`, { labels: [] });
      const expected = await expectedLabelFigures(api, await labelFiguresOfWeblate(api));
      expect(byLanguage(expected)).not.toEqual(before);

      weblate.current.takeRequests();
      const incremental = await syncIncrementally();
      const unitReads = weblate.current
        .takeRequests()
        .filter((r) => /\/api\/(units|translations\/[^?]*\/units)\//.test(r.target));
      const actions = await sql<{ action: number }>`
        select distinct action from weblate.changes where action in (86, 87)
          and first_seen_at >= (select started_at from weblate.sync_runs where id = ${incremental.runId})
        order by 1`.execute(db);
      if (tierIsAtLeast('2026')) {
        // Each PATCH logged its change on the source string, which the sync reads by id.
        expect(actions.rows.map((r) => r.action)).toEqual([86, 87]);
        expect(unitReads.length).toBeGreaterThan(0);
        await expectEqualToWeblate(expected);
        expect(await historyOf(db, incremental)).toEqual(CHANGED_LABEL_HISTORY);
      } else {
        // No change logged and no translation moved: the incremental sync reads no unit, and
        // the mirror keeps the labels as they were.
        expect(actions.rows).toEqual([]);
        expect(unitReads.map((r) => r.target)).toEqual([]);
        expect(await labelProgressOfMirror(db)).toEqual(before);
        expect(await historyOf(db, incremental)).toEqual([]);
        // The reconcile job's full sync reads every unit and sees them.
        const full = await syncWeblate(weblate.current, db, { full: true });
        expect([full.mode, full.status, full.error]).toEqual(['full', 'succeeded', null]);
        await expectEqualToWeblate(expected);
        expect(await historyOf(db, full)).toEqual(CHANGED_LABEL_HISTORY);
      }
      expect(await latestLabelHistory(db)).toEqual(await labelProgressOfMirror(db));
    },
  );

  it('follows the states of labelled strings in an incremental sync', async () => {
    const api = weblate.current.admin;
    const de = await unitsOf(api, 'aurora/app/de');
    await weblate.current.as('alice').patch(`units/${findUnit(de, 'Last synced {date}').id}/`, {
      target: ['Zuletzt synchronisiert {date}'],
      state: STATE.translated,
    });
    const cs = await unitsOf(api, 'aurora/app/cs');
    await api.patch(`units/${findUnit(cs, 'Settings').id}/`, {
      target: ['Nastavení'],
      state: STATE.approved,
    });
    // An unlabelled string of the nested category's component: both categories move.
    const faq = await unitsOf(api, translationPath('borealis', 'handbooks/howto/faq', 'uk'));
    await api.patch(`units/${findUnit(faq, 'Run `npm ci` first.').id}/`, {
      target: ['Спершу виконайте `npm ci`.'],
      state: STATE.translated,
    });
    const result = await syncIncrementally();
    await expectEqualToWeblate(await expectedLabelFigures(api, await labelFiguresOfWeblate(api)));
    // History moved for the two labelled translations edited, and only for their label.
    expect(await historyOf(db, result)).toEqual([
      ['Überprüfung – Menü ✓', 'aurora/app/cs'],
      ['Überprüfung – Menü ✓', 'aurora/app/de'],
    ]);
    expect(await latestLabelHistory(db)).toEqual(await labelProgressOfMirror(db));
  });

  async function syncIncrementally(): Promise<SyncResult> {
    const result = await syncWeblate(weblate.current, db);
    expect([result.mode, result.status, result.error]).toEqual(['incremental', 'succeeded', null]);
    return result;
  }

  /** The mirror's label figures equal Weblate's `labelled`, its categories Weblate's now. */
  async function expectEqualToWeblate(labelled: LabelFigures[]): Promise<void> {
    const api = weblate.current.admin;
    expect(await labelFiguresOfMirror(db, labelled)).toEqual(labelled);
    expect(await labelProgressOfMirror(db)).toEqual(byLanguage(labelled));
    expect(await categoryFiguresOfMirror(db)).toEqual(await categoryFiguresOfWeblate(api));
  }
});

/**
 * The label history a run recorded after 'Cancel' gained the second label and 'Hello, world!'
 * lost the first: both labels in every translation of the app component (not its source).
 */
const CHANGED_LABEL_HISTORY = ['Release blocker', 'Überprüfung – Menü ✓'].flatMap((label) =>
  ['ar', 'cs', 'de', 'ja', 'sk'].map((language) => [label, `aurora/app/${language}`]),
);

/** `label:"…"`, quoted as Weblate quotes a label's own search (Label.filter_name). */
function labelQuery(name: string): string {
  return `label:"${name.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

interface TranslationRecord {
  url: string;
  is_source: boolean;
  language_code: string;
  component: { slug: string; project: { slug: string } };
}

/**
 * Weblate's figures for every label of every project, per translation (target languages):
 * one search of the project's units per label finds the translations it reaches, then
 * `count` of that translation's unit searches `label:"<name>"` (total), `… AND
 * state:>=translated`, `… AND state:approved` and `… AND state:needs-editing`.
 */
async function labelFiguresOfWeblate(api: TierApi): Promise<LabelFigures[]> {
  const translations = new Map(
    (await api.listAll<TranslationRecord>('translations/')).map((t) => [t.url, t]),
  );
  const figures: LabelFigures[] = [];
  for (const project of await api.listAll<{ slug: string }>('projects/')) {
    for (const label of await api.listAll<{ id: number; name: string }>(
      `projects/${project.slug}/labels/`,
    )) {
      const search = api.url('units/');
      search.searchParams.set('q', `project:${project.slug} AND ${labelQuery(label.name)}`);
      const units = await api.listAll<{ translation: string }>(search);
      const reached = [...new Set(units.map((u) => u.translation))]
        .map((url) => translations.get(url))
        .filter((t): t is TranslationRecord => t !== undefined && !t.is_source);
      for (const translation of reached) {
        const count = async (q: string) => {
          const url = new URL('units/', translation.url);
          url.searchParams.set('q', q);
          url.searchParams.set('page_size', '1');
          return (await api.get<{ count: number }>(url)).count;
        };
        const query = labelQuery(label.name);
        figures.push({
          project: project.slug,
          label: label.id,
          name: label.name,
          language: `${translation.component.slug}/${translation.language_code}`,
          translations: 1,
          total: await count(query),
          translated: await count(`${query} AND state:>=translated`),
          approved: await count(`${query} AND state:approved`),
          fuzzy: await count(`${query} AND state:needs-editing`),
        });
      }
    }
  }
  return figures.sort(byKey);
}

/**
 * What the mirror must hold: Weblate's `searched` figures and, from Weblate 2026 on, the
 * translation units that carry a label their source string does not (SEED.labels' `units`),
 * by their state as Weblate answers it. 2026's `label:` looks at the source string only
 * (`label_field` in weblate/utils/search.py); the mirror counts a unit's own labels as 5.14's
 * search does (migration 0012), which no path of Weblate 2026 creates but data made inside it.
 */
async function expectedLabelFigures(
  api: TierApi,
  searched: LabelFigures[],
): Promise<LabelFigures[]> {
  if (!tierIsAtLeast('2026')) return searched;
  const figures = new Map(searched.map((f) => [`${f.label} ${f.language}`, { ...f }]));
  for (const [project, labels] of Object.entries(SEED.labels)) {
    const ids = new Map(
      (await api.listAll<{ id: number; name: string }>(`projects/${project}/labels/`)).map((l) => [
        l.name,
        l.id,
      ]),
    );
    for (const { name, sources, units } of labels) {
      for (const [translation, texts] of Object.entries(units)) {
        const [, component, language] = translation.split('/') as [string, string, string];
        const own = texts.filter((text) => !(sources[component] ?? []).includes(text));
        if (own.length === 0) continue;
        const records = await unitsOf(api, translation);
        const key = `${ids.get(name)!} ${component}/${language}`;
        const figure = figures.get(key) ?? {
          project,
          label: ids.get(name)!,
          name,
          language: `${component}/${language}`,
          translations: 1,
          total: 0,
          translated: 0,
          approved: 0,
          fuzzy: 0,
        };
        for (const text of own) {
          const { state } = findUnit(records, text);
          figure.total += 1;
          figure.translated += state >= STATE.translated ? 1 : 0;
          figure.approved += state === STATE.approved ? 1 : 0;
          figure.fuzzy += state === STATE.fuzzy ? 1 : 0;
        }
        figures.set(key, figure);
      }
    }
  }
  return [...figures.values()].sort(byKey);
}

/**
 * The mirror's progress_by_label for the component and language of each of `expected`
 * (`language` is `component/language` there), and any other row of those components.
 */
async function labelFiguresOfMirror(
  db: Kysely<Database>,
  expected: LabelFigures[],
): Promise<LabelFigures[]> {
  const components = new Set(expected.map((f) => `${f.project}/${f.language.split('/')[0]}`));
  const figures: LabelFigures[] = [];
  for (const key of components) {
    const [project, component] = key.split('/') as [string, string];
    const rows = await sql<MirrorRow>`
      select * from weblate.progress_by_label(array[${project}], null, array[${component}])`.execute(
      db,
    );
    figures.push(...rows.rows.map((r) => figuresOfRow(r, `${component}/${r.language_code}`)));
  }
  return figures.sort(byKey);
}

interface MirrorRow {
  label_id: number;
  label_name: string;
  project_slug: string;
  language_code: string;
  translations: string;
  total: string;
  translated: string;
  approved: string;
  fuzzy: string;
}

function figuresOfRow(row: MirrorRow, language: string): LabelFigures {
  return {
    project: row.project_slug,
    label: row.label_id,
    name: row.label_name,
    language,
    translations: Number(row.translations),
    total: Number(row.total),
    translated: Number(row.translated),
    approved: Number(row.approved),
    fuzzy: Number(row.fuzzy),
  };
}

/** progress_by_label over everything: one row per label and language. */
async function labelProgressOfMirror(db: Kysely<Database>): Promise<LabelFigures[]> {
  const rows = await sql<MirrorRow>`select * from weblate.progress_by_label()`.execute(db);
  return rows.rows.map((r) => figuresOfRow(r, r.language_code)).sort(byKey);
}

/** Per-translation figures summed per label and language. */
function byLanguage(figures: LabelFigures[]): LabelFigures[] {
  const sums = new Map<string, LabelFigures>();
  for (const f of figures) {
    const language = f.language.split('/')[1]!;
    const key = `${f.label} ${language}`;
    const sum = sums.get(key) ?? {
      ...f,
      language,
      translations: 0,
      total: 0,
      translated: 0,
      approved: 0,
      fuzzy: 0,
    };
    sums.set(key, {
      ...sum,
      translations: sum.translations + f.translations,
      total: sum.total + f.total,
      translated: sum.translated + f.translated,
      approved: sum.approved + f.approved,
      fuzzy: sum.fuzzy + f.fuzzy,
    });
  }
  return [...sums.values()].sort(byKey);
}

/** The latest label_statistics row of each label and target translation, summed like byLanguage. */
async function latestLabelHistory(db: Kysely<Database>): Promise<LabelFigures[]> {
  const rows = await sql<MirrorRow>`
    with latest as (
      select distinct on (s.label_id, s.translation_id) s.*
      from weblate.label_statistics s
      order by s.label_id, s.translation_id, s.captured_at desc
    )
    select l.label_id, lb.name as label_name, lb.project_slug, t.language_code,
      count(*) as translations, sum(l.total) as total, sum(l.translated) as translated,
      sum(l.approved) as approved, sum(l.fuzzy) as fuzzy
    from latest l
    join weblate.labels lb on lb.id = l.label_id
    join weblate.translations t on t.id = l.translation_id
    where l.total > 0 and t.is_source is not true and t.deleted_at is null
    group by 1, 2, 3, 4`.execute(db);
  return rows.rows.map((r) => figuresOfRow(r, r.language_code)).sort(byKey);
}

/** The labels and translations (target languages) that a run recorded history for. */
async function historyOf(db: Kysely<Database>, result: SyncResult): Promise<string[][]> {
  const rows = await sql<{ name: string; translation: string }>`
    select distinct lb.name, t.project_slug || '/' || t.component_slug || '/' || t.language_code as translation
    from weblate.label_statistics s
    join weblate.labels lb on lb.id = s.label_id
    join weblate.translations t on t.id = s.translation_id
    where s.run_id = ${result.runId} and t.is_source is not true
    order by 2, 1`.execute(db);
  return rows.rows
    .map((r) => [r.name, r.translation])
    .sort((a, b) => (a[0] === b[0] ? (a[1]! < b[1]! ? -1 : 1) : a[0]! < b[0]! ? -1 : 1));
}

function byKey(a: LabelFigures, b: LabelFigures): number {
  const ka = `${a.project} ${a.label} ${a.language}`;
  const kb = `${b.project} ${b.label} ${b.language}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** A category's summed progress, its nested categories' components included. */
interface CategoryFigures {
  id: number;
  path: string;
  components: number;
  total: number;
  total_words: number;
  translated: number;
  translated_words: number;
  fuzzy: number;
  fuzzy_words: number;
  approved: number;
  approved_words: number;
  failing: number;
}

const CATEGORY_COUNTS = [
  'total',
  'total_words',
  'translated',
  'translated_words',
  'fuzzy',
  'fuzzy_words',
  'approved',
  'approved_words',
  'failing',
] as const;

/**
 * Each category's statistics (`/api/categories/<id>/statistics/`) less the source
 * translations of the components in it and in its nested categories: Weblate's statistics
 * count the source strings, the mirror's progress leaves them out (docs/schema.md).
 */
async function categoryFiguresOfWeblate(api: TierApi): Promise<CategoryFigures[]> {
  const categories = await api.listAll<{
    id: number;
    slug: string;
    url: string;
    category: string | null;
    statistics_url: string;
  }>('categories/');
  const byUrl = new Map(categories.map((c) => [c.url, c]));
  const pathOf = (c: (typeof categories)[number]): string => {
    const parent = c.category === null ? undefined : byUrl.get(c.category);
    return parent === undefined ? c.slug : `${pathOf(parent)}/${c.slug}`;
  };
  const components = await api.listAll<{
    category: string | null;
    statistics_url: string;
    source_language: { code: string };
  }>('components/');
  const figures: CategoryFigures[] = [];
  for (const category of categories) {
    const path = pathOf(category);
    const inside = components.filter((c) => {
      const at = c.category === null ? undefined : byUrl.get(c.category);
      return at !== undefined && (pathOf(at) === path || pathOf(at).startsWith(`${path}/`));
    });
    const stats = await api.get<Record<string, number>>(category.statistics_url);
    const figure: CategoryFigures = {
      id: category.id,
      path,
      components: inside.length,
      ...Object.fromEntries(CATEGORY_COUNTS.map((k) => [k, stats[k]!])),
    } as CategoryFigures;
    for (const component of inside) {
      const rows = await api.listAll<Record<string, number | string>>(component.statistics_url);
      const source = rows.find((r) => r.code === component.source_language.code)!;
      for (const k of CATEGORY_COUNTS) figure[k] -= Number(source[k]);
    }
    figures.push(figure);
  }
  return figures.sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function categoryFiguresOfMirror(db: Kysely<Database>): Promise<CategoryFigures[]> {
  const rows = await sql<Record<string, string | number>>`
    select category_id, path, components, ${sql.raw(CATEGORY_COUNTS.join(', '))}
    from weblate.progress_by_category()`.execute(db);
  return rows.rows
    .map(
      (r) =>
        ({
          id: Number(r.category_id),
          path: String(r.path),
          components: Number(r.components),
          ...Object.fromEntries(CATEGORY_COUNTS.map((k) => [k, Number(r[k])])),
        }) as CategoryFigures,
    )
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

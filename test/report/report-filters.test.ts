import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { addDays } from '../../src/report/days.ts';
import { LABEL_LEFT_OUT, type Report } from '../../src/report/model.ts';
import { type CliResult, databaseEnv, runCli } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import {
  createReportFixture,
  LABEL_HISTORY_DAYS,
  type ReportFixture,
} from '../helpers/report-fixture.ts';

/**
 * The report's sections of categories and labels, and `--category` and `--label`, over the
 * report fixture (test/helpers/report-fixture.ts: categories with components in them,
 * labels on strings, a day of label history). Expected figures are summed here, in
 * TypeScript, from the rows of the mirrored tables (units, unit_labels, categories,
 * components) and the per-translation view, not from the functions the report reads.
 */

interface Category {
  id: number;
  project_slug: string;
  slug: string;
  name: string;
  parent_id: number | null;
}

interface TranslationRow {
  translation_id: number;
  project_slug: string;
  component_slug: string;
  category_id: number | null;
  language_code: string;
  total: number;
  translated: number;
}

let fixture: ReportFixture;
let handle: DbHandle;
let db: Kysely<Database>;
let today: string;
let categories: Category[];
let translations: TranslationRow[];
/** A category with another inside it, and the one inside. */
let parent: Category;
let child: Category;
/** A label name (as the mirror has it) and its projects. */
let labelName: string;
const runs: Record<string, CliResult> = {};
const json: Record<string, Report> = {};

/** Weblate's percentage: truncated to one decimal, never 0 or 100 unless exactly so. */
function truncatedPercent(part: number, whole: number): number {
  if (whole === 0) return 100;
  const value = Math.trunc((1000 * part) / whole) / 10;
  if (part > 0 && value === 0) return 0.1;
  if (part < whole && value === 100) return 99.9;
  return value;
}

function pathOf(category: Category): string {
  const up = categories.find((c) => c.id === category.parent_id);
  return up === undefined ? category.slug : `${pathOf(up)}/${category.slug}`;
}

/** The category and every category inside it. */
function subtree(category: Category): Set<number> {
  const ids = new Set([category.id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of categories)
      if (c.parent_id !== null && ids.has(c.parent_id) && !ids.has(c.id)) {
        ids.add(c.id);
        grew = true;
      }
  }
  return ids;
}

async function readMirror(): Promise<void> {
  categories = (
    await sql<Category>`
      select k.id, k.project_slug, k.slug, k.name, k.parent_id from weblate.categories k
      where k.deleted_at is null order by k.id`.execute(db)
  ).rows;
  translations = (
    await sql<TranslationRow>`
      select t.translation_id, t.project_slug, t.component_slug, c.category_id, t.language_code,
             t.total, t.translated
      from weblate.translation_progress t join weblate.components c on c.id = t.component_id
      order by t.translation_id`.execute(db)
  ).rows;
  parent = categories.find(
    (c) =>
      categories.some((k) => k.parent_id === c.id) &&
      translations.some((t) => t.category_id !== null && subtree(c).has(t.category_id)),
  )!;
  child = categories.find(
    (c) => c.parent_id !== null && translations.some((t) => t.category_id === c.id),
  )!;
  if (parent === undefined || child === undefined)
    throw new Error('the report fixture has no category that holds a component through another');
  const labels = await sql<{ name: string; projects: number }>`
    select l.name, count(distinct l.project_id)::integer as projects from weblate.labels l
    where l.deleted_at is null group by l.name order by projects desc, l.name limit 1`.execute(db);
  labelName = labels.rows[0]!.name;
}

/** `name: [args]`; CATEGORY, PARENT, CHILD, LABEL and PROJECT are filled in from the mirror. */
const RUNS: Record<string, string[]> = {
  all: ['--format', 'json', '--limit', '1000'],
  table: [],
  parent: ['--format', 'json', '--category', 'PARENT'],
  child: ['--format', 'json', '--category', 'CHILD'],
  label: ['--format', 'json', '--label', 'LABEL_LOWER'],
  labelInProject: ['--format', 'json', '--label', 'PROJECT/LABEL'],
  labelInCategory: ['--format', 'json', '--label', 'LABEL', '--category', 'PARENT'],
  labelTable: ['--label', 'LABEL'],
  labelCsv: ['--format', 'csv', '--label', 'LABEL'],
  categoryCsv: ['--format', 'csv', '--category', 'PARENT'],
  ambiguous: ['--category', 'BARE'],
  unknownCategory: ['--category', 'PROJECT/BARE_TYPO'],
  categoryOutside: ['--category', 'PARENT', '--project', 'OTHER'],
  unknownLabel: ['--label', 'LABEL_TYPO'],
};

beforeAll(async () => {
  fixture = await createReportFixture();
  handle = await fixture.database.open();
  db = handle.db;
  ({ today } = (
    await sql<{ today: string }>`select (now() at time zone 'UTC')::date::text as today`.execute(db)
  ).rows[0]!);
  await readMirror();
  await handle.close();
  // A path every project has at its top: a bare path that names several categories.
  const bare = categories.find(
    (c) =>
      c.parent_id === null &&
      categories.filter((k) => k.parent_id === null && k.slug === c.slug).length > 1,
  )!;
  const projects = [...new Set(categories.map((c) => c.project_slug))];
  const fill = (a: string) =>
    a
      .replace('PARENT', `${parent.project_slug}/${pathOf(parent)}`)
      .replace('CHILD', `${child.project_slug}/${pathOf(child)}`)
      .replace('LABEL_LOWER', labelName.toLowerCase())
      .replace('LABEL_TYPO', `${labelName}x`)
      .replace('PROJECT/LABEL', `${parent.project_slug}/${labelName}`)
      .replace('LABEL', labelName)
      .replace('BARE_TYPO', `${bare.slug}x`)
      .replace('BARE', bare.slug)
      .replace('PROJECT', bare.project_slug)
      .replace(
        'OTHER',
        projects.find((p) => p !== parent.project_slug)!,
      );
  for (const [name, args] of Object.entries(RUNS)) {
    runs[name] = await runCliInProcess(
      ['report', ...args.map(fill)],
      databaseEnv(fixture.database),
    );
    if (args.includes('json') && runs[name].code === 0)
      json[name] = JSON.parse(runs[name].stdout) as Report;
  }
  handle = await fixture.database.open();
  db = handle.db;
});

afterAll(async () => {
  await handle?.close();
  await fixture?.sim.close();
  await fixture?.database.drop();
});

describe('the categories section', () => {
  it('runs every report of this file but the refused ones', () => {
    for (const name of Object.keys(RUNS).filter(
      (n) => !/^(ambiguous|unknown|categoryOutside)/.test(n),
    )) {
      expect(runs[name]!.stderr, name).toBe('');
      expect(runs[name]!.code, name).toBe(0);
    }
  });

  it('sums each category with the categories inside it, in tree order', () => {
    const report = json.all!;
    expect(categories.length).toBeGreaterThan(3);
    expect(report.categories.map((c) => c.category_id).sort((a, b) => a - b)).toEqual(
      categories.map((c) => c.id),
    );
    for (const row of report.categories) {
      const category = categories.find((c) => c.id === row.category_id)!;
      const ids = subtree(category);
      const inside = translations.filter((t) => t.category_id !== null && ids.has(t.category_id));
      const total = inside.reduce((sum, t) => sum + t.total, 0);
      const translated = inside.reduce((sum, t) => sum + t.translated, 0);
      expect(row, category.name).toMatchObject({
        project_slug: category.project_slug,
        category_name: category.name,
        path: pathOf(category),
        depth: pathOf(category).split('/').length - 1,
        components: new Set(inside.map((t) => t.component_slug)).size,
        translations: inside.length,
        total,
        translated,
        translated_percent: truncatedPercent(translated, total),
      });
    }
    // A parent comes before what it holds, and holds more than its child alone.
    const at = (id: number) => report.categories.findIndex((c) => c.category_id === id);
    for (const c of categories)
      if (c.parent_id !== null) expect(at(c.parent_id)).toBeLessThan(at(c.id));
    const parentRow = report.categories.find((c) => c.category_id === parent.id)!;
    expect(parentRow.translations).toBeGreaterThan(0);
  });

  it('prints the sections with each category by path and name, and each label', () => {
    const out = runs.table!.stdout;
    expect(out).toContain('Progress by category (each with the categories inside it)');
    expect(out).toMatch(
      new RegExp(`^${parent.project_slug}\\s+${pathOf(parent)}\\s+${parent.name}\\s`, 'm'),
    );
    expect(out).toMatch(new RegExp(`^${child.project_slug}\\s+${pathOf(child)}\\s`, 'm'));
    expect(out).toContain('Labels: strings that carry each label, by language');
    // With --label, the categories are left out: they count whole translations.
    expect(runs.labelTable!.stdout).not.toContain('Progress by category');
  });
});

describe('report --category', () => {
  it('narrows every section to the components of the category and those inside it', async () => {
    const report = json.parent!;
    const ids = subtree(parent);
    const inside = translations.filter((t) => t.category_id !== null && ids.has(t.category_id));
    const components = new Set(inside.map((t) => t.component_slug));
    expect(report.filters).toMatchObject({
      projects: [],
      category: `${parent.project_slug}/${pathOf(parent)}`,
      label: null,
    });
    expect(report.projects.map((p) => p.project_slug)).toEqual([parent.project_slug]);
    expect(new Set(report.components.map((c) => c.component_slug))).toEqual(components);
    const total = inside.reduce((sum, t) => sum + t.total, 0);
    const translated = inside.reduce((sum, t) => sum + t.translated, 0);
    expect(report.totals.progress).toMatchObject({
      translations: inside.length,
      total,
      translated,
    });
    expect(report.languages.reduce((sum, l) => sum + l.total, 0)).toBe(total);
    // Only the categories of its subtree have figures; the others sum nothing.
    for (const c of report.categories) expect(ids.has(c.category_id), c.path).toBe(true);
    for (const row of [...report.movers.flatMap((w) => w.rows), ...report.stalled.rows]) {
      expect(row.project_slug).toBe(parent.project_slug);
      expect(components.has(row.component_slug)).toBe(true);
    }
    const changes = await sql<{ n: string }>`
      select count(*) as n from weblate.changes ch
      where ch.project_slug = ${parent.project_slug}
        and ch.component_slug in (${sql.join([...components].map((c) => sql`${c}`))})
        and ch.timestamp >= (${report.window.from}::date)::timestamp at time zone 'UTC'`.execute(
      db,
    );
    expect(report.totals.activity.changes).toBe(Number(changes.rows[0]!.n));
    const readiness = new Set(report.release_readiness.map((r) => r.project_slug));
    expect([...readiness]).toEqual([parent.project_slug]);
  });

  it('takes a nested category by its whole path', () => {
    const report = json.child!;
    const inside = translations.filter(
      (t) => t.category_id !== null && subtree(child).has(t.category_id),
    );
    expect(report.totals.progress.translations).toBe(inside.length);
    expect(report.filters.category).toBe(`${child.project_slug}/${pathOf(child)}`);
    // Its parent holds the same components, but is not repeated under its own name.
    expect(report.categories.map((c) => c.category_id)).toEqual([...subtree(child)]);
  });

  it('refuses a bare path that several projects have, naming each', () => {
    const result = runs.ambiguous!;
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /--category: "[\w-]+" names \d categories, [\w-]+\/[\w-]+(, [\w-]+\/[\w-]+)+: give one as project\/category/,
    );
  });

  it('refuses a category the mirror does not have, with the nearest one', () => {
    const result = runs.unknownCategory!;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--category: no category "[\w-]+\/[\w-]+x" in the mirror; did you mean "[\w-]+\/[\w-]+"\?/,
    );
  });

  it('refuses a category outside --project', () => {
    const result = runs.categoryOutside!;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--category: no category "[\w/-]+" in project [\w-]+/);
  });

  it('carries the category in the CSV report row', () => {
    const csv = runs.categoryCsv!.stdout;
    const [header, row] = csv.split('\r\n').slice(1, 3);
    const fields = Object.fromEntries(header!.split(',').map((h, i) => [h, row!.split(',')[i]]));
    expect(fields.category).toBe(`${parent.project_slug}/${pathOf(parent)}`);
    expect(fields.label).toBe('');
  });
});

/** Per label and language: strings that carry the label (on themselves or their source unit). */
interface LabelSum {
  label: string;
  project: string;
  total: number;
  translated: number;
  approved: number;
  /** Translated strings per translation id. */
  byTranslation: Map<number, number>;
}

async function labelledStrings(): Promise<Map<string, LabelSum>> {
  const units = (
    await sql<{
      id: string;
      source_unit_id: string | null;
      translation_id: number;
      state: number;
    }>`
      select u.id::text as id, u.source_unit_id::text as source_unit_id, u.translation_id, u.state
      from weblate.units u where u.deleted_at is null`.execute(db)
  ).rows;
  const links = (
    await sql<{ unit_id: string; label_id: number; name: string; project_slug: string }>`
      select ul.unit_id::text as unit_id, ul.label_id, l.name, l.project_slug
      from weblate.unit_labels ul join weblate.labels l on l.id = ul.label_id
      where ul.deleted_at is null and l.deleted_at is null`.execute(db)
  ).rows;
  const live = (
    await sql<{ id: number; language_code: string }>`
      select t.id, t.language_code from weblate.translations t
      join weblate.components c on c.id = t.component_id and c.deleted_at is null
      join weblate.projects p on p.id = c.project_id and p.deleted_at is null
      where t.deleted_at is null and t.is_source is not true`.execute(db)
  ).rows;
  const languageOf = new Map(live.map((t) => [t.id, t.language_code]));
  const labelsOf = new Map<string, typeof links>();
  for (const link of links)
    labelsOf.set(link.unit_id, [...(labelsOf.get(link.unit_id) ?? []), link]);
  const sums = new Map<string, LabelSum>();
  for (const unit of units) {
    const language = languageOf.get(unit.translation_id);
    if (language === undefined) continue;
    const own = labelsOf.get(unit.id) ?? [];
    const inherited = unit.source_unit_id === null ? [] : (labelsOf.get(unit.source_unit_id) ?? []);
    const labels = new Map([...own, ...inherited].map((l) => [l.label_id, l]));
    for (const label of labels.values()) {
      const key = `${label.label_id} ${language}`;
      const sum = sums.get(key) ?? {
        label: label.name,
        project: label.project_slug,
        total: 0,
        translated: 0,
        approved: 0,
        byTranslation: new Map<number, number>(),
      };
      sum.total += 1;
      if (unit.state >= 20) {
        sum.translated += 1;
        sum.byTranslation.set(
          unit.translation_id,
          (sum.byTranslation.get(unit.translation_id) ?? 0) + 1,
        );
      }
      if (unit.state === 30) sum.approved += 1;
      sums.set(key, sum);
    }
  }
  return sums;
}

describe('the labels section', () => {
  it('counts the strings that carry each label, per language, with the recorded history', async () => {
    const expected = await labelledStrings();
    const report = json.all!;
    expect(expected.size).toBeGreaterThan(3);
    expect(report.labels).toHaveLength(expected.size);
    const historyDay = addDays(today, -LABEL_HISTORY_DAYS);
    for (const row of report.labels) {
      const sum = expected.get(`${row.label_id} ${row.language_code}`)!;
      expect(sum, `${row.label_name} ${row.language_code}`).toBeDefined();
      // Nine days ago: one string fewer translated in each translation with an even id.
      const then = [...sum.byTranslation].reduce(
        (n, [id, translated]) => n + (id % 2 === 0 ? Math.max(0, translated - 1) : translated),
        0,
      );
      expect(row).toMatchObject({
        label_name: sum.label,
        project_slug: sum.project,
        total: sum.total,
        translated: sum.translated,
        approved: sum.approved,
        translated_percent: truncatedPercent(sum.translated, sum.total),
        approved_percent: sum.total === 0 ? 0 : truncatedPercent(sum.approved, sum.total),
        history_from_day: historyDay,
        translated_percent_then: truncatedPercent(then, sum.total),
      });
    }
  });
});

describe('report --label', () => {
  it('gives the progress, languages and history of the strings that carry it, in any case', async () => {
    const expected = [...(await labelledStrings()).entries()].filter(
      ([, s]) => s.label.toLowerCase() === labelName.toLowerCase(),
    );
    const report = json.label!;
    expect(report.filters.label).toBe(labelName.toLowerCase());
    expect(report.matched_labels.length).toBeGreaterThan(1);
    const total = expected.reduce((n, [, s]) => n + s.total, 0);
    const translated = expected.reduce((n, [, s]) => n + s.translated, 0);
    expect(report.totals.progress).toMatchObject({
      total,
      translated,
      translated_percent: truncatedPercent(translated, total),
    });
    const byLanguage = new Map<string, number>();
    for (const [key, s] of expected) {
      const language = key.split(' ')[1]!;
      byLanguage.set(language, (byLanguage.get(language) ?? 0) + s.total);
    }
    expect(Object.fromEntries(report.languages.map((l) => [l.language_code, l.total]))).toEqual(
      Object.fromEntries(byLanguage),
    );
    // History: the fixture's day and the sync's, per language, the source language left out.
    const days = new Set(report.language_history.map((d) => d.day));
    expect(days).toEqual(new Set([addDays(today, -LABEL_HISTORY_DAYS), ...days]));
    expect(new Set(report.language_history.map((d) => d.language_code))).toEqual(
      new Set(byLanguage.keys()),
    );
    const last = report.language_history.filter((d) => d.day === today);
    expect(last.reduce((n, d) => n + d.total, 0)).toBe(total);
    expect(report.left_out).toEqual([...LABEL_LEFT_OUT]);
    expect(report.projects).toEqual([]);
    expect(report.activity).toEqual([]);
    expect(report.new_work).toEqual([]);
  });

  it("takes project/label for one project's label", () => {
    const report = json.labelInProject!;
    expect(report.matched_labels).toEqual([`${parent.project_slug}/${labelName}`]);
    expect(new Set(report.labels.map((l) => l.project_slug))).toEqual(
      new Set([parent.project_slug]),
    );
  });

  it('combines with --category: the strings of the category that carry the label', () => {
    const report = json.labelInCategory!;
    const ids = subtree(parent);
    const inCategory = new Set(
      translations
        .filter((t) => t.category_id !== null && ids.has(t.category_id))
        .map((t) => t.translation_id),
    );
    expect(report.filters).toMatchObject({
      label: labelName,
      category: `${parent.project_slug}/${pathOf(parent)}`,
    });
    expect(report.totals.progress.total).toBeLessThanOrEqual(
      json.labelInProject!.totals.progress.total,
    );
    expect(report.totals.progress.translations).toBeLessThanOrEqual(inCategory.size);
  });

  it('says in one line which sections it leaves out, naming the label', () => {
    const out = runs.labelTable!.stdout;
    expect(out).toContain(`Label "${labelName}" (`);
    expect(out).toContain(
      'the sections that count whole translations or changes cannot be narrowed to a label and are left out.',
    );
    expect(out).toContain('Progress by language');
    expect(out).not.toContain('Biggest movers');
    expect(out).not.toContain('Contributors as Weblate credits them');
  });

  it('carries the label, the labels matched and the sections left out in the CSV report row', () => {
    const lines = runs.labelCsv!.stdout.split('\r\n');
    expect(lines[1]).toBe(
      'generated_at,instance,projects,language,since,category,label,matched_labels,left_out,window_from,window_to',
    );
    expect(lines[2]).toContain(`,${labelName},`);
    expect(lines[2]).toContain(LABEL_LEFT_OUT.join(' '));
    expect(runs.labelCsv!.stdout).toContain('\r\n# labels\r\n');
  });

  it('refuses a label the mirror does not have, with the nearest one', () => {
    const result = runs.unknownLabel!;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--label: no label "${labelName}x" in the mirror; did you mean "${labelName}"?`,
    );
  });

  it('refuses an empty label or a malformed category path', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--label', ''], /--label needs a label name/],
      [['--category', 'a b'], /--category takes a category path such as my-app\/docs/],
      [['--category', 'a//b'], /--category takes a category path/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(['report', ...args], {})));
    results.forEach((result, i) => {
      expect(result.code, cases[i]![0].join(' ')).toBe(2);
      expect(result.stderr).toMatch(cases[i]![1]);
    });
  });
});

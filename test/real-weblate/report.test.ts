import { isDeepStrictEqual } from 'node:util';

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { Report } from '../../src/report/model.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import {
  acceptGermanSuggestions,
  approveAndMarkForEditing,
  autoTranslateAndPostEdit,
} from './harness/edits.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE, tierIsAtLeast } from './harness/release.ts';
import { findUnit, SEED, STATE, unitsOf } from './harness/seed.ts';
import { uploadAppFile } from './harness/seed-files.ts';
import {
  readContributorStats,
  readCredits,
  type WeblateContributorCounts,
  type WeblateCredits,
  weblateWindowOf,
} from './harness/weblate-reports.ts';
import {
  type Figures,
  figuresOf,
  less,
  readProjectStatistics,
  sum,
  type WeblateState,
} from './harness/weblate-statistics.ts';

const weblate = useWeblate('report');
const PROJECT = SEED.aurora.slug;

/** People and their credited changes in a language (or all) of Weblate's credits. */
function creditedPeople(credits: WeblateCredits): Record<string, number> {
  const people: Record<string, number> = {};
  for (const entry of credits)
    for (const authors of Object.values(entry))
      for (const a of authors) people[a.username] = (people[a.username] ?? 0) + a.change_count;
  return people;
}

function reportPeople(report: Report, figure: 'credited_changes' | 'credited_words') {
  expect(report.contributors.matching).toBe(report.contributors.rows.length);
  return Object.fromEntries(report.contributors.rows.map((r) => [r.author_name, r[figure]]));
}

/**
 * The report of a mirror kept current by an incremental sync, against what Weblate itself says
 * at the same moment: its statistics of each translation, component, language and the project,
 * its credits per person and language, and (since 2026) its contributor statistics. The edits
 * are the tier's own (incremental.test.ts, history.test.ts), made through Weblate's API and its
 * own code paths. Weblate's time range is always the report's window of whole UTC days.
 */
describe(`the report after edits, against a real Weblate ${TIER_RELEASE}`, () => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  let state: WeblateState;
  /** First UTC day of the project's changes (the seed's, a day or more old), and of the edits. */
  let firstDay: string;
  let editsDay: string;
  const reports = new Map<string, Report>();
  /** What was compared, for the line the file prints at its end. */
  const compared: Record<string, number> = {};

  async function reportFor(since: string, language: string | null = null): Promise<Report> {
    const key = `${since} ${language}`;
    let report = reports.get(key);
    if (report === undefined) {
      report = await buildReport(db, { projects: [PROJECT], language, since, limit: 1000 });
      reports.set(key, report);
    }
    return report;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    db = (await database.migrated()).db;
    const first = await syncWeblate(weblate.current, db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
    editsDay = new Date().toISOString().slice(0, 10);
    await editThroughWeblate();
    const second = await syncWeblate(weblate.current, db);
    expect([second.mode, second.status, second.error]).toEqual(['incremental', 'succeeded', null]);
    state = await readProjectStatistics(weblate.current.admin, PROJECT);
    const days = await sql<{ first: string }>`
      select (min(timestamp) at time zone 'UTC')::date::text as first
      from weblate.changes where project_slug = ${PROJECT}`.execute(db);
    firstDay = days.rows[0]!.first;
    expect(firstDay < editsDay).toBe(true);
  });
  afterAll(async () => {
    process.stdout.write(
      `report against Weblate ${TIER_RELEASE}: ${Object.entries(compared)
        .map(([what, n]) => `${n} ${what}`)
        .join(', ')}\n`,
    );
    await database?.drop();
  });

  /** Each translation's figures: Weblate's (its statistics) and the report's, by `component/language`. */
  async function translationFigures() {
    const expected: Record<string, Figures> = {};
    const actual: Record<string, Figures> = {};
    const languages = new Set<string>();
    for (const [component, { translations }] of state.components)
      for (const [language, figures] of translations) {
        expected[`${component}/${language}`] = figuresOf(figures);
        languages.add(language);
      }
    for (const language of languages) {
      // With a language, the report's rows of components are its translations.
      for (const row of (await reportFor(firstDay, language)).components)
        actual[`${row.component_slug}/${language}`] = figuresOf(row);
    }
    return { expected, actual };
  }

  /** Credited changes by language and person: Weblate's credits and the report's. */
  async function creditsByLanguage() {
    const expected: Record<string, Record<string, number>> = {};
    const actual: Record<string, Record<string, number>> = {};
    for (const code of state.languages.keys()) {
      const report = await reportFor(firstDay, code);
      const window = weblateWindowOf(report.window);
      const credits = await readCredits(weblate.current.admin, PROJECT, window, code);
      expected[code] = creditedPeople(credits);
      actual[code] = reportPeople(report, 'credited_changes');
    }
    return { expected, actual };
  }

  it("has each translation's figures as Weblate's statistics of it", async () => {
    const { expected, actual } = await translationFigures();
    compared.translations = Object.keys(expected).length;
    expect(compared.translations).toBeGreaterThan(10);
    expect(actual).toEqual(expected);
  });

  it("has each component's figures as Weblate's translations of it add up, less the source", async () => {
    // Weblate serves no figures of a component as a whole: its statistics endpoint lists the
    // component's translations, which ComponentStats sums, its source translation included.
    const report = await reportFor(firstDay);
    const actual = Object.fromEntries(
      report.components.map((r) => [r.component_slug, figuresOf(r)]),
    );
    const expected = Object.fromEntries(
      [...state.components].map(([slug, c]) => [
        slug,
        sum([...c.translations.values()].map(figuresOf)),
      ]),
    );
    compared.components = Object.keys(expected).length;
    expect(actual).toEqual(expected);
  });

  it("has the project's figures as Weblate's statistics of it, less its source translations", async () => {
    const report = await reportFor(firstDay);
    const sources = [...state.components.values()].map((c) => c.source);
    const weblateFigures = figuresOf(state.project);
    expect(report.projects.map(figuresOf)).toEqual([less(weblateFigures, sources)]);
    // Weblate's own percentages count the source strings as translated: higher than the report's.
    expect(weblateFigures.translated_percent).toBeGreaterThan(
      report.projects[0]!.translated_percent!,
    );
    compared.projects = 1;
  });

  it("has each language's figures as Weblate's statistics of the project's language", async () => {
    const report = await reportFor(firstDay);
    const actual = Object.fromEntries(report.languages.map((r) => [r.language_code, figuresOf(r)]));
    const expected: Record<string, Figures> = {};
    const components = [...state.components.values()];
    for (const [code, figures] of state.languages) {
      // A source language's figures are its source translations' (and any translation into it).
      const sources = components.filter((c) => c.sourceLanguage === code).map((c) => c.source);
      const rest = less(figuresOf(figures), sources);
      if (components.some((c) => c.translations.has(code))) expected[code] = rest;
      else expect(rest, code).toEqual(sum([]));
    }
    compared.languages = Object.keys(expected).length;
    expect(compared.languages).toBeGreaterThan(3);
    expect(actual).toEqual(expected);
  });

  it("credits each person and language as Weblate's credits report, over whole UTC days", async () => {
    const { expected, actual } = await creditsByLanguage();
    compared['people × languages credited'] = Object.values(expected).reduce(
      (n, people) => n + Object.keys(people).length,
      0,
    );
    expect(compared['people × languages credited']).toBeGreaterThan(10);
    expect(actual).toEqual(expected);
  });

  it("credits each person with Weblate's credits of the edits' day alone", async () => {
    const report = await reportFor(editsDay);
    const window = weblateWindowOf(report.window);
    const expected = creditedPeople(await readCredits(weblate.current.admin, PROJECT, window));
    expect(Object.keys(expected).sort()).toEqual(['admin', 'alice', 'bob']);
    expect(reportPeople(report, 'credited_changes')).toEqual(expected);
    // The window leaves the seed's days out: over the whole history everyone has more.
    const whole = reportPeople(await reportFor(firstDay), 'credited_changes');
    for (const [person, changes] of Object.entries(expected))
      expect(whole[person], person).toBeGreaterThan(changes);
  });

  if (tierIsAtLeast('2026')) {
    it("has each person's credited changes and words as Weblate's contributor statistics", async () => {
      const api = weblate.current.admin;
      const users = await api.listAll<{ username: string; email: string }>('users/');
      const usernameOf = new Map(users.map((u) => [u.email, u.username]));
      const byPerson = (rows: WeblateContributorCounts[], figure: 'count' | 'words') =>
        Object.fromEntries(rows.map((r) => [usernameOf.get(r.email) ?? r.email, r[figure]]));
      let fewerWhenUnique = 0;
      for (const since of [firstDay, editsDay]) {
        const report = await reportFor(since);
        const window = weblateWindowOf(report.window);
        const all = await readContributorStats(api, PROJECT, window, 'all');
        expect(reportPeople(report, 'credited_changes')).toEqual(byPerson(all, 'count'));
        expect(reportPeople(report, 'credited_words')).toEqual(byPerson(all, 'words'));
        // Weblate's default counts a string once per person and kind (new, approved, edited).
        const unique = byPerson(
          await readContributorStats(api, PROJECT, window, 'unique'),
          'count',
        );
        for (const [person, changes] of Object.entries(reportPeople(report, 'credited_changes'))) {
          expect(unique[person] ?? 0, person).toBeLessThanOrEqual(changes);
          if ((unique[person] ?? 0) < changes) fewerWhenUnique += 1;
        }
        compared['contributor statistics windows'] =
          (compared['contributor statistics windows'] ?? 0) + 1;
      }
      // Alice corrected one string twice on the edits' day: one edit, by default.
      expect(fewerWhenUnique).toBeGreaterThan(0);
    });
  } else {
    it('has no contributor statistics of Weblate 5.14.3 to compare with: it has no reports API', async () => {
      const api = weblate.current.admin;
      for (const method of ['GET', 'POST']) {
        const answer = await api
          .request(
            method,
            `projects/${PROJECT}/reports/`,
            method === 'POST' ? { kind: 'contributor_stats' } : undefined,
          )
          .then((r) => String(r.status))
          .catch((err: Error) => err.message);
        expect(answer, method).toMatch(/answered 404/);
      }
      // Its credits it serves, through an endpoint of their own.
      const report = await reportFor(editsDay);
      await expect(readCredits(api, PROJECT, weblateWindowOf(report.window))).resolves.not.toEqual(
        [],
      );
    });
  }

  it('notices one string and one credited change off (the comparisons can fail)', async () => {
    await sql`update weblate.translations set translated = translated - 1
      where project_slug = ${PROJECT} and component_slug = 'app' and language_code = 'de'`.execute(
      db,
    );
    await sql`update weblate.changes set author_name = 'bob'
      where id = (select max(id) from weblate.changes
                  where author_name = 'alice' and language_code = 'de' and action in (2, 5))`.execute(
      db,
    );
    reports.clear();
    const differing = <T>({
      expected,
      actual,
    }: {
      expected: Record<string, T>;
      actual: Record<string, T>;
    }) => Object.keys(expected).filter((key) => !isDeepStrictEqual(expected[key], actual[key]));
    expect(differing(await translationFigures())).toEqual(['app/de']);
    expect(differing(await creditsByLanguage())).toEqual(['de']);
  });
});

/**
 * The tier's edits, through Weblate's API and its own code: translating (one string thrice),
 * automatic translation with a post-edit and an approval of its output, approving, marking for
 * editing, suggestions uploaded in Bob's name and accepted, a comment, a string added to the
 * source and a translation file uploaded.
 */
async function editThroughWeblate(): Promise<void> {
  const api = weblate.current.admin;
  const de = await unitsOf(api, 'aurora/app/de');
  const lastSynced = findUnit(de, 'Last synced {date}').id;
  // Alice translates a string, then corrects it twice.
  for (const target of [
    'Zuletzt sync {date}',
    'Zuletzt synchronisiert {date}',
    'Zuletzt synchronisiert: {date}',
  ])
    await weblate.current.as('alice').patch(`units/${lastSynced}/`, {
      target: [target],
      state: STATE.translated,
    });
  await autoTranslateAndPostEdit(weblate.current);
  await approveAndMarkForEditing(api);
  await acceptGermanSuggestions(weblate.current, {
    author_email: 'bob@example.org',
    author_name: 'Bob Bäcker',
  });
  const sk = await unitsOf(api, 'aurora/app/sk');
  await weblate.current.as('bob').post(`units/${findUnit(sk, 'Save').id}/comments/`, {
    scope: 'translation',
    comment: 'Slovak needs “Uložiť” here.',
  });
  await api.post('translations/aurora/app/en/units/', { source: ['A string added later'] });
  await uploadAppFile(api, 'aurora/app/sk', {
    plural: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
    targets: { Save: 'Uložiť', Cancel: 'Zrušiť' },
    method: 'translate',
  });
}

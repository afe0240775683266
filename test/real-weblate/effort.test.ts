import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import type { TierApi } from './harness/api.ts';
import { acceptGermanSuggestions, approveAndMarkForEditing } from './harness/edits.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE, tierIsAtLeast } from './harness/release.ts';
import { findUnit, SEED, STATE, translationPath, unitsOf } from './harness/seed.ts';
import { makeReport } from './harness/weblate-reports.ts';

const weblate = useWeblate('effort');
const PROJECTS = [SEED.aurora.slug, SEED.borealis.slug, SEED.cirrus.slug];
const PROJECT = SEED.aurora.slug;

/** Weblate's translator work: its user-days, and the analysis's counts and metrics. */
interface WeblateWork {
  days: Array<[string, string, number, number]>;
  user_days: { included: number; excluded: number };
  metrics: Partial<
    Record<'strings' | 'words', Record<'median' | 'average' | 'p75' | 'p90', number>>
  >;
}

interface Limits {
  min_changes?: number;
  max_changes?: number;
  max_words?: number;
}

/** One bucket of Weblate's cost estimate (and its total, without slug and rate). */
interface WeblateBucket {
  slug?: string;
  count: number;
  words: number;
  chars: number;
}

interface MirrorBucket {
  bucket: string;
  strings: string;
  words: string;
  chars: string;
}

/**
 * Translator work and the cost estimate of a mirror kept current by an incremental sync,
 * against what Weblate computes at the same moment: its own translator_analysis code through
 * Django (on 5.14.3, which has none, the same queries copied from 2026.10.1; tier_ops.py), and
 * on 2026.10.1 its reports API. The cost buckets are also derived by hand from the API's units.
 */
describe(`translator work and cost against a real Weblate ${TIER_RELEASE}`, () => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  let firstDay: string;
  let editsDay: string;
  let endDay: string;
  const compared: Record<string, number> = {};
  const count = (what: string) => (compared[what] = (compared[what] ?? 0) + 1);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = (await database.migrated()).db;
    const first = await syncWeblate(weblate.current, db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
    editsDay = new Date().toISOString().slice(0, 10);
    await editThroughWeblate();
    const second = await syncWeblate(weblate.current, db);
    expect([second.mode, second.status, second.error]).toEqual(['incremental', 'succeeded', null]);
    const days = await sql<{ first: string; end: string }>`
      select (min(timestamp) at time zone 'UTC')::date::text as first,
             ((max(timestamp) at time zone 'UTC')::date + 1)::text as end
      from weblate.changes`.execute(db);
    firstDay = days.rows[0]!.first;
    endDay = days.rows[0]!.end;
    expect(firstDay < editsDay).toBe(true);
  });
  afterAll(async () => {
    process.stdout.write(
      `effort against Weblate ${TIER_RELEASE}: ${Object.entries(compared)
        .map(([what, n]) => `${n} ${what}`)
        .join(', ')}\n`,
    );
    await database?.drop();
  });

  interface WorkAsked {
    from: string;
    language: string;
    limits: Limits;
    username?: string;
  }

  /** Weblate's own analyses of the project over [from, endDay), through Django, in one go. */
  async function weblateWorks(asked: WorkAsked[]): Promise<WeblateWork[]> {
    const answers = await weblate.current.ops(
      asked.map(({ from, language, limits, username }) => ({
        op: 'translator_work' as const,
        args: {
          project: PROJECT,
          start: `${from}T00:00:00+00:00`,
          end: `${endDay}T00:00:00+00:00`,
          language,
          ...(username === undefined ? {} : { username }),
          ...limits,
        },
      })),
    );
    return answers as WeblateWork[];
  }

  async function weblateWork(from: string, language: string, limits: Limits) {
    return (await weblateWorks([{ from, language, limits }]))[0]!;
  }

  /** The mirror's row of translator_work (or of one person's), in Weblate's shape. */
  async function mirrorWork(from: string, language: string, limits: Limits, username?: string) {
    const args = sql`${`${from}T00:00:00Z`}::timestamptz, ${`${endDay}T00:00:00Z`}::timestamptz,
      array[${PROJECT}]::text[], only_language => ${language === '' ? null : language}::text,
      min_changes => ${limits.min_changes ?? 5}::integer,
      max_changes => ${limits.max_changes ?? 1000}::integer,
      max_words => ${limits.max_words ?? 10000}::integer`;
    const query =
      username === undefined
        ? sql<Record<string, string | null>>`select * from weblate.translator_work(${args})`
        : sql<
            Record<string, string | null>
          >`select * from weblate.translator_work_by_person(${args})
            where username = ${username}`;
    const row = (await query.execute(db)).rows[0];
    if (row === undefined) return { user_days: { included: 0, excluded: 0 }, metrics: {} };
    const metric = (what: 'strings' | 'words') =>
      row[`${what}_median`] === null
        ? undefined
        : {
            median: Number(row[`${what}_median`]),
            average: Number(row[`${what}_mean`]),
            p75: Number(row[`${what}_p75`]),
            p90: Number(row[`${what}_p90`]),
          };
    const strings = metric('strings');
    const words = metric('words');
    return {
      user_days: {
        included: Number(row.user_days_included),
        excluded: Number(row.user_days_excluded),
      },
      metrics: strings === undefined || words === undefined ? {} : { strings, words },
      row,
    };
  }

  /** Weblate computes in binary floating point (2.8000000000000003), the mirror exactly. */
  function expectSameWork(
    actual: Awaited<ReturnType<typeof mirrorWork>>,
    expected: Pick<WeblateWork, 'user_days' | 'metrics'>,
    what: string,
  ): void {
    expect(actual.user_days, what).toEqual(expected.user_days);
    expect(Object.keys(actual.metrics).sort(), what).toEqual(Object.keys(expected.metrics).sort());
    for (const figure of ['strings', 'words'] as const)
      for (const [name, value] of Object.entries(expected.metrics[figure] ?? {}))
        expect(actual.metrics[figure]![name as 'median'], `${what} ${figure} ${name}`).toBeCloseTo(
          value,
          9,
        );
  }

  const LIMITS: Array<[string, Limits]> = [
    ['one change a day', { min_changes: 1 }],
    ["Weblate's defaults", {}],
    ['at most 3 changes and 20 words', { min_changes: 1, max_changes: 3, max_words: 20 }],
  ];

  it("has Weblate's translator work of the project, per language and window", async () => {
    const asked = [firstDay, editsDay].flatMap((from) =>
      ['', 'de', 'cs'].flatMap((language) =>
        LIMITS.map(([name, limits]) => ({ from, language, limits, name })),
      ),
    );
    const answers = await weblateWorks(asked);
    let included = 0;
    for (const [i, { from, language, limits, name }] of asked.entries()) {
      const what = `${from} ${language || 'all'} ${name}`;
      const expected = answers[i]!;
      const actual = await mirrorWork(from, language, limits);
      expectSameWork(actual, expected, what);
      // Every author's record says whether Weblate counts them (the admin token reads it).
      expect(actual.row?.authors_unverified, what).toBe('0');
      included += expected.user_days.included;
      count('windows');
    }
    // The comparisons compare something: user-days were included, on the edits' day too.
    expect(included).toBeGreaterThan(10);
    const edits = answers[asked.findIndex((a) => a.from === editsDay && a.language === '')]!;
    // Alice's three strings and correction; Bob's two and his two suggestions accepted.
    expect(edits.days.map(([, person, strings]) => [person, strings])).toEqual([
      ['alice', 4],
      ['bob', 4],
    ]);
  });

  it("has each person's translator work and user-days as Weblate's", async () => {
    const limits = { min_changes: 1 };
    const whole = await weblateWork(firstDay, '', limits);
    const people = [...new Set(whole.days.map((d) => d[1]))].sort();
    expect(people).toEqual(expect.arrayContaining(['alice', 'bob']));
    const answers = await weblateWorks(
      people.map((username) => ({ from: firstDay, language: '', limits, username })),
    );
    for (const [i, person] of people.entries()) {
      expectSameWork(await mirrorWork(firstDay, '', limits, person), answers[i]!, person);
      count('people');
    }
    const days = await sql<{ day: string; username: string; strings: string; words: string }>`
      select day::text, username, strings, words
      from weblate.translator_work_days(${`${firstDay}T00:00:00Z`}::timestamptz,
        ${`${endDay}T00:00:00Z`}::timestamptz, array[${PROJECT}]::text[])
      order by day, username`.execute(db);
    expect(days.rows.map((r) => [r.day, r.username, Number(r.strings), Number(r.words)])).toEqual(
      whole.days,
    );
  });

  if (tierIsAtLeast('2026')) {
    it("equals Weblate's translator_work report", async () => {
      for (const [name, limits] of LIMITS)
        for (const language of ['', 'de']) {
          const report = (await makeReport(weblate.current.admin, PROJECT, {
            kind: 'translator_work',
            start: `${firstDay}T00:00:00+00:00`,
            end: `${endDay}T00:00:00+00:00`,
            language,
            min_changes: limits.min_changes ?? 5,
            max_changes: limits.max_changes ?? 1000,
            max_words: limits.max_words ?? 10000,
          })) as Pick<WeblateWork, 'user_days' | 'metrics'>;
          expectSameWork(
            await mirrorWork(firstDay, language, limits),
            report,
            `report ${language} ${name}`,
          );
          count('translator_work reports');
        }
    });
  }

  /** The mirror's cost buckets of a project, by slug. */
  async function mirrorCost(project: string, language: string | null = null) {
    const result = await sql<MirrorBucket>`
      select bucket, strings::text, words::text, chars::text
      from weblate.cost_estimate(array[${project}]::text[], only_language => ${language}::text)
      order by position`.execute(db);
    return Object.fromEntries(
      result.rows.map((r) => [
        r.bucket,
        { count: Number(r.strings), words: Number(r.words), chars: Number(r.chars) },
      ]),
    );
  }

  it('prices repetitions as derived by hand from the API’s strings, and every string left once', async () => {
    for (const project of PROJECTS) {
      const expected = await deriveCost(weblate.current.admin, project);
      const actual = await mirrorCost(project);
      expect(actual.repetition, project).toEqual(expected.repetition);
      expect(sumOf(actual, PRICED), project).toEqual(expected.priced);
      expect(actual.total, project).toEqual(sumOf(expected, ['repetition', 'priced']));
      count('projects priced by hand');
    }
    // borealis has repetitions (guide and faq are made of the same files).
    const borealis = await deriveCost(weblate.current.admin, SEED.borealis.slug);
    expect(borealis.repetition.count).toBeGreaterThan(0);
    // And the strings the edits added match its memory: web's Installation in French and
    // Ukrainian exactly (guide and faq translate it); Installations at 96 (LCS 12 of 13 + 12);
    // guide's Documentation in French under another context (web's nav.docs): 100 × 0.95.
    const matched = await sql<{ bucket: string; strings: string }>`
      select bucket, strings::text from weblate.cost_estimate(array[${SEED.borealis.slug}])
      where bucket in ('tm_100', 'tm_fuzzy') order by position`.execute(db);
    expect(matched.rows.map((r) => [r.bucket, r.strings])).toEqual([
      ['tm_100', '2'],
      ['tm_fuzzy', '3'],
    ]);
  });

  if (tierIsAtLeast('2026')) {
    it("has the cost estimate's buckets as Weblate's report, or the documented relation", async () => {
      let matches = 0;
      for (const project of PROJECTS)
        for (const language of ['', 'fr', 'de']) {
          const what = `${project} ${language || 'all'}`;
          const report = (await makeReport(weblate.current.admin, project, {
            kind: 'cost_estimate',
            q: 'state:<translated',
            tm_threshold: 80,
            language,
          })) as { buckets: Required<WeblateBucket>[]; total: WeblateBucket };
          const expected = Object.fromEntries(
            report.buckets.map((b) => [b.slug, { count: b.count, words: b.words, chars: b.chars }]),
          );
          const actual = await mirrorCost(project, language === '' ? null : language);
          // Equal: repetitions and the total; after them, the strings priced.
          expect(actual.repetition, what).toEqual(expected.repetition);
          expect(actual.total, what).toEqual({
            count: report.total.count,
            words: report.total.words,
            chars: report.total.chars,
          });
          expect(sumOf(actual, PRICED), what).toEqual(sumOf(expected, PRICED));
          // Weblate's memory holds at least what the mirror finds: as many exact matches or
          // more, as many exact or fuzzy matches or more.
          expect(actual.tm_100!.count, what).toBeLessThanOrEqual(expected.tm_100!.count);
          expect(sumOf(actual, ['tm_100', 'tm_fuzzy']).count, what).toBeLessThanOrEqual(
            sumOf(expected, ['tm_100', 'tm_fuzzy']).count,
          );
          // Where the matches agree, so do the strings needing editing and the new ones.
          if (
            actual.tm_100!.count === expected.tm_100!.count &&
            actual.tm_fuzzy!.count === expected.tm_fuzzy!.count
          ) {
            expect(actual, what).toEqual(withTotal(expected, report.total));
            matches += actual.tm_100!.count + actual.tm_fuzzy!.count;
            count('cost estimates equal');
          } else count('cost estimates in relation');
        }
      expect(matches).toBeGreaterThan(0);
    });
  }

  it('notices a user-day and a repetition off (the comparisons can fail)', async () => {
    const expected = await weblateWork(editsDay, '', { min_changes: 1 });
    await sql`update weblate.changes set author_name = 'carol'
      where id = (select max(id) from weblate.changes
                  where project_slug = ${PROJECT} and action in (2, 5, 7))`.execute(db);
    const actual = await mirrorWork(editsDay, '', { min_changes: 1 });
    expect(() => expectSameWork(actual, expected, 'edited')).toThrow();
    const derived = await deriveCost(weblate.current.admin, PROJECT);
    // Two Slovak strings left of app made one source: one more repetition.
    await sql`with two as (
        select u.id, u.source, u.context from weblate.units u
        join weblate.translations t on t.id = u.translation_id
        where t.project_slug = ${PROJECT} and t.component_slug = 'app' and t.language_code = 'sk'
          and u.state = 0 and cardinality(u.source) = 1
        order by u.id limit 2)
      update weblate.units u set source = f.source, context = f.context
      from (select * from two order by id limit 1) f
      where u.id = (select max(id) from two)`.execute(db);
    const repetition = (await mirrorCost(PROJECT)).repetition!;
    expect(repetition.count).toBe(derived.repetition.count + 1);
  });

  function withTotal(
    buckets: Record<string, WeblateBucket>,
    total: WeblateBucket,
  ): Record<string, WeblateBucket> {
    return {
      ...Object.fromEntries(
        Object.entries(buckets).map(([slug, b]) => [
          slug,
          { count: b.count, words: b.words, chars: b.chars },
        ]),
      ),
      total: { count: total.count, words: total.words, chars: total.chars },
    };
  }

  /**
   * The tier's edits on the edits' day: Alice translates three German strings and corrects one,
   * Bob translates two Slovak ones, admin approves one and marks another for editing, adds
   * three source strings to borealis that its memory matches, and German suggestions in Bob's
   * name are accepted.
   */
  async function editThroughWeblate(): Promise<void> {
    const api = weblate.current.admin;
    const alice = weblate.current.as('alice');
    const de = (await unitsOf(api, 'aurora/app/de')).filter(
      (u) => u.state === STATE.empty && u.source.length === 1,
    );
    expect(de.length).toBeGreaterThanOrEqual(3);
    for (const unit of de.slice(0, 3))
      await alice.patch(`units/${unit.id}/`, {
        target: [`${unit.source[0]} (de)`],
        state: STATE.translated,
      });
    await alice.patch(`units/${de[0]!.id}/`, {
      target: [`${de[0]!.source[0]} (DE)`],
      state: STATE.translated,
    });
    const sk = await unitsOf(api, 'aurora/app/sk');
    for (const source of ['Save', 'Settings'])
      await weblate.current.as('bob').patch(`units/${findUnit(sk, source).id}/`, {
        target: [`${source} (sk)`],
        state: STATE.translated,
      });
    await approveAndMarkForEditing(api);
    await api.post('translations/borealis/web/en/units/', {
      key: 'intro.install',
      value: ['Installation'],
    });
    await api.post('translations/borealis/web/en/units/', {
      key: 'intro.installs',
      value: ['Installations'],
    });
    await api.post(`translations/${translationPath('borealis', 'handbooks/guide')}/units/`, {
      source: ['Documentation'],
    });
    await acceptGermanSuggestions(weblate.current, {
      author_email: 'bob@example.org',
      author_name: 'Bob Bäcker',
    });
  }
});

const PRICED = ['tm_100', 'tm_fuzzy', 'needs_editing', 'new'];

function sumOf(buckets: Record<string, WeblateBucket | undefined>, slugs: string[]): WeblateBucket {
  const sum = { count: 0, words: 0, chars: 0 };
  for (const slug of slugs) {
    const b = buckets[slug];
    if (b === undefined) throw new Error(`no bucket ${slug}`);
    sum.count += b.count;
    sum.words += b.words;
    sum.chars += b.chars;
  }
  return sum;
}

interface ApiUnit {
  id: number;
  source: string[];
  context: string;
  state: number;
  num_words: number;
  priority: number;
  position: number;
}

/**
 * Weblate's repetitions, by hand from the API: the strings left (state under 20) of the
 * project's target-language translations, walked by priority (highest first), position and
 * id; each source (source language, language, text, context) is priced at its first string,
 * a repetition after. Characters are code points of the forms joined by two U+001E.
 */
async function deriveCost(
  api: TierApi,
  project: string,
): Promise<{ repetition: WeblateBucket; priced: WeblateBucket }> {
  const left: Array<ApiUnit & { key: string }> = [];
  const translations = await api.listAll<{
    language_code: string;
    is_source: boolean;
    units_list_url: string;
    component: { project: { slug: string }; source_language: { code: string } };
  }>('translations/');
  for (const t of translations) {
    if (t.is_source || t.component.project.slug !== project) continue;
    const units = await api.listAll<ApiUnit>(new URL(t.units_list_url));
    for (const u of units.filter((x) => x.state < STATE.translated))
      left.push({
        ...u,
        key: JSON.stringify([
          t.component.source_language.code,
          t.language_code,
          u.source.join('\x1e\x1e'),
          u.context,
        ]),
      });
  }
  left.sort((a, b) => b.priority - a.priority || a.position - b.position || a.id - b.id);
  const seen = new Set<string>();
  const repetition = { count: 0, words: 0, chars: 0 };
  const priced = { count: 0, words: 0, chars: 0 };
  for (const u of left) {
    const bucket = seen.has(u.key) ? repetition : priced;
    seen.add(u.key);
    bucket.count += 1;
    bucket.words += u.num_words;
    bucket.chars += Array.from(u.source.join('\x1e\x1e')).length;
  }
  return { repetition, priced };
}

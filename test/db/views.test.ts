import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { migrateDownToZero } from '../../src/db/migrator.ts';
import { listActivityDaily, listContributors } from '../../src/db/queries/report-activity.ts';
import {
  listCompletionForecast,
  listLanguageCompletionForecast,
  listStalledTranslations,
} from '../../src/db/queries/report-backlog.ts';
import {
  listComponentProgress,
  listLanguageProgress,
  listLanguageProgressDaily,
  listProjectProgress,
  listProjectProgressDaily,
  listTranslationProgress,
} from '../../src/db/queries/report-progress.ts';
import {
  createTestDatabase,
  DATABASE_KIND,
  TEST_DATABASE_URL,
  type TestDatabase,
  useTestDatabases,
} from '../helpers/database.ts';
import { type DatabaseClock, readDatabaseClock } from '../helpers/database-clock.ts';

/**
 * The reporting views of migration 0003 over a small hand-built mirror whose every
 * expected figure is worked out by hand in the comments. Times are relative to the
 * database's clock: `day(n)` is n UTC days before today, `ago(d, h)` d days and h hours
 * before now.
 */

let database: TestDatabase;
let handle: DbHandle;
let db: Kysely<Database>;
let clock: DatabaseClock;

const day = (n: number) => clock.day(n);
const at = (n: number, time?: string) => clock.at(n, time);
const ago = (days: number, hours?: number) => clock.ago(days, hours);
/** A timestamptz read back as text, in milliseconds. */
function ms(text: string | null | undefined): number | null {
  return text == null ? null : Date.parse(text.replace(' ', 'T').replace(/\+00$/, 'Z'));
}

interface TranslationFixture {
  id: number;
  component: number;
  project: string;
  componentSlug: string;
  language: string;
  languageId: number;
  isSource?: boolean;
  total: number;
  words: number;
  translated: number;
  translatedWords: number;
  fuzzy?: number;
  fuzzyWords?: number;
  failing?: number;
  failingWords?: number;
  lastChange?: string | null;
  firstSeenAt?: string;
  deletedAt?: string | null;
}

interface SnapshotFixture {
  translation: number;
  at: string;
  total: number;
  words: number;
  translated: number;
  translatedWords: number;
  approved?: number;
  approvedWords?: number;
  fuzzy?: number;
  failing?: number;
}

interface ChangeFixture {
  id: number;
  action: number;
  at: string;
  author: string | null;
  translation?: number;
  unit?: number;
  project?: string;
  component?: string;
  language?: string;
}

async function insertTranslation(t: TranslationFixture): Promise<void> {
  await sql`
    insert into weblate.translations (id, component_id, project_slug, component_slug, language_code,
      language_id, is_source, total, total_words, translated, translated_words, fuzzy, fuzzy_words,
      failing_checks, failing_checks_words, last_change, last_author, raw, first_seen_at, deleted_at)
    values (${t.id}, ${t.component}, ${t.project}, ${t.componentSlug}, ${t.language}, ${t.languageId},
      ${t.isSource ?? false}, ${t.total}, ${t.words}, ${t.translated}, ${t.translatedWords},
      ${t.fuzzy ?? 0}, ${t.fuzzyWords ?? 0}, ${t.failing ?? 0}, ${t.failingWords ?? 0},
      ${t.lastChange ?? null}::timestamptz, ${t.lastChange ? 'Someone' : null}, '{}'::jsonb,
      ${t.firstSeenAt ?? ago(0)}::timestamptz, ${t.deletedAt ?? null}::timestamptz)`.execute(db);
}

async function insertSnapshot(s: SnapshotFixture): Promise<void> {
  await sql`
    insert into weblate.translation_statistics (translation_id, captured_at, last_seen_at,
      project_slug, component_slug, language_code, total, total_words, translated,
      translated_words, approved, approved_words, fuzzy, failing, raw)
    select ${s.translation}, ${s.at}::timestamptz, ${s.at}::timestamptz, t.project_slug,
      t.component_slug, t.language_code, ${s.total}, ${s.words}, ${s.translated},
      ${s.translatedWords}, ${s.approved ?? 0}, ${s.approvedWords ?? 0}, ${s.fuzzy ?? 0},
      ${s.failing ?? 0}, '{}'::jsonb
    from weblate.translations t where t.id = ${s.translation}`.execute(db);
}

async function insertChange(c: ChangeFixture): Promise<void> {
  await sql`
    insert into weblate.changes (id, action, unit_id, translation_id, component_id, project_slug,
      component_slug, language_code, author_name, user_name, timestamp, raw)
    select ${c.id}, ${c.action}, ${c.unit ?? null}::bigint, t.id, t.component_id,
      coalesce(t.project_slug, ${c.project ?? 'alpha'}), coalesce(t.component_slug, ${c.component ?? null}),
      coalesce(t.language_code, ${c.language ?? null}), ${c.author}, ${c.author},
      ${c.at}::timestamptz, '{}'::jsonb
    from (select 1) one
    left join weblate.translations t on t.id = ${c.translation ?? null}::integer`.execute(db);
}

async function insertFixture(): Promise<void> {
  await sql`insert into weblate.languages (code, id, name, raw) values
    ('cs', 1, 'Czech', '{}'), ('de', 2, 'German', '{}'), ('en', 3, 'English', '{}'),
    ('it', 4, 'Italian', '{}'), ('fr', 5, 'French', '{}')`.execute(db);
  await sql`insert into weblate.projects (id, slug, name, raw, deleted_at) values
    (1, 'alpha', 'Alpha', '{}', null), (2, 'gone', 'Gone', '{}', ${at(1, '12:00')}::timestamptz)`.execute(
    db,
  );
  // alpha/old is deleted; alpha/empty has only its source translation; gone/main went with
  // its project.
  await sql`insert into weblate.components (id, project_id, project_slug, slug, name, raw, deleted_at) values
    (10, 1, 'alpha', 'core', 'Core', '{}', null),
    (11, 1, 'alpha', 'docs', 'Docs', '{}', null),
    (12, 1, 'alpha', 'old', 'Old', '{}', ${at(50)}::timestamptz),
    (13, 1, 'alpha', 'empty', 'Empty', '{}', null),
    (20, 2, 'gone', 'main', 'Main', '{}', ${at(1, '12:00')}::timestamptz)`.execute(db);

  const core = { component: 10, project: 'alpha', componentSlug: 'core' };
  const docs = { component: 11, project: 'alpha', componentSlug: 'docs' };
  const translations: TranslationFixture[] = [
    {
      ...core,
      id: 100,
      language: 'en',
      languageId: 3,
      isSource: true,
      total: 3,
      words: 30,
      translated: 3,
      translatedWords: 30,
    },
    {
      ...core,
      id: 101,
      language: 'cs',
      languageId: 1,
      total: 3,
      words: 30,
      translated: 2,
      translatedWords: 20,
      fuzzy: 1,
      fuzzyWords: 10,
      failing: 1,
      failingWords: 5,
      lastChange: ago(45, 1),
    },
    {
      ...core,
      id: 102,
      language: 'de',
      languageId: 2,
      total: 3,
      words: 30,
      translated: 3,
      translatedWords: 30,
      lastChange: ago(40),
    },
    {
      ...core,
      id: 106,
      language: 'it',
      languageId: 4,
      total: 3,
      words: 30,
      translated: 0,
      translatedWords: 0,
    },
    {
      ...docs,
      id: 103,
      language: 'cs',
      languageId: 1,
      total: 1000,
      words: 2000,
      translated: 999,
      translatedWords: 1990,
      fuzzy: 1,
      fuzzyWords: 10,
      failing: 2,
      failingWords: 4,
      lastChange: ago(2, 1),
    },
    {
      ...docs,
      id: 104,
      language: 'de',
      languageId: 2,
      total: 1000,
      words: 2000,
      translated: 0,
      translatedWords: 0,
      firstSeenAt: ago(10, 1),
    },
    {
      ...docs,
      id: 105,
      language: 'fr',
      languageId: 5,
      total: 10,
      words: 20,
      translated: 5,
      translatedWords: 10,
      lastChange: ago(90),
      deletedAt: at(3, '12:00'),
    },
    {
      component: 12,
      project: 'alpha',
      componentSlug: 'old',
      id: 120,
      language: 'cs',
      languageId: 1,
      total: 10,
      words: 20,
      translated: 5,
      translatedWords: 10,
      lastChange: ago(90),
      deletedAt: at(50),
    },
    {
      component: 13,
      project: 'alpha',
      componentSlug: 'empty',
      id: 130,
      language: 'en',
      languageId: 3,
      isSource: true,
      total: 0,
      words: 0,
      translated: 0,
      translatedWords: 0,
    },
    {
      component: 20,
      project: 'gone',
      componentSlug: 'main',
      id: 200,
      language: 'cs',
      languageId: 1,
      total: 10,
      words: 20,
      translated: 5,
      translatedWords: 10,
      lastChange: ago(90),
      deletedAt: at(1, '12:00'),
    },
  ];
  for (const t of translations) await insertTranslation(t);

  const snapshots: SnapshotFixture[] = [
    { translation: 100, at: at(50), total: 3, words: 30, translated: 3, translatedWords: 30 },
    { translation: 101, at: at(10), total: 3, words: 30, translated: 1, translatedWords: 10 },
    // Two snapshots on one day: the later one holds at the day's end.
    {
      translation: 101,
      at: at(7, '08:00'),
      total: 3,
      words: 30,
      translated: 0,
      translatedWords: 0,
    },
    {
      translation: 101,
      at: at(7),
      total: 3,
      words: 30,
      translated: 2,
      translatedWords: 20,
      approved: 1,
      approvedWords: 10,
      fuzzy: 1,
      failing: 1,
    },
    {
      translation: 102,
      at: at(40),
      total: 3,
      words: 30,
      translated: 3,
      translatedWords: 30,
      approved: 3,
      approvedWords: 30,
    },
    {
      translation: 103,
      at: at(40),
      total: 1000,
      words: 2000,
      translated: 695,
      translatedWords: 1390,
    },
    {
      translation: 103,
      at: at(20),
      total: 1000,
      words: 2000,
      translated: 845,
      translatedWords: 1690,
      approved: 250,
      approvedWords: 500,
    },
    {
      translation: 103,
      at: at(1),
      total: 1000,
      words: 2000,
      translated: 999,
      translatedWords: 1990,
      approved: 500,
      approvedWords: 1000,
      fuzzy: 1,
      failing: 2,
    },
    { translation: 104, at: at(60), total: 1000, words: 2000, translated: 0, translatedWords: 0 },
    { translation: 105, at: at(5), total: 10, words: 20, translated: 5, translatedWords: 10 },
    { translation: 200, at: at(2), total: 10, words: 20, translated: 5, translatedWords: 10 },
  ];
  for (const s of snapshots) await insertSnapshot(s);

  await sql`insert into weblate.units (id, translation_id, source, target, id_hash, content_hash, state,
      num_words, raw, deleted_at) values
    (5001, 101, '{a}', '{a}', 1, 1, 20, 10, '{}', null),
    (5002, 101, '{b}', '{b}', 2, 2, 20, 10, '{}', null),
    (5003, 101, '{c}', '{c}', 3, 3, 20, 10, '{}', ${ago(100)}::timestamptz),
    (5101, 102, '{a}', '{a}', 1, 1, 20, 10, '{}', null),
    (6001, 103, '{x}', '{x}', 4, 4, 20, 7, '{}', null),
    (7001, 200, '{y}', '{y}', 5, 5, 20, 3, '{}', ${at(1, '12:00')}::timestamptz)`.execute(db);

  const changes: ChangeFixture[] = [
    { id: 1001, action: 5, at: at(2), author: 'alice', translation: 101, unit: 5001 },
    { id: 1002, action: 2, at: at(20), author: 'alice', translation: 101, unit: 5002 },
    { id: 1003, action: 7, at: at(3), author: 'bob', translation: 103, unit: 6001 },
    { id: 1004, action: 4, at: at(5), author: 'bob', translation: 103, unit: 6001 },
    { id: 1005, action: 3, at: at(2, '11:00'), author: 'alice', translation: 101, unit: 5001 },
    { id: 1006, action: 5, at: at(200), author: 'alice', translation: 102, unit: 5101 },
    { id: 1007, action: 5, at: at(400), author: 'alice', translation: 101, unit: 5003 },
    { id: 1008, action: 95, at: at(2), author: 'alice' },
    { id: 1009, action: 59, at: at(2), author: null, translation: 101 },
    { id: 1010, action: 5, at: at(1, '10:00'), author: 'dave', translation: 200, unit: 7001 },
    { id: 1011, action: 5, at: at(1), author: 'bob', translation: 103, unit: 9999 },
    { id: 1012, action: 48, at: ago(100, 1), author: 'admin', translation: 106 },
  ];
  for (const c of changes) await insertChange(c);
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
  db = handle.db;
  clock = await readDatabaseClock(db);
  await insertFixture();
});

afterAll(async () => {
  await database?.drop();
});

describe('weblate.truncated_percent', () => {
  it('truncates to one decimal like Weblate and never rounds up', async () => {
    const result = await sql<Record<string, string>>`
      select weblate.truncated_percent(2, 3) as two_thirds,
             weblate.truncated_percent(999, 1000) as almost,
             weblate.truncated_percent(1999, 2000) as almost_almost,
             weblate.truncated_percent(1, 2000) as tiny,
             weblate.truncated_percent(0, 5) as none,
             weblate.truncated_percent(5, 5) as all_of_it,
             weblate.truncated_percent(0, 0, true) as empty_complete,
             weblate.truncated_percent(0, 0) as empty_other`.execute(db);
    expect(result.rows[0]).toEqual({
      two_thirds: '66.6',
      almost: '99.9',
      almost_almost: '99.9', // 99.95 would round to 100.0
      tiny: '0.1', // 0.05 truncates to 0.0, but something is done
      none: '0.0',
      all_of_it: '100.0',
      empty_complete: '100.0',
      empty_other: '0.0',
    });
  });
});

describe('current progress', () => {
  it('lists live target-language translations with their counts and truncated percentages', async () => {
    const rows = await listTranslationProgress(db);
    expect(rows.map((r) => [r.project_slug, r.component_slug, r.language_code])).toEqual([
      ['alpha', 'core', 'cs'],
      ['alpha', 'core', 'de'],
      ['alpha', 'core', 'it'],
      ['alpha', 'docs', 'cs'],
      ['alpha', 'docs', 'de'],
    ]); // no source translations (100, 130), no deleted ones (105, 120, 200)
    const byId = new Map(rows.map((r) => [r.translation_id, r]));
    expect(byId.get(101)).toMatchObject({
      project_id: 1,
      component_id: 10,
      language_id: 1,
      language_name: 'Czech',
      total: 3,
      total_words: 30,
      translated: 2,
      translated_words: 20,
      translated_percent: '66.6',
      translated_words_percent: '66.6',
      fuzzy: 1,
      fuzzy_words: 10,
      fuzzy_percent: '33.3',
      approved: 1, // from the latest statistics row (day 7, 10:00)
      approved_words: 10,
      approved_percent: '33.3',
      failing: 1,
      failing_words: 5,
      failing_percent: '33.3',
      untranslated: 1,
      untranslated_words: 10,
    });
    expect(ms(byId.get(101)!.statistics_seen_at)).toBe(Date.parse(at(7)));
    expect(ms(byId.get(101)!.last_change)).toBe(Date.parse(ago(45, 1)));
    expect(byId.get(103)).toMatchObject({
      translated_percent: '99.9',
      translated_words_percent: '99.5',
      fuzzy_percent: '0.1',
      approved: 500,
      approved_percent: '50.0',
      failing_percent: '0.2',
      untranslated: 1,
      untranslated_words: 10,
    });
    // No statistics read yet: approved is unknown, not 0.
    expect(byId.get(106)).toMatchObject({
      translated_percent: '0.0',
      approved: null,
      approved_percent: null,
      statistics_seen_at: null,
      untranslated_words: 30,
    });
  });

  it('sums counts per component and computes percentages from the sums', async () => {
    const rows = await listComponentProgress(db);
    expect(rows.map((r) => r.component_slug)).toEqual(['core', 'docs', 'empty']); // not 'old'
    const [core, docs, empty] = rows;
    expect(core).toMatchObject({
      component_name: 'Core',
      project_slug: 'alpha',
      translations: '3',
      total: '9',
      total_words: '90',
      translated: '5',
      translated_words: '50',
      translated_percent: '55.5', // 5/9 = 55.55…, not rounded to 55.6
      translated_words_percent: '55.5',
      fuzzy: '1',
      fuzzy_percent: '11.1',
      approved: '4', // 1 + 3; the translation without statistics adds nothing
      approved_words: '40',
      approved_percent: '44.4',
      failing: '1',
      failing_words: '5',
      failing_percent: '11.1',
      untranslated: '4',
      untranslated_words: '40',
    });
    expect(ms(core!.last_change)).toBe(Date.parse(ago(40)));
    expect(docs).toMatchObject({
      translations: '2',
      total: '2000',
      translated: '999',
      translated_percent: '49.9', // 49.95: never an average (99.9 and 0.0 average 49.95 too, but 50.0 rounded)
      translated_words_percent: '49.7', // 1990/4000 = 49.75
      fuzzy_percent: '0.1', // 1/2000 = 0.05: something is left, so not 0.0
      approved_percent: '25.0',
      failing_percent: '0.1',
      untranslated: '1001',
      untranslated_words: '2010',
    });
    // Only the source translation: nothing to translate, complete as Weblate reports it.
    expect(empty).toMatchObject({
      translations: '0',
      total: '0',
      translated_percent: '100.0',
      translated_words_percent: '100.0',
      fuzzy_percent: '0.0',
      approved_percent: '0.0',
      untranslated_words: '0',
      last_change: null,
    });
  });

  it('sums counts per live project', async () => {
    const rows = await listProjectProgress(db);
    expect(rows).toHaveLength(1); // 'gone' is deleted
    expect(rows[0]).toMatchObject({
      project_slug: 'alpha',
      project_name: 'Alpha',
      components: '3',
      translations: '5',
      total: '2009',
      translated: '1004',
      translated_percent: '49.9', // 49.975…
      total_words: '4090',
      translated_words: '2040',
      translated_words_percent: '49.8',
      fuzzy: '2',
      fuzzy_words: '20',
      fuzzy_percent: '0.1',
      approved: '504',
      approved_words: '1040',
      approved_percent: '25.0',
      failing: '3',
      failing_words: '9',
      failing_percent: '0.1',
      untranslated: '1005',
      untranslated_words: '2050',
    });
  });

  it('sums counts per language over the mirrored translations, never averaging percentages', async () => {
    const rows = await listLanguageProgress(db);
    expect(rows.map((r) => r.language_code)).toEqual(['cs', 'de', 'it']); // no source 'en', no deleted 'fr'
    const [cs, de, it] = rows;
    // 66.6 % and 99.9 % average to 83.2 %; the strings say 1001 of 1003.
    expect(cs).toMatchObject({
      language_name: 'Czech',
      projects: '1',
      components: '2',
      translations: '2',
      total: '1003',
      translated: '1001',
      translated_percent: '99.8',
      total_words: '2030',
      translated_words: '2010',
      translated_words_percent: '99.0',
      approved: '501',
      approved_percent: '49.9',
      untranslated_words: '20',
    });
    expect(de).toMatchObject({
      translated: '3',
      translated_percent: '0.2',
      translated_words_percent: '1.4',
    });
    expect(it).toMatchObject({ translated_percent: '0.0', approved: '0', untranslated: '3' });
  });
});

describe('daily progress', () => {
  it('has one row per translation per day from its first snapshot to today, carried forward', async () => {
    const result = await sql<{
      day: string;
      translated: number;
      translated_percent: string;
      captured_at: string;
    }>`
      select day, translated, translated_percent, captured_at
      from weblate.translation_progress_daily where translation_id = 101 order by day`.execute(db);
    const rows = result.rows;
    expect(rows.map((r) => r.day)).toEqual(Array.from({ length: 11 }, (_, i) => day(10 - i)));
    expect(
      rows.slice(0, 3).map((r) => [r.translated, r.translated_percent, ms(r.captured_at)]),
    ).toEqual(Array(3).fill([1, '33.3', Date.parse(at(10))]));
    // Day 7 has two snapshots; the later one (10:00) holds at the day's end, up to today.
    expect(
      rows.slice(3).map((r) => [r.translated, r.translated_percent, ms(r.captured_at)]),
    ).toEqual(Array(8).fill([2, '66.6', Date.parse(at(7))]));
  });

  it('starts at the first snapshot, ends the day before deletion and leaves out source translations', async () => {
    const result = await sql<{ translation_id: number; days: string; first: string; last: string }>`
      select translation_id, count(*) as days, min(day) as first, max(day) as last
      from weblate.translation_progress_daily group by translation_id order by translation_id`.execute(
      db,
    );
    expect(result.rows).toEqual([
      { translation_id: 101, days: '11', first: day(10), last: day(0) },
      { translation_id: 102, days: '41', first: day(40), last: day(0) },
      { translation_id: 103, days: '41', first: day(40), last: day(0) },
      { translation_id: 104, days: '61', first: day(60), last: day(0) },
      { translation_id: 105, days: '2', first: day(5), last: day(4) }, // deleted on day 3
      { translation_id: 200, days: '1', first: day(2), last: day(2) }, // deleted on day 1
    ]);
  });

  it('sums each component, project and language per day from the values carried that day', async () => {
    const core = await sql<{
      day: string;
      translations: string;
      translated: string;
      total: string;
      translated_percent: string;
    }>`
      select day, translations, translated, total, translated_percent
      from weblate.component_progress_daily where component_id = 10 and day in (${day(41)}, ${day(11)}, ${day(10)}, ${day(0)})
      order by day`.execute(db);
    expect(core.rows).toEqual([
      { day: day(11), translations: '1', translated: '3', total: '3', translated_percent: '100.0' },
      { day: day(10), translations: '2', translated: '4', total: '6', translated_percent: '66.6' },
      { day: day(0), translations: '2', translated: '5', total: '6', translated_percent: '83.3' },
    ]);

    const cs = await listLanguageProgressDaily(db, {
      language: 'cs',
      from: day(2),
      to: day(1),
    });
    expect(
      cs.map((r) => [r.day, r.translations, r.translated, r.total, r.translated_percent]),
    ).toEqual([
      [day(2), '3', '852', '1013', '84.1'], // 2 + 845 (day 20) + 5 (gone/main, deleted on day 1)
      [day(1), '2', '1001', '1003', '99.8'],
    ]);
    const cs21 = await listLanguageProgressDaily(db, {
      language: 'cs',
      from: day(21),
      to: day(21),
    });
    expect(cs21.map((r) => [r.translated, r.total, r.translated_percent])).toEqual([
      ['695', '1000', '69.5'],
    ]);
    const fr = await listLanguageProgressDaily(db, { language: 'fr' });
    expect(fr.map((r) => [r.day, r.translated_percent])).toEqual([
      [day(5), '50.0'],
      [day(4), '50.0'],
    ]);

    const alpha = await listProjectProgressDaily(db, {
      projects: ['alpha'],
      from: day(4),
      to: day(4),
    });
    expect(
      alpha.map((r) => [r.components, r.translations, r.translated, r.total, r.translated_percent]),
    ).toEqual([['2', '5', '855', '2016', '42.4']]);
    const gone = await listProjectProgressDaily(db, { projects: ['gone'] });
    expect(gone.map((r) => [r.day, r.translated_percent])).toEqual([[day(2), '50.0']]);
  });
});

describe('activity and contributors', () => {
  it('counts changes and translated words per day, project, component, language, author and action', async () => {
    const rows = await listActivityDaily(db, { from: day(3), to: day(1) });
    expect(
      rows.map((r) => [
        r.day,
        r.project_slug,
        r.component_slug,
        r.language_code,
        r.author_name,
        r.action,
        r.action_name,
        r.changes,
        r.words,
      ]),
    ).toEqual([
      [day(3), 'alpha', 'docs', 'cs', 'bob', 7, 'Suggestion accepted', '1', '7'],
      [day(2), 'alpha', 'core', 'cs', 'alice', 3, 'Comment added', '1', '0'],
      [day(2), 'alpha', 'core', 'cs', 'alice', 5, 'Translation added', '1', '10'],
      [day(2), 'alpha', 'core', 'cs', null, 59, 'String updated in the repository', '1', '0'],
      [day(2), 'alpha', null, null, 'alice', 95, 'Project setting changed', '1', '0'],
      [day(1), 'alpha', 'docs', 'cs', 'bob', 5, 'Translation added', '1', '0'], // unit not mirrored
      [day(1), 'gone', 'main', 'cs', 'dave', 5, 'Translation added', '1', '3'], // deleted since
    ]);
  });

  it('gives changes and words per author and language over 7, 30 and 365 days', async () => {
    const rows = await listContributors(db);
    expect(
      rows.map((r) => [
        r.author_name,
        r.language_code,
        r.changes_7d,
        r.changes_30d,
        r.changes_365d,
        r.words_7d,
        r.words_30d,
        r.words_365d,
      ]),
    ).toEqual([
      ['alice', 'cs', '2', '3', '3', '10', '20', '20'],
      ['bob', 'cs', '3', '3', '3', '7', '7', '7'],
      ['dave', 'cs', '1', '1', '1', '3', '3', '3'],
      ['admin', 'it', '0', '0', '1', '0', '0', '0'],
      ['alice', 'de', '0', '0', '1', '0', '0', '10'],
    ]);
    const alice = rows[0]!;
    expect([ms(alice.first_contribution), ms(alice.last_contribution)]).toEqual([
      Date.parse(at(400)),
      Date.parse(at(2, '11:00')),
    ]);
  });
});

describe('stalled translations and forecasts', () => {
  it('lists every live translation with strings left and the whole days it has been idle', async () => {
    // Idle since its last change, or since its translated strings last moved in the history,
    // whichever is later: 101 last changed 45 days ago but its strings moved on day 7.
    const rows = await listStalledTranslations(db, 0);
    expect(rows.map((r) => [r.translation_id, r.days_since_last_change, r.untranslated])).toEqual([
      [106, 100, 3], // never changed: idle since its first mirrored change
      [104, 10, 1000], // never changed, no changes: idle since the mirror first saw it
      [101, 7, 1],
      [103, 1, 1],
    ]);
    expect(rows.map((r) => ms(r.idle_since))).toEqual(
      [ago(100, 1), ago(10, 1), `${day(7)}T00:00:00Z`, `${day(1)}T00:00:00Z`].map((t) =>
        Date.parse(t),
      ),
    );
    expect((await listStalledTranslations(db, 30)).map((r) => r.translation_id)).toEqual([106]);
  });

  it('projects completion from the net words translated in the last 30 days of the history', async () => {
    const rows = await listCompletionForecast(db);
    expect(
      rows.map((r) => [
        r.translation_id,
        r.untranslated_words,
        r.words_translated_30d,
        r.words_per_day,
        r.projected_completion,
        r.pace_origin,
        r.pace_known_from,
      ]),
    ).toEqual([
      // History from day 10 only: the pace is known once it reaches back 30 days.
      [101, 10, null, null, null, null, day(-20)],
      [102, 0, '0', '0.00', null, 'measured', null],
      [106, 30, null, null, null, null, day(-30)], // no statistics: known 30 days after the first
      [103, 10, '600', '20.00', day(-1), 'measured', null], // 1990 - 1390 (day 40 holds on day 30)
      [104, 2000, '0', '0.00', null, 'measured', null], // zero rate: no date
    ]);
    const languages = await listLanguageCompletionForecast(db);
    expect(
      languages.map((r) => [
        r.language_code,
        r.translations,
        r.untranslated_words,
        r.words_translated_30d,
        r.words_per_day,
        r.projected_completion,
        r.pace_translations,
        r.pace_origin,
        r.pace_known_from,
      ]),
    ).toEqual([
      ['cs', '2', '20', '600', '20.00', day(-1), '1', 'measured', null], // ceil(20 * 30 / 600) = 1
      ['de', '2', '2000', '0', '0.00', null, '2', 'measured', null],
      ['it', '1', '30', null, null, null, '0', null, day(-30)],
    ]);
  });
});

describe('weblate_reader', () => {
  it('may select every table and view of the schema and change none', async () => {
    const result = await sql<{ name: string; can_select: boolean; can_write: boolean }>`
      select c.relname as name,
             has_table_privilege('weblate_reader', c.oid, 'select') as can_select,
             has_table_privilege('weblate_reader', c.oid, 'insert, update, delete, truncate') as can_write
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'weblate' and c.relkind in ('r', 'v', 'p', 'm')
      order by 1`.execute(db);
    expect(result.rows.length).toBeGreaterThanOrEqual(15 + 13);
    expect(result.rows.filter((r) => !r.can_select || r.can_write)).toEqual([]);
    const login = await sql<{ rolcanlogin: boolean }>`
      select rolcanlogin from pg_roles where rolname = 'weblate_reader'`.execute(db);
    expect(login.rows).toEqual([{ rolcanlogin: false }]);
  });

  it('reads views and tables created later, and may not insert', async () => {
    await sql`create table weblate.reader_later (id integer)`.execute(db);
    await sql`insert into weblate.reader_later values (1)`.execute(db);
    const seen = await db.transaction().execute(async (trx) => {
      await sql`set local role weblate_reader`.execute(trx);
      const view = await sql<{
        n: string;
      }>`select count(*) as n from weblate.translation_progress`.execute(trx);
      const later = await sql<{
        n: string;
      }>`select count(*) as n from weblate.reader_later`.execute(trx);
      return [view.rows[0]!.n, later.rows[0]!.n];
    });
    expect(seen).toEqual(['5', '1']);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`set local role weblate_reader`.execute(trx);
        await sql`insert into weblate.reader_later values (2)`.execute(trx);
      }),
    ).rejects.toThrow(/permission denied/);
    await sql`drop table weblate.reader_later`.execute(db);
  });

  describe.runIf(DATABASE_KIND === 'postgres')('on a PostgreSQL server', () => {
    const login = `wm_analyst_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

    afterAll(async () => {
      await adminQuery(`drop role if exists ${login}`);
    });
    // Registered after the role's cleanup: its databases are dropped first.
    const others = useTestDatabases();

    it('lets a login granted weblate_reader select views and later tables, and refuses writes', async () => {
      await adminQuery(`create role ${login} login`);
      await adminQuery(`grant weblate_reader to ${login}`);
      await sql`create table weblate.analyst_later (id integer)`.execute(db);
      const url = new URL(database.databaseUrl!);
      url.username = login;
      url.password = '';
      const client = new pg.Client({ connectionString: url.href });
      await client.connect();
      try {
        const view = await client.query<{ n: string }>(
          'select count(*) as n from weblate.project_progress',
        );
        expect(view.rows).toEqual([{ n: '1' }]);
        const later = await client.query<{ n: string }>(
          'select count(*) as n from weblate.analyst_later',
        );
        expect(later.rows).toEqual([{ n: '0' }]);
        await expect(
          client.query(
            `insert into weblate.languages (code, id, name, raw) values ('xx', 99, 'X', '{}')`,
          ),
        ).rejects.toThrow(/permission denied/);
        await expect(client.query('insert into weblate.analyst_later values (1)')).rejects.toThrow(
          /permission denied/,
        );
      } finally {
        await client.end();
      }
      await sql`drop table weblate.analyst_later`.execute(db);
    });

    it('survives a rollback in another database of the server, with its members', async () => {
      const otherHandle = await others.migrated();
      await migrateDownToZero(otherHandle); // must not fail although this database uses the role
      const roles = await sql<{ n: string }>`
        select count(*) as n from pg_roles where rolname = 'weblate_reader'`.execute(db);
      expect(roles.rows).toEqual([{ n: '1' }]);
      const view = await db.transaction().execute(async (trx) => {
        await sql`set local role weblate_reader`.execute(trx);
        return (
          await sql<{ n: string }>`select count(*) as n from weblate.language_progress`.execute(trx)
        ).rows;
      });
      expect(view).toEqual([{ n: '3' }]);
    });
  });
});

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL! });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { listMovers } from '../../src/db/queries/report-activity.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { type DatabaseClock, readDatabaseClock } from '../helpers/database-clock.ts';

/**
 * The pace of weblate.translation_pace, which forecasts, release readiness and stalled
 * translations read, comes from the history the movers read: estimated days before the first
 * snapshot included, and marked so. Hand-built history; `day(n)` is n UTC days before today.
 *
 * - 1 (core cs): estimated 10 words from day 100, 40 from day 20; measured 60 from day 3.
 * - 2 (core de): measured 5 words from day 45, 25 from day 12.
 * - 3 (docs cs): measured from day 10 only: the history does not reach back 30 days.
 */

let database: TestDatabase;
let db: Kysely<Database>;
let clock: DatabaseClock;

async function insertFixture(): Promise<void> {
  const day = (n: number) => clock.day(n);
  const at = (n: number) => clock.at(n);
  await sql`insert into weblate.projects (id, slug, name, raw) values (1, 'alpha', 'Alpha', '{}')`.execute(
    db,
  );
  await sql`insert into weblate.components (id, project_id, project_slug, slug, name, raw) values
    (10, 1, 'alpha', 'core', 'Core', '{}'), (11, 1, 'alpha', 'docs', 'Docs', '{}')`.execute(db);
  await sql`insert into weblate.translations (id, component_id, project_slug, component_slug,
      language_code, is_source, total, total_words, translated, translated_words, fuzzy,
      fuzzy_words, failing_checks, failing_checks_words, last_change, raw) values
    (1, 10, 'alpha', 'core', 'cs', false, 10, 100, 6, 60, 0, 0, 0, 0, ${at(40)}::timestamptz, '{}'),
    (2, 10, 'alpha', 'core', 'de', false, 10, 100, 2, 25, 0, 0, 0, 0, ${at(12)}::timestamptz, '{}'),
    (3, 11, 'alpha', 'docs', 'cs', false, 10, 100, 1, 10, 0, 0, 0, 0, ${at(10)}::timestamptz, '{}')`.execute(
    db,
  );
  const snapshots: Array<[number, number, number]> = [
    [1, 3, 60],
    [2, 45, 5],
    [2, 12, 25],
    [3, 10, 10],
  ];
  for (const [id, n, words] of snapshots)
    await sql`insert into weblate.translation_statistics (translation_id, captured_at, last_seen_at,
        project_slug, component_slug, language_code, total, total_words, translated,
        translated_words, approved, approved_words, fuzzy, failing, raw)
      select t.id, ${at(n)}::timestamptz, ${at(n)}::timestamptz, t.project_slug, t.component_slug,
        t.language_code, 10, 100, ${Math.round(words / 10)}, ${words}, 0, 0, 0, 0, '{}'
      from weblate.translations t where t.id = ${id}`.execute(db);
  for (const [n, words] of [
    [100, 10],
    [20, 40],
  ] as const)
    await sql`insert into weblate.translation_progress_estimated (translation_id, day, total,
        total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words,
        anchored_at)
      values (1, ${day(n)}::date, 10, 100, ${Math.round(words / 10)}, ${words}, 0, 0, 0, 0, ${at(3)}::timestamptz)`.execute(
      db,
    );
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = (await database.migrated()).db;
  clock = await readDatabaseClock(db);
  await insertFixture();
});

afterAll(async () => {
  await database?.drop();
});

describe('weblate.translation_pace', () => {
  it('is the net change over the last 30 days, estimated where the history is', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select translation_id, from_day::text, translated_words_then, translated_words_now,
             words_translated, words_per_day, pace_origin, pace_known_from::text
      from weblate.translation_pace() order by translation_id`.execute(db);
    expect(rows).toEqual([
      {
        translation_id: 1,
        from_day: clock.day(30),
        translated_words_then: 10,
        translated_words_now: 60,
        words_translated: '50',
        words_per_day: '1.67',
        pace_origin: 'estimated',
        pace_known_from: null,
      },
      {
        translation_id: 2,
        from_day: clock.day(30),
        translated_words_then: 5,
        translated_words_now: 25,
        words_translated: '20',
        words_per_day: '0.67',
        pace_origin: 'measured',
        pace_known_from: null,
      },
      {
        translation_id: 3,
        from_day: clock.day(30),
        translated_words_then: null,
        translated_words_now: 10,
        words_translated: null,
        words_per_day: null,
        pace_origin: null,
        pace_known_from: clock.day(-20),
      },
    ]);
  });

  it('equals the words change of the 30-day movers, translation by translation', async () => {
    const movers = await listMovers(
      db,
      {},
      { baselineDay: clock.day(30), today: clock.today, limit: 100 },
    );
    const { rows } = await sql<{ component_slug: string; language_code: string; words: string }>`
      select component_slug, language_code, words_translated as words
      from weblate.translation_pace() where words_translated is not null`.execute(db);
    const moved = movers
      .filter((m) => m.from_day === clock.day(30))
      .map((m) => [m.component_slug, m.language_code, String(m.translated_words_change)]);
    expect(moved.sort()).toEqual(
      rows.map((r) => [r.component_slug, r.language_code, r.words]).sort(),
    );
  });

  it('gives release readiness and the forecasts their pace, origin and coverage', async () => {
    const readiness = await sql<Record<string, unknown>>`
      select language_code, words_per_day, words_translated_30d, translations, pace_translations,
             pace_origin, pace_known_from::text, projected_date::text
      from weblate.release_readiness('project', array[90]) order by language_code`.execute(db);
    expect(readiness.rows).toEqual([
      // cs: 1 is known (estimated), 3 is not; 200 words, 70 translated, 110 needed at 50 in 30 days.
      {
        language_code: 'cs',
        words_per_day: '1.67',
        words_translated_30d: '50',
        translations: '2',
        pace_translations: '1',
        pace_origin: 'estimated',
        pace_known_from: null,
        projected_date: clock.day(-66),
      },
      {
        language_code: 'de',
        words_per_day: '0.67',
        words_translated_30d: '20',
        translations: '1',
        pace_translations: '1',
        pace_origin: 'measured',
        pace_known_from: null,
        projected_date: clock.day(-98),
      },
    ]);
    const docs = await sql<Record<string, unknown>>`
      select words_per_day, pace_origin, pace_known_from::text, projected_date
      from weblate.release_readiness(only_components => array['docs'], thresholds => array[90])`.execute(
      db,
    );
    expect(docs.rows).toEqual([
      {
        words_per_day: null,
        pace_origin: null,
        pace_known_from: clock.day(-20),
        projected_date: null,
      },
    ]);
  });

  it('words each threshold once: reached, a date, or why there is none, never a pace of 0', async () => {
    // docs cs (3) gets an estimate of 20 words 60 days ago and 15 now: it loses 5 words.
    await sql`update weblate.translation_statistics set translated_words = 15
      where translation_id = 3`.execute(db);
    await sql`insert into weblate.translation_progress_estimated (translation_id, day, total,
        total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words,
        anchored_at)
      values (3, ${clock.day(60)}::date, 10, 100, 2, 20, 0, 0, 0, 0, ${clock.at(10)}::timestamptz)`.execute(
      db,
    );
    const statuses = await sql<{ c: string; l: string; t: string; status: string }>`
      select component_slug as c, language_code as l, threshold::text as t, status
      from weblate.release_readiness(thresholds => array[20, 90])
      order by component_slug, language_code, threshold`.execute(db);
    const unknown = await sql<{ status: string }>`
      select status from weblate.release_readiness(only_components => array['docs'],
        thresholds => array[90])`.execute(db);
    await sql`delete from weblate.translation_progress_estimated where translation_id = 3`.execute(
      db,
    );
    await sql`update weblate.translation_statistics set translated_words = 10
      where translation_id = 3`.execute(db);
    expect(statuses.rows.map((r) => [r.c, r.l, r.t, r.status])).toEqual([
      ['core', 'cs', '20', 'reached'],
      ['core', 'cs', '90', clock.day(-18)], // 30 words needed at 50 in 30 days
      ['core', 'de', '20', 'reached'],
      ['core', 'de', '90', clock.day(-98)],
      ['docs', 'cs', '20', 'losing ground: -5 words in 30 days'],
      ['docs', 'cs', '90', 'losing ground: -5 words in 30 days'],
    ]);
    expect(unknown.rows).toEqual([{ status: 'losing ground: -5 words in 30 days' }]);
    const none = await sql<{ status: string }>`
      select status from weblate.release_readiness(only_components => array['docs'],
        thresholds => array[90])`.execute(db);
    expect(none.rows).toEqual([{ status: `pace unknown until ${clock.day(-20)}` }]);
  });
});

describe('weblate.idle_translations', () => {
  it('counts a translation idle from its last change or the last move of its history', async () => {
    const { rows } = await sql<{
      translation_id: number;
      last_progress_day: string | null;
      idle: string;
    }>`
      select translation_id, last_progress_day::text,
             (idle_since at time zone 'UTC')::text as idle
      from weblate.idle_translations() order by translation_id`.execute(db);
    expect(rows).toEqual([
      // Changed on day 40, moved on day 3 (estimated 40 words, then measured 60).
      { translation_id: 1, last_progress_day: clock.day(3), idle: `${clock.day(3)} 00:00:00` },
      { translation_id: 2, last_progress_day: clock.day(12), idle: `${clock.day(12)} 10:00:00` },
      // No move in its history: idle since its last change.
      { translation_id: 3, last_progress_day: null, idle: `${clock.day(10)} 10:00:00` },
    ]);
  });
});

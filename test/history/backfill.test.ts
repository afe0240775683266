import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { rebuildEstimates } from '../../src/db/queries/backfill.ts';
import { useTestDatabases } from '../helpers/database.ts';

/**
 * The estimate of the progress history before the first snapshot, over a hand-built mirror
 * whose every expected day is worked out in the comments. Day N (dN below) is 2026-03-(10 + N);
 * the first snapshot of translation 101 is on d5 at 12:00.
 */

const day = (n: number) => `2026-03-${10 + n}`;
const d = (n: number, time = '10:00') => `${day(n)}T${time}:00Z`;

interface UnitFixture {
  id: number;
  translation: number;
  state: number;
  words: number;
  deleted?: boolean;
}

interface ChangeFixture {
  id: number;
  action: number;
  at: string;
  translation: number;
  unit: number | null;
  states?: [before: number, after: number];
  target?: string;
}

const UNITS: UnitFixture[] = [
  { id: 1, translation: 101, state: 30, words: 2 },
  { id: 2, translation: 101, state: 30, words: 3 },
  { id: 3, translation: 101, state: 10, words: 5 },
  { id: 4, translation: 101, state: 0, words: 7 },
  { id: 5, translation: 101, state: 20, words: 11 },
  { id: 6, translation: 101, state: 20, words: 13, deleted: true },
  { id: 7, translation: 101, state: 20, words: 1 },
  // 104: its snapshot (translated 0) disagrees with what its log says.
  { id: 9, translation: 104, state: 0, words: 1 },
  { id: 10, translation: 104, state: 20, words: 1 },
  { id: 11, translation: 105, state: 20, words: 4 },
];

const CHANGES: ChangeFixture[] = [
  { id: 1, action: 3, at: d(0), translation: 101, unit: 4 }, // a comment: the first change
  { id: 2, action: 5, at: d(1), translation: 101, unit: 1, states: [0, 20] },
  { id: 3, action: 5, at: d(1, '10:05'), translation: 101, unit: 2, states: [0, 20] },
  { id: 4, action: 5, at: d(1, '10:10'), translation: 101, unit: 6, states: [0, 20] },
  // u7: translated on d1, then something unlogged made it need editing: the d3 edit says so.
  { id: 5, action: 5, at: d(1, '10:15'), translation: 101, unit: 7, states: [0, 20] },
  { id: 6, action: 5, at: d(2), translation: 101, unit: 3, states: [0, 20] },
  { id: 7, action: 63, at: d(2, '11:00'), translation: 101, unit: 6 }, // u6 removed
  { id: 8, action: 36, at: d(3), translation: 101, unit: 2, states: [20, 30] },
  { id: 9, action: 71, at: d(3, '11:00'), translation: 101, unit: 5 }, // u5 added
  { id: 10, action: 2, at: d(3, '12:00'), translation: 101, unit: 7, states: [10, 20] },
  { id: 11, action: 37, at: d(4), translation: 101, unit: 3, states: [20, 10] },
  { id: 12, action: 5, at: d(4, '11:00'), translation: 101, unit: 5, states: [0, 20] },
  // After the first snapshot (d5 12:00): u1 approved. It moves u1's state at the snapshot
  // back to 20, what the snapshot counted.
  { id: 13, action: 36, at: d(6), translation: 101, unit: 1, states: [20, 30] },
  { id: 20, action: 5, at: d(2), translation: 104, unit: 10, states: [0, 20] },
  // 105: two strings removed as Weblate logs it, after deleting the unit and its changes (no
  // unit, no state): one kept its translation text, the other had none.
  { id: 50, action: 3, at: d(0), translation: 105, unit: 11 },
  { id: 51, action: 63, at: d(2), translation: 105, unit: null, target: 'Hallo' },
  { id: 52, action: 63, at: d(2, '10:01'), translation: 105, unit: null },
  { id: 53, action: 5, at: d(2, '11:00'), translation: 105, unit: 11, states: [0, 20] },
];

// At the snapshot: u1 20, u2 30, u3 10, u4 0, u5 20, u7 20 (u6 removed).
const SNAPSHOT_101 = {
  total: 6,
  total_words: 29,
  translated: 4,
  translated_words: 17,
  approved: 1,
  approved_words: 3,
  fuzzy: 1,
  fuzzy_words: 5,
};

/** Each day's end, replayed by hand from the changes above. */
const EXPECTED_101 = [
  // d0: u1 u2 u3 u4 u6 u7 exist, all untranslated (u5 is not added yet).
  {
    day: day(0),
    total: 6,
    total_words: 31,
    translated: 0,
    translated_words: 0,
    fuzzy: 0,
    fuzzy_words: 0,
    approved: 0,
    approved_words: 0,
  },
  // d1: u1 u2 u6 translated; u7 needs editing (what the d3 edit started from).
  {
    day: day(1),
    total: 6,
    total_words: 31,
    translated: 3,
    translated_words: 18,
    fuzzy: 1,
    fuzzy_words: 1,
    approved: 0,
    approved_words: 0,
  },
  // d2: u3 translated, u6 removed.
  {
    day: day(2),
    total: 5,
    total_words: 18,
    translated: 3,
    translated_words: 10,
    fuzzy: 1,
    fuzzy_words: 1,
    approved: 0,
    approved_words: 0,
  },
  // d3: u2 approved, u5 added (untranslated), u7 translated.
  {
    day: day(3),
    total: 6,
    total_words: 29,
    translated: 4,
    translated_words: 11,
    fuzzy: 0,
    fuzzy_words: 0,
    approved: 1,
    approved_words: 3,
  },
  // d4: u3 needs editing, u5 translated: the snapshot's figures.
  {
    day: day(4),
    total: 6,
    total_words: 29,
    translated: 4,
    translated_words: 17,
    fuzzy: 1,
    fuzzy_words: 5,
    approved: 1,
    approved_words: 3,
  },
];

describe('backfill: progress before the first snapshot, from the change log', () => {
  const databases = useTestDatabases();
  let db: Kysely<Database>;

  beforeAll(async () => {
    db = (await databases.migrated()).db;
    await insertFixture(db);
  });

  const estimates = async (translation: number) =>
    (
      await sql<Record<string, unknown>>`
        select to_char(day, 'YYYY-MM-DD') as day, total, total_words, translated, translated_words,
               fuzzy, fuzzy_words, approved, approved_words
        from weblate.translation_progress_estimated where translation_id = ${translation}
        order by day`.execute(db)
    ).rows;

  it('counts back from the first snapshot through every logged move, day by day', async () => {
    const result = await rebuildEstimates(db);
    expect(await estimates(101)).toEqual(EXPECTED_101);
    // 102 has no change of its own, but its component has (103's, on d1): from then on it
    // stands where its snapshot does. 103 has changes but no snapshot.
    expect(await estimates(102)).toEqual([
      { ...SNAPSHOT_101, translated: 0, translated_words: 17, day: day(1) },
    ]);
    expect(await estimates(103)).toEqual([]);
    // Rows: 101's five days; 102's first; 104's and 105's first day and d2 (d1 holds d0's).
    expect(result).toMatchObject({ translations: 4, rows: 5 + 1 + 2 + 2, days: 5 + 4 + 3 + 3 });
  });

  it('counts a string removed without unit or state as translated when it kept a text', async () => {
    await rebuildEstimates(db);
    // d0 (and d1, which holds it): u11 untranslated, the two removed strings still there
    // (one translated, of words unknown: 0); d2: both removed, u11 translated.
    expect(
      (await estimates(105)).map((r) => [
        r.day,
        r.total,
        r.translated,
        r.total_words,
        r.translated_words,
      ]),
    ).toEqual([
      [day(0), 3, 1, 4, 0],
      [day(2), 1, 1, 4, 4],
    ]);
    const daily = await sql<{ day: string; total: number; origin: string }>`
      select to_char(day, 'YYYY-MM-DD') as day, total, origin from weblate.translation_progress_daily
      where translation_id = 105 and day < ${day(4)}::date order by day`.execute(db);
    expect(daily.rows.map((r) => [r.day, r.total, r.origin])).toEqual([
      [day(0), 3, 'estimated'],
      [day(1), 3, 'estimated'],
      [day(2), 1, 'estimated'],
      [day(3), 1, 'measured'],
    ]);
  });

  it('keeps counts within 0 and the total where the log and the snapshot disagree, and says so', async () => {
    // 104's snapshot (d3) says nothing translated, but u10 was translated on d2: before that
    // the log would make it -1.
    const result = await rebuildEstimates(db);
    expect((await estimates(104)).map((r) => [r.day, r.total, r.translated])).toEqual([
      [day(0), 2, 0],
      [day(2), 2, 0],
    ]);
    // One row: d0, which d1 holds.
    expect(result.clamped).toBe(1);
  });

  it('is idempotent, and a later snapshot or later changes leave it as it was', async () => {
    const before = await estimates(101);
    await rebuildEstimates(db);
    expect(await estimates(101)).toEqual(before);
    await insertSnapshot(db, 101, d(7), { ...SNAPSHOT_101, approved: 2, approved_words: 5 });
    await insertChanges(db, [
      { id: 30, action: 37, at: d(8), translation: 101, unit: 2, states: [30, 10] },
    ]);
    await sql`update weblate.units set state = 10 where id = 2`.execute(db);
    await rebuildEstimates(db);
    expect(await estimates(101)).toEqual(before);
  });

  it('reaches the daily views as estimated, only before the first measured day', async () => {
    await rebuildEstimates(db);
    const rows = (
      await sql<{ day: string; origin: string; translated: number; captured_at: string | null }>`
        select to_char(day, 'YYYY-MM-DD') as day, origin, translated, captured_at
        from weblate.translation_progress_daily
        where translation_id = 101 and day <= ${day(6)}::date order by day`.execute(db)
    ).rows;
    expect(rows.map((r) => [r.day, r.origin, r.translated])).toEqual([
      ...EXPECTED_101.map((e) => [e.day, 'estimated', e.translated]),
      [day(5), 'measured', 4],
      [day(6), 'measured', 4],
    ]);
    expect(rows.filter((r) => r.origin === 'estimated').every((r) => r.captured_at === null)).toBe(
      true,
    );
    // An estimate for a day that was measured never shows: the measurement wins.
    await sql`insert into weblate.translation_progress_estimated
      (translation_id, day, total, translated, fuzzy, approved, anchored_at)
      values (101, ${day(5)}, 99, 99, 0, 0, ${d(5, '12:00')})`.execute(db);
    const fifth = await sql<{ origin: string; total: number }>`
      select origin, total from weblate.translation_progress_daily
      where translation_id = 101 and day = ${day(5)}::date`.execute(db);
    expect(fifth.rows).toEqual([{ origin: 'measured', total: 6 }]);
  });

  it('marks a summary day estimated when any of its translations is', async () => {
    await rebuildEstimates(db);
    const rows = (
      await sql<{
        day: string;
        origin: string;
        estimated_translations: string;
        translations: string;
      }>`
        select to_char(day, 'YYYY-MM-DD') as day, origin, estimated_translations::text, translations::text
        from weblate.language_progress_daily
        where language_code = 'cs' and day between ${day(2)}::date and ${day(5)}::date
        order by day`.execute(db)
    ).rows;
    // 104 is measured from d3 on, 101 and 102 from d5 on.
    expect(rows).toEqual([
      { day: day(2), origin: 'estimated', estimated_translations: '3', translations: '3' },
      { day: day(3), origin: 'estimated', estimated_translations: '2', translations: '3' },
      { day: day(4), origin: 'estimated', estimated_translations: '2', translations: '3' },
      { day: day(5), origin: 'measured', estimated_translations: '0', translations: '3' },
    ]);
  });
});

async function insertFixture(db: Kysely<Database>): Promise<void> {
  await sql`insert into weblate.languages (code, id, name, raw) values
    ('cs', 1, 'Czech', '{}'), ('de', 2, 'German', '{}'), ('en', 3, 'English', '{}')`.execute(db);
  await sql`insert into weblate.projects (id, slug, name, raw) values (1, 'alpha', 'Alpha', '{}')`.execute(
    db,
  );
  await sql`insert into weblate.components (id, project_id, project_slug, slug, name, raw) values
    (10, 1, 'alpha', 'core', 'Core', '{}'), (11, 1, 'alpha', 'docs', 'Docs', '{}'),
    (12, 1, 'alpha', 'help', 'Help', '{}')`.execute(db);
  await sql`insert into weblate.translations (id, component_id, project_slug, component_slug,
      language_code, language_id, is_source, raw) values
    (100, 10, 'alpha', 'core', 'en', 3, true, '{}'),
    (101, 10, 'alpha', 'core', 'cs', 1, false, '{}'),
    (102, 11, 'alpha', 'docs', 'cs', 1, false, '{}'),
    (103, 11, 'alpha', 'docs', 'en', 3, true, '{}'),
    (104, 12, 'alpha', 'help', 'cs', 1, false, '{}'),
    (105, 12, 'alpha', 'help', 'de', 2, false, '{}')`.execute(db);
  for (const u of UNITS) {
    await sql`insert into weblate.units (id, translation_id, source, target, id_hash, content_hash,
        position, state, num_words, raw, deleted_at)
      values (${u.id}, ${u.translation}, '{source}', '{target}', ${u.id}, ${u.id}, ${u.id}, ${u.state},
        ${u.words}, '{}', ${u.deleted === true ? d(2, '11:00') : null}::timestamptz)`.execute(db);
  }
  await insertChanges(db, CHANGES);
  await insertChanges(db, [{ id: 40, action: 5, at: d(1), translation: 103, unit: null }]);
  await insertSnapshot(db, 101, d(5, '12:00'), SNAPSHOT_101);
  await insertSnapshot(db, 102, d(5, '12:00'), { ...SNAPSHOT_101, translated: 0 });
  await insertSnapshot(db, 105, d(3, '12:00'), {
    total: 1,
    total_words: 4,
    translated: 1,
    translated_words: 4,
    approved: 0,
    approved_words: 0,
    fuzzy: 0,
    fuzzy_words: 0,
  });
  await insertSnapshot(db, 104, d(3, '12:00'), {
    total: 2,
    total_words: 2,
    translated: 0,
    translated_words: 0,
    approved: 0,
    approved_words: 0,
    fuzzy: 0,
    fuzzy_words: 0,
  });
  await insertChanges(db, [{ id: 21, action: 3, at: d(0), translation: 104, unit: 9 }]);
}

async function insertChanges(db: Kysely<Database>, changes: ChangeFixture[]): Promise<void> {
  for (const c of changes) {
    const details = c.states === undefined ? {} : { old_state: c.states[0], state: c.states[1] };
    await sql`insert into weblate.changes (id, action, unit_id, translation_id, component_id,
        project_slug, component_slug, language_code, timestamp, target, details, raw)
      select ${c.id}, ${c.action}, ${c.unit}::bigint, t.id, t.component_id, t.project_slug,
        t.component_slug, t.language_code, ${c.at}::timestamptz, ${c.target ?? ''},
        ${JSON.stringify(details)}::jsonb, '{}'
      from weblate.translations t where t.id = ${c.translation}`.execute(db);
  }
}

async function insertSnapshot(
  db: Kysely<Database>,
  translation: number,
  at: string,
  s: typeof SNAPSHOT_101,
): Promise<void> {
  await sql`insert into weblate.translation_statistics (translation_id, captured_at, last_seen_at,
      project_slug, component_slug, language_code, total, total_words, translated, translated_words,
      approved, approved_words, fuzzy, fuzzy_words, raw)
    select ${translation}, ${at}::timestamptz, ${at}::timestamptz, t.project_slug, t.component_slug,
      t.language_code, ${s.total}, ${s.total_words}, ${s.translated}, ${s.translated_words},
      ${s.approved}, ${s.approved_words}, ${s.fuzzy}, ${s.fuzzy_words}, '{}'
    from weblate.translations t where t.id = ${translation}`.execute(db);
}

import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { DEFAULT_COST } from '../../src/db/queries/report-effort.ts';
import { DEFAULT_EFFORT, WORK_LIMITS } from '../../src/report/build-effort.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * Translator work and the cost estimate of migration 0018 over a hand-built mirror; every
 * expected figure is worked out in the comments, as Weblate 2026.10.1's translator_analysis.py
 * and generate_cost_estimate compute them.
 *
 * Translator work: project alpha (reviews off) has core (cs, de), docs (cs, category 5) and
 * guide (cs, category 6 inside 5); project beta has app (cs). The window is 2026-03-02 to
 * 2026-03-06 (UTC, end excluded).
 *
 * Cost: project gamma (reviews off) has g1 (cs, de), g2 (cs, category 7), g3 (cs, category 8
 * inside 7) and a glossary; delta has reviews on; eps uses no shared memory.
 */

let database: TestDatabase;
let handle: DbHandle;
let db: Kysely<Database>;

async function insertCatalog(): Promise<void> {
  await sql`insert into weblate.projects (id, slug, name, translation_review, raw) values
    (1, 'alpha', 'Alpha', false, '{}'), (2, 'beta', 'Beta', false, '{}'),
    (3, 'gamma', 'Gamma', false, '{}'), (4, 'delta', 'Delta', true, '{}'),
    (5, 'eps', 'Eps', false, '{"use_shared_tm": false}')`.execute(db);
  await sql`insert into weblate.categories (id, project_id, project_slug, slug, name, parent_id, raw)
    values (5, 1, 'alpha', 'manuals', 'Manuals', null, '{}'),
           (6, 1, 'alpha', 'guides', 'Guides', 5, '{}'),
           (7, 3, 'gamma', 'more', 'More', null, '{}'),
           (8, 3, 'gamma', 'deeper', 'Deeper', 7, '{}')`.execute(db);
  await sql`insert into weblate.components (id, project_id, project_slug, slug, name,
      source_language_code, category_id, is_glossary, raw) values
    (10, 1, 'alpha', 'core', 'Core', 'en', null, false, '{}'),
    (11, 1, 'alpha', 'docs', 'Docs', 'en', 5, false, '{}'),
    (12, 1, 'alpha', 'guide', 'Guide', 'en', 6, false, '{}'),
    (20, 2, 'beta', 'app', 'App', 'en', null, false, '{}'),
    (30, 3, 'gamma', 'g1', 'G1', 'en', null, false, '{}'),
    (31, 3, 'gamma', 'g2', 'G2', 'en', 7, false, '{}'),
    (32, 3, 'gamma', 'g3', 'G3', 'en', 8, false, '{}'),
    (33, 3, 'gamma', 'gglos', 'Glossary', 'en', null, true, '{}'),
    (40, 4, 'delta', 'd1', 'D1', 'en', null, false, '{}'),
    (41, 4, 'delta', 'd2', 'D2', 'en', null, false, '{}'),
    (50, 5, 'eps', 'e1', 'E1', 'en', null, false, '{}')`.execute(db);
  await sql`insert into weblate.translations (id, component_id, project_slug, component_slug,
      language_code, is_source, raw)
    select v.id, v.component_id, c.project_slug, c.slug, v.language_code, v.is_source, '{}'
    from (values
      (101, 10, 'cs', false), (102, 10, 'de', false), (111, 11, 'cs', false),
      (121, 12, 'cs', false), (201, 20, 'cs', false),
      (300, 30, 'en', true), (301, 30, 'cs', false), (302, 30, 'de', false),
      (311, 31, 'cs', false), (321, 32, 'cs', false), (331, 33, 'cs', false),
      (401, 40, 'cs', false), (411, 41, 'cs', false), (501, 50, 'cs', false)
    ) as v(id, component_id, language_code, is_source)
    join weblate.components c on c.id = v.component_id`.execute(db);
}

async function insertUnits(): Promise<void> {
  // unit id, translation, source forms, context, state, words, priority, position, target,
  // deleted. Translator work needs only words; the cost estimate reads the rest.
  await sql`insert into weblate.units (id, translation_id, source, target, context, state,
      num_words, priority, "position", deleted_at, id_hash, content_hash, raw)
    select v.id, v.translation_id, v.source, v.target, v.context, v.state, v.words, v.priority,
           v.position, v.deleted_at, v.id, v.id, '{}'
    from (values
      (1001, 101, array['a'], array['x'], '', 20, 2, 100, 1, null::timestamptz),
      (1002, 101, array['b'], array['x'], '', 20, 3, 100, 2, null),
      (1003, 101, array['c'], array['x'], '', 20, 4, 100, 3, null),
      (1004, 101, array['d'], array['x'], '', 20, 10, 100, 4, null),
      (1021, 102, array['e'], array['x'], '', 20, 3, 100, 1, null),
      (1101, 111, array['f'], array['x'], '', 20, 10, 100, 1, null),
      (1102, 111, array['g'], array['x'], '', 20, 3, 100, 2, null),
      (1103, 111, array['h'], array['x'], '', 20, 5, 100, 3, '2026-03-05T00:00:00Z'),
      (1201, 121, array['i'], array['x'], '', 20, 1, 100, 1, null),
      (2001, 201, array['j'], array['x'], '', 20, 5, 100, 1, null),
      (3000, 300, array['Source side'], array[''], '', 0, 2, 100, 1, null),
      (3001, 301, array['Save'], array[''], '', 0, 1, 100, 5, null),
      (3002, 301, array['Undo'], array[''], '', 0, 1, 100, 7, null),
      (3003, 301, array['Open'], array[''], 'menu', 0, 1, 100, 1, null),
      (3004, 301, array['%d file', '%d files'], array['', '', ''], '', 0, 4, 100, 2, null),
      (3005, 301, array['Grüße 😀'], array['Grüße'], '', 10, 2, 100, 3, null),
      (3006, 301, array['Cancel'], array[''], '', 0, 1, 100, 4, null),
      (3007, 301, array['Print'], array[''], 'menu', 0, 1, 100, 6, null),
      (3008, 301, array['Quit'], array[''], 'file', 0, 1, 100, 8, null),
      (3009, 301, array['Open files'], array[''], '', 0, 2, 100, 9, null),
      (3010, 301, array['Export'], array[''], '', 0, 1, 100, 10, null),
      (3011, 301, array['Close'], array[''], '', 0, 1, 100, 11, null),
      (3012, 301, array['Delete the file'], array['Smazat'], '', 10, 3, 100, 12, null),
      (3013, 301, array['Translated'], array['Přeloženo'], '', 20, 1, 100, 13, null),
      (3014, 301, array['Read only'], array['Jen ke čtení'], '', 100, 2, 100, 14, null),
      (3015, 301, array['Gone'], array[''], '', 0, 1, 100, 15, '2026-03-01T00:00:00Z'),
      (3016, 301, array['Empty target'], array[''], '', 0, 2, 100, 16, null),
      (3021, 302, array['Export'], array['Exportieren'], '', 20, 1, 100, 1, null),
      (3022, 302, array['Save'], array[''], '', 0, 1, 100, 2, null),
      (3101, 311, array['Save'], array['Ulo'], '', 10, 1, 120, 9, null),
      (3104, 311, array['%d file', '%d files'], array['', '', ''], '', 0, 4, 100, 3, null),
      (3106, 311, array['Cancel'], array['Zrušit'], '', 20, 1, 100, 4, null),
      (3107, 311, array['Print'], array['Tisk'], 'toolbar', 20, 1, 100, 5, null),
      (3108, 311, array['Quit'], array['Konec'], '', 30, 1, 100, 6, null),
      (3109, 311, array['Open file'], array['Otevřít soubor'], '', 20, 2, 100, 7, null),
      (3112, 311, array['Delete a file'], array['Smazat soubor'], '', 20, 3, 100, 8, null),
      (3113, 311, array['Settings'], array['Nastavení'], '', 20, 1, 100, 10, null),
      (3114, 311, array['Empty target'], array[''], '', 20, 2, 100, 11, null),
      (3115, 311, array['Apply'], array['Použít'], '', 20, 1, 100, 12, null),
      (3201, 321, array['Undo'], array['Zpět?'], '', 10, 1, 100, 7, null),
      (3301, 331, array['Close'], array['Zavřít'], '', 20, 1, 100, 1, null),
      (4001, 401, array['Help'], array['Nápověda'], '', 20, 1, 100, 1, null),
      (4002, 401, array['About'], array['O aplikaci'], '', 30, 2, 100, 2, null),
      (4101, 411, array['Help'], array[''], '', 0, 1, 100, 1, null),
      (4102, 411, array['About'], array[''], '', 0, 2, 100, 2, null),
      (4103, 411, array['Settings'], array[''], '', 0, 1, 100, 3, null),
      (4104, 411, array['Print'], array[''], 'toolbar', 0, 1, 100, 4, null),
      (5001, 501, array['Apply'], array[''], '', 0, 1, 100, 1, null)
    ) as v(id, translation_id, source, target, context, state, words, priority, position,
           deleted_at)`.execute(db);
}

async function insertWork(): Promise<void> {
  await sql`insert into weblate.users (username, answered, raw) values
    ('ana', 200, '{"username": "ana", "is_active": true, "is_bot": false}'),
    ('bob', 200, '{"username": "bob", "is_active": true, "is_bot": false}'),
    ('dan', 404, 'null'),
    ('botty', 200, '{"username": "botty", "is_active": true, "is_bot": true}'),
    ('gone', 200, '{"username": "gone", "is_active": false, "is_bot": false}')`.execute(db);
  // action, unit, author, time, how many such changes. cid has no users row at all.
  await sql`insert into weblate.changes (id, action, unit_id, translation_id, component_id,
      project_slug, component_slug, language_code, author_name, timestamp, raw)
    select row_number() over (), v.action, v.unit_id, v.translation_id, t.component_id,
           t.project_slug, t.component_slug, t.language_code, v.author, v.at::timestamptz, '{}'
    from (values
      (2, 1001, 101, 'ana', '2026-03-02T09:00:00Z', 1),
      (5, 1002, 101, 'ana', '2026-03-02T10:00:00Z', 1),
      (7, 1003, 101, 'ana', '2026-03-02T11:00:00Z', 1),
      (2, 1101, 111, 'ana', '2026-03-02T23:30:00-05:00', 1),
      (2, 1103, 111, 'ana', '2026-03-03T10:00:00Z', 1),
      (2, 9999, 111, 'ana', '2026-03-03T11:00:00Z', 1),
      (2, 1201, 121, 'bob', '2026-03-02T12:00:00Z', 2),
      (5, 1004, 101, 'bob', '2026-03-05T23:59:59.999999Z', 7),
      (2, 1102, 111, 'cid', '2026-03-02T08:00:00Z', 4),
      (2, 1021, 102, 'ana', '2026-03-04T08:00:00Z', 2),
      (2, 2001, 201, 'dan', '2026-03-02T08:00:00Z', 1),
      (2, 1001, 101, 'botty', '2026-03-02T08:00:00Z', 5),
      (2, 1001, 101, 'gone', '2026-03-02T08:00:00Z', 2),
      (36, 1001, 101, 'ana', '2026-03-02T12:00:00Z', 1),
      (6, 1002, 101, 'ana', '2026-03-02T12:00:00Z', 1),
      (2, 1001, 101, null, '2026-03-02T12:00:00Z', 1),
      (2, 1001, 101, 'ana', '2026-03-01T23:59:59.999999Z', 1),
      (2, 1001, 101, 'ana', '2026-03-06T00:00:00Z', 1)
    ) as v(action, unit_id, translation_id, author, at, n)
    cross join lateral generate_series(1, v.n)
    join weblate.translations t on t.id = v.translation_id`.execute(db);
}

/** A query's rows as lists of values, in the order of its select list. */
async function tuples(query: RawBuilder<unknown>, on: Kysely<Database> = db): Promise<unknown[][]> {
  return (await query.execute(on)).rows.map((row) => Object.values(row as Record<string, unknown>));
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
  db = handle.db;
  await insertCatalog();
  await insertUnits();
  await insertWork();
});

afterAll(async () => {
  await database?.drop();
});

const SINCE = '2026-03-02T00:00:00Z';
const UNTIL = '2026-03-06T00:00:00Z';

describe('weblate.translator_work', () => {
  const totals = (args: RawBuilder<unknown>) => sql`
    select user_days_included::text, user_days_excluded::text, strings_median::text,
           strings_mean::text, strings_p75::text, strings_p90::text, words_median::text,
           words_mean::text, words_p75::text, words_p90::text, translators::text,
           authors_unverified::text, changes_without_string::text
    from weblate.translator_work(${SINCE}::timestamptz, ${UNTIL}::timestamptz, ${args})`;

  // alpha's user-days (strings, words), active human authors, strings still mirrored:
  //   ana 03-02 core/cs 1001 + 1002 + 1003 (3, 2 + 3 + 4 = 9)
  //   ana 03-03 docs/cs 1101 at 23:30 on 03-02 in New York, 04:30 UTC on 03-03 (1, 10)
  //   bob 03-02 guide/cs 1201 twice (2, 2); bob 03-05 core/cs 1004 seven times (7, 70)
  //   cid 03-02 docs/cs 1102 four times (4, 12); ana 03-04 core/de 1021 twice (2, 6)
  // Left out: botty (a bot), gone (inactive), the approval (36) and automatic translation (6),
  // the change without author, those before since and at until; ana's changes of 1103
  // (deleted) and 9999 (never mirrored) are `changes_without_string`.

  it('takes the median, mean, p75 and p90 of an even number of user-days', async () => {
    // strings [1, 2, 2, 3, 4, 7]: median (2 + 3) / 2 = 2.5; mean 19 / 6; p75 at 5 × 0.75 = 3.75:
    // 3 × 0.25 + 4 × 0.75 = 3.75; p90 at 4.5: 4 × 0.5 + 7 × 0.5 = 5.5.
    // words [2, 6, 9, 10, 12, 70]: median 9.5; mean 109 / 6; p75 10 × 0.25 + 12 × 0.75 = 11.5;
    // p90 12 × 0.5 + 70 × 0.5 = 41. Translators ana, bob, cid; cid unverified (no users row).
    expect(await tuples(totals(sql`array['alpha'], min_changes => 1`))).toEqual([
      [
        '6',
        '0',
        '2.5',
        '3.1666666666666667',
        '3.75',
        '5.5',
        '9.5',
        '18.1666666666666667',
        '11.5',
        '41',
        '3',
        '1',
        '2',
      ],
    ]);
  });

  it('takes them of an odd number, and per language', async () => {
    // cs only (no ana 03-04): strings [1, 2, 3, 4, 7]: median 3, mean 17 / 5 = 3.4, p75 at
    // 3: 4, p90 at 3.6: 4 × 0.4 + 7 × 0.6 = 5.8; words [2, 9, 10, 12, 70]: median 10,
    // mean 103 / 5 = 20.6, p75 12, p90 12 × 0.4 + 70 × 0.6 = 46.8.
    expect(
      await tuples(totals(sql`array['alpha'], only_language => 'cs', min_changes => 1`)),
    ).toEqual([['5', '0', '3', '3.4', '4', '5.8', '10', '20.6', '12', '46.8', '3', '1', '2']]);
  });

  it('leaves out user-days over max_words and max_changes, and under min_changes', async () => {
    // Over 60 words: bob's 03-05 (70). Left: strings [1, 2, 3, 4]: median 2.5, mean 2.5, p75 at
    // 2.25: 3 × 0.75 + 4 × 0.25 = 3.25, p90 at 2.7: 3 × 0.3 + 4 × 0.7 = 3.7; words [2, 9, 10,
    // 12]: median 9.5, mean 8.25, p75 10 × 0.75 + 12 × 0.25 = 10.5, p90 10 × 0.3 + 12 × 0.7 = 11.4.
    const fourDays = ['4', '1', '2.5', '2.5', '3.25', '3.7', '9.5', '8.25', '10.5', '11.4'];
    expect(
      await tuples(
        totals(sql`array['alpha'], only_language => 'cs', min_changes => 1, max_words => 60`),
      ),
    ).toEqual([[...fourDays, '3', '1', '2']]);
    // Over 6 changes: the same day.
    expect(
      await tuples(
        totals(sql`array['alpha'], only_language => 'cs', min_changes => 1, max_changes => 6`),
      ),
    ).toEqual([[...fourDays, '3', '1', '2']]);
    // Weblate's defaults (5 to 1000 changes, 10,000 words): bob's 03-05 alone (7, 70).
    expect(await tuples(totals(sql`array['alpha']`))).toEqual([
      ['1', '5', '7', '7', '7', '7', '70', '70', '70', '70', '1', '1', '2'],
    ]);
  });

  it('keeps to a category with its subcategories, and to a project', async () => {
    // Category 5 (docs, and guide in category 6): ana 03-03 (1, 10), bob 03-02 (2, 2),
    // cid 03-02 (4, 12). strings [1, 2, 4]: median 2, mean 7 / 3, p75 at 1.5: 3, p90 at 1.8:
    // 2 × 0.2 + 4 × 0.8 = 3.6; words [2, 10, 12]: median 10, mean 8, p75 11, p90 11.6.
    expect(await tuples(totals(sql`only_category => 5, min_changes => 1`))).toEqual([
      ['3', '0', '2', '2.3333333333333333', '3', '3.6', '10', '8', '11', '11.6', '3', '1', '2'],
    ]);
    // Category 6: bob's 03-02 in guide alone.
    expect(await tuples(totals(sql`only_category => 6, min_changes => 1`))).toEqual([
      ['1', '0', '2', '2', '2', '2', '2', '2', '2', '2', '1', '0', '0'],
    ]);
    // beta: dan (1, 5), whose record the server did not show (404): counted, unverified.
    expect(await tuples(totals(sql`array['beta'], min_changes => 1`))).toEqual([
      ['1', '0', '1', '1', '1', '1', '5', '5', '5', '5', '1', '1', '0'],
    ]);
  });

  it('says nothing of the metrics when no user-day is included', async () => {
    expect(await tuples(totals(sql`array['beta']`))).toEqual([
      ['0', '1', null, null, null, null, null, null, null, null, '0', '1', '0'],
    ]);
  });
});

describe('weblate.translator_work_by_person and translator_work_days', () => {
  it('gives each translator the figures of their own user-days', async () => {
    // ana: strings [1, 2, 3]: median 2, mean 2, p75 at 1.5: 2.5, p90 at 1.8: 2 × 0.2 + 3 × 0.8
    // = 2.8; words [6, 9, 10]: median 9, mean 25 / 3, p75 9.5, p90 9 × 0.2 + 10 × 0.8 = 9.8.
    // bob: strings [2, 7]: median and mean 4.5, p75 at 0.75: 2 × 0.25 + 7 × 0.75 = 5.75, p90
    // 2 × 0.1 + 7 × 0.9 = 6.5; words [2, 70]: 36, 36, 2 × 0.25 + 70 × 0.75 = 53, 63.2.
    expect(
      await tuples(sql`select username, user_days_included::text, user_days_excluded::text,
          strings_median::text, strings_mean::text, strings_p75::text, strings_p90::text,
          words_median::text, words_mean::text, words_p75::text, words_p90::text,
          is_author_verified
        from weblate.translator_work_by_person(${SINCE}::timestamptz, ${UNTIL}::timestamptz,
          array['alpha'], min_changes => 1)
        order by username`),
    ).toEqual([
      ['ana', '3', '0', '2', '2', '2.5', '2.8', '9', '8.3333333333333333', '9.5', '9.8', true],
      ['bob', '2', '0', '4.5', '4.5', '5.75', '6.5', '36', '36', '53', '63.2', true],
      ['cid', '1', '0', '4', '4', '4', '4', '12', '12', '12', '12', false],
    ]);
    // Weblate's defaults: only bob's 03-05 is included.
    expect(
      await tuples(sql`select username, user_days_included::text, user_days_excluded::text,
          strings_median::text, words_p90::text
        from weblate.translator_work_by_person(${SINCE}::timestamptz, ${UNTIL}::timestamptz,
          array['alpha'])
        order by username`),
    ).toEqual([
      ['ana', '0', '3', null, null],
      ['bob', '1', '1', '7', '70'],
      ['cid', '0', '1', null, null],
    ]);
  });

  it('groups by UTC day', async () => {
    expect(
      await tuples(sql`select day::text, username, strings::text, words::text, is_included,
          is_author_verified
        from weblate.translator_work_days(${SINCE}::timestamptz, ${UNTIL}::timestamptz,
          array['alpha'], only_language => 'cs')
        order by day, username`),
    ).toEqual([
      ['2026-03-02', 'ana', '3', '9', false, true],
      ['2026-03-02', 'bob', '2', '2', false, true],
      ['2026-03-02', 'cid', '4', '12', false, false],
      ['2026-03-03', 'ana', '1', '10', false, true],
      ['2026-03-05', 'bob', '7', '70', true, true],
    ]);
  });
});

describe('weblate.cost_estimate', () => {
  const estimate = (args: RawBuilder<unknown>) => sql`
    select bucket, position, strings::text, words::text, chars::text, rate::text, cost::text,
           approximate
    from weblate.cost_estimate(${args}) order by position`;

  // gamma's strings left (state < 20, live, target languages), by bucket (strings, words, chars):
  // - repetition: 3001 Save (g2's 3101 comes first: priority 120 before 100), 3104 %d file(s)
  //   (3004 first: position 2 before 3), 3201 Undo (3002 first: the same priority and
  //   position, smaller id): 3, 1 + 4 + 1 = 6, 4 + 17 + 4 = 25 (plural forms joined by two
  //   U+001E: 7 + 2 + 8 = 17 characters).
  // - tm_100: 3006 Cancel (g2's 3106 translated), 3008 Quit ctx file (3108's context is
  //   empty): 2, 2, 6 + 4 = 10.
  // - tm_fuzzy: 3007 Print ctx menu (3107 ctx toolbar: 100 × 0.95 = 95), 3009 Open files (Open
  //   file: LCS 9 of 10 + 9: (1 − 1/19) × 100 = 94), 3012 Delete the file (Delete a file: LCS
  //   12 of 15 + 13: 85): 3, 1 + 2 + 3 = 6, 5 + 10 + 15 = 30.
  // - needs_editing (state 10): 3005 Grüße 😀 (7 code points), 3101 Save: 2, 3, 11.
  // - new: 3002 Undo, 3003 Open ctx menu (no Open translated), 3004 %d file(s) (plurals are
  //   not matched), 3010 Export (only de translates it), 3011 Close (only the glossary does),
  //   3016 Empty target (3114's target is empty), 3022 Save in de: 7, 1 + 1 + 4 + 1 + 1 + 2 +
  //   1 = 11, 4 + 4 + 17 + 6 + 5 + 12 + 4 = 52.
  // Left out: 3000 (source translation), 3013 and 3014 (translated, read-only), 3015 (deleted).
  it("sorts the strings left into Weblate's buckets and prices them at its default rates", async () => {
    // Cost = words × base rate × rate / 100: 6 × 0.5 = 3, 3 × 0.5 = 1.5, 11 × 1 = 11.
    expect(await tuples(estimate(sql`array['gamma']`))).toEqual([
      ['repetition', 1, '3', '6', '25', '0', '0', false],
      ['tm_100', 2, '2', '2', '10', '0', '0', true],
      ['tm_fuzzy', 3, '3', '6', '30', '50', '3', true],
      ['needs_editing', 4, '2', '3', '11', '50', '1.5', true],
      ['new', 5, '7', '11', '52', '100', '11', true],
      ['total', 6, '17', '28', '128', null, '15.5', true],
    ]);
  });

  it('prices at the rates given, exactly', async () => {
    // Base rate 0.12: 6 × 0.12 × 5 / 100 = 0.036; 2 × 0.12 × 10 / 100 = 0.024;
    // 6 × 0.12 × 33.33 / 100 = 0.239976; 3 × 0.12 × 66.66 / 100 = 0.239976; 11 × 0.12 = 1.32;
    // total 1.859952.
    expect(
      await tuples(
        estimate(sql`array['gamma'], base_rate => 0.12, rate_repetition => 5,
          rate_tm_100 => 10, rate_tm_fuzzy => 33.33, rate_needs_editing => 66.66`),
      ),
    ).toEqual([
      ['repetition', 1, '3', '6', '25', '5', '0.036', false],
      ['tm_100', 2, '2', '2', '10', '10', '0.024', true],
      ['tm_fuzzy', 3, '3', '6', '30', '33.33', '0.239976', true],
      ['needs_editing', 4, '2', '3', '11', '66.66', '0.239976', true],
      ['new', 5, '7', '11', '52', '100', '1.32', true],
      ['total', 6, '17', '28', '128', null, '1.859952', true],
    ]);
    // One rate for every bucket after repetition: the split no longer moves the total.
    expect(
      await tuples(
        sql`select bucket, cost::text, approximate from weblate.cost_estimate(array['gamma'],
          rate_tm_100 => 80, rate_tm_fuzzy => 80, rate_needs_editing => 80, rate_new => 80)
          where bucket = 'total'`,
      ),
    ).toEqual([['total', '17.6', false]]);
  });

  it('moves fuzzy matches under the threshold to needs editing or new', async () => {
    const buckets = (threshold: number) =>
      tuples(sql`select bucket, strings::text, words::text from weblate.cost_estimate(
          array['gamma'], tm_threshold => ${threshold}) where bucket <> 'total' order by position`);
    // 86: Delete the file (85, state 10) needs editing.
    expect(await buckets(86)).toEqual([
      ['repetition', '3', '6'],
      ['tm_100', '2', '2'],
      ['tm_fuzzy', '2', '3'],
      ['needs_editing', '3', '6'],
      ['new', '7', '11'],
    ]);
    // 95: Open files (94, state 0) is new as well; 101: Print (95) too, and nothing is fuzzy.
    expect(await buckets(95)).toEqual([
      ['repetition', '3', '6'],
      ['tm_100', '2', '2'],
      ['tm_fuzzy', '1', '1'],
      ['needs_editing', '3', '6'],
      ['new', '8', '13'],
    ]);
    expect(await buckets(101)).toEqual([
      ['repetition', '3', '6'],
      ['tm_100', '2', '2'],
      ['tm_fuzzy', '0', '0'],
      ['needs_editing', '3', '6'],
      ['new', '9', '14'],
    ]);
  });

  it('keeps to a category with its subcategories, and prices repetitions within the scope', async () => {
    // Category 7 (g2, and g3 in category 8): 3101 Save and 3201 Undo need editing (their
    // twins in g1 are outside), 3104 %d file(s) is new: 2, 2, 8 and 1, 4, 17.
    expect(await tuples(estimate(sql`only_category => 7`))).toEqual([
      ['repetition', 1, '0', '0', '0', '0', '0', false],
      ['tm_100', 2, '0', '0', '0', '0', '0', true],
      ['tm_fuzzy', 3, '0', '0', '0', '50', '0', true],
      ['needs_editing', 4, '2', '2', '8', '50', '1', true],
      ['new', 5, '1', '4', '17', '100', '4', true],
      ['total', 6, '3', '6', '25', null, '5', true],
    ]);
    expect(
      await tuples(sql`select bucket, strings::text from weblate.cost_estimate(only_category => 8)
        where strings > 0`),
    ).toEqual([
      ['needs_editing', '1'],
      ['total', '1'],
    ]);
    // German: 3022 Save is new; g1's German Export is no match for anything in Czech.
    expect(
      await tuples(sql`select bucket, strings::text from weblate.cost_estimate(
          only_language => 'de') where strings > 0`),
    ).toEqual([
      ['new', '1'],
      ['total', '1'],
    ]);
  });

  it("matches only active memory, and other projects' only where they share it", async () => {
    // delta has reviews on: 4001 Help is translated but not approved, so Weblate's memory
    // holds it as pending (quality × 0.7): 4101 Help is new; 4002 About is approved: 4102
    // About is an exact match. 4103 Settings and 4104 Print are new: gamma, which translates
    // them, is outside.
    const delta = await tuples(sql`select bucket, strings::text, words::text
      from weblate.cost_estimate(array['delta']) where strings > 0 order by position`);
    expect(delta).toEqual([
      ['tm_100', '1', '2'],
      ['new', '3', '3'],
      ['total', '4', '5'],
    ]);
    // With gamma in the scope, delta uses gamma's shared memory: Settings is exact too, and so
    // is Print in the context of gamma's (toolbar). eps uses no shared memory: 5001 Apply stays
    // new although gamma translates it. gamma's own buckets as above: tm_100 2 + 3 strings,
    // 2 + 4 words; new 7 + 2 strings, 11 + 2 words.
    expect(
      await tuples(sql`select bucket, strings::text, words::text from weblate.cost_estimate(
          array['gamma', 'delta', 'eps']) order by position`),
    ).toEqual([
      ['repetition', '3', '6'],
      ['tm_100', '5', '6'],
      ['tm_fuzzy', '3', '6'],
      ['needs_editing', '2', '3'],
      ['new', '9', '13'],
      ['total', '22', '34'],
    ]);
  });
});

describe('weblate.memory_similarity', () => {
  it("is Weblate's Comparer: rapidfuzz's QRatio, truncated", async () => {
    // Indel similarity 1 − (len a + len b − 2 LCS) / (len a + len b), × 100, truncated, in
    // code points; 0 when either is empty, as QRatio gives.
    expect(
      await tuples(sql`select weblate.memory_similarity(a, b) from (values
          ('this is a test', 'this is a test!', 1), ('abcde', 'abcdf', 2),
          ('aaaa', 'aaaaa', 3), ('ä😀b', 'ä😀c', 4), ('', '', 5), ('x', '', 6), ('Save', 'Save', 7),
          (repeat('ab', 40), repeat('ab', 39) || 'c', 8)) v(a, b, n) order by n`),
    ).toEqual([[96], [80], [88], [66], [0], [0], [100], [98]]);
    // 1 − 2/30 = 96.7; 1 − 2/10 = 80; 1 − 1/9 = 88.9; 1 − 2/6 = 66.7; identical: 100;
    // 80 and 79 characters (past one 62-bit word), LCS 78: 1 − 3/159 = 98.1.
  });

  it('is what memory_similarities gives each partner, down to the threshold it is asked for', async () => {
    // Texts of 0 to 140 code points over a small alphabet (near pairs share a stem), so that
    // both the one-word and the many-word paths run, and the cut-off meets real partners.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = ['a', 'b', 'c', 'ä', '😀', ' ', 'Z'];
    const text = (length: number) =>
      Array.from({ length }, () => alphabet[next(alphabet.length)]).join('');
    const groups = Array.from({ length: 12 }, () => {
      const a = text(next(141));
      const bs = Array.from({ length: 20 }, () =>
        next(2) === 0 ? text(next(141)) : a.slice(0, next(a.length + 1)) + text(next(6)),
      );
      return { a, bs };
    });
    let cut = 0;
    for (const { a, bs } of groups) {
      const { rows } = await sql<{ one: number; all: number | null; over: number | null }>`
        select weblate.memory_similarity(${a}, b) as one, q.all, q.over
        from unnest(${bs}::text[], weblate.memory_similarities(${a}, ${bs}::text[], 0),
                    weblate.memory_similarities(${a}, ${bs}::text[], 60)) q(b, "all", over)`.execute(
        db,
      );
      for (const row of rows) {
        expect(row.all).toBe(row.one);
        if (row.one >= 60) expect(row.over).toBe(row.one);
        else expect([null, row.one]).toContain(row.over);
        if (row.over === null) cut++;
      }
    }
    expect(cut).toBeGreaterThan(0);
  });
});

describe("the report's defaults", () => {
  /** A function's parameters that have a default, with it, as PostgreSQL prints them. */
  async function defaultsOf(name: string): Promise<Record<string, string>> {
    const { rows } = await sql<{ args: string }>`
      select pg_get_function_arguments(p.oid) as args from pg_proc p
      where p.proname = ${name} and p.pronamespace = 'weblate'::regnamespace`.execute(db);
    expect(rows).toHaveLength(1);
    const defaults: Record<string, string> = {};
    for (const m of rows[0]!.args.matchAll(/(\w+) [^,]*? DEFAULT ([^,]+)/g))
      defaults[m[1]!] = m[2]!;
    return defaults;
  }

  it("are the SQL functions' own, so that a figure means the same on both", async () => {
    const cost = await defaultsOf('cost_estimate');
    expect({
      base_rate: Number(cost.base_rate),
      tm_threshold: Number(cost.tm_threshold),
      rates: Object.fromEntries(
        Object.keys(DEFAULT_COST.rates).map((bucket) => [bucket, Number(cost[`rate_${bucket}`])]),
      ),
    }).toEqual(DEFAULT_COST);
    const work = await defaultsOf('translator_work');
    expect(Object.fromEntries(Object.keys(WORK_LIMITS).map((k) => [k, Number(work[k])]))).toEqual(
      WORK_LIMITS,
    );
    const target = await defaultsOf('strings_over_target');
    expect([target.in_state, target.target]).toEqual([
      `'${DEFAULT_EFFORT.target.state}'::text`,
      `'${DEFAULT_EFFORT.target.days} days'::interval`,
    ]);
  });
});

describe('who may read effort', () => {
  async function asRole(role: string, query: RawBuilder<unknown>): Promise<string> {
    return db
      .transaction()
      .execute(async (trx) => {
        await sql`set local role ${sql.raw(role)}`.execute(trx);
        return `${(await query.execute(trx)).rows.length} rows`;
      })
      .catch((err: Error) => err.message);
  }
  const byPerson = sql`select * from weblate.translator_work_by_person(${SINCE}::timestamptz,
    ${UNTIL}::timestamptz, min_changes => 1)`;
  const days = sql`select * from weblate.translator_work_days(${SINCE}::timestamptz,
    ${UNTIL}::timestamptz)`;
  const totals = sql`select * from weblate.translator_work(${SINCE}::timestamptz,
    ${UNTIL}::timestamptz)`;
  const cost = sql`select * from weblate.cost_estimate()`;

  it('gives weblate_reader the totals and the cost, not the people', async () => {
    expect(await asRole('weblate_reader', totals)).toBe('1 rows');
    expect(await asRole('weblate_reader', cost)).toBe('6 rows');
    expect(await asRole('weblate_reader', byPerson)).toMatch(
      /permission denied for function translator_work_by_person/,
    );
    expect(await asRole('weblate_reader', days)).toMatch(
      /permission denied for function translator_work_days/,
    );
  });

  it('gives weblate_effort_reader the people as well', async () => {
    // ana, bob, cid and dan.
    expect(await asRole('weblate_effort_reader', byPerson)).toBe('4 rows');
    expect(await asRole('weblate_effort_reader', days)).toBe('7 rows');
    expect(await asRole('weblate_effort_reader', totals)).toBe('1 rows');
    expect(await asRole('weblate_effort_reader', cost)).toBe('6 rows');
    const granted = await tuples(sql`
      select p.proname::text, has_function_privilege('public', p.oid, 'execute')
      from pg_proc p where p.pronamespace = 'weblate'::regnamespace
        and p.proname in ('translator_work_days', 'translator_work_by_person')
      order by 1`);
    expect(granted).toEqual([
      ['translator_work_by_person', false],
      ['translator_work_days', false],
    ]);
  });
});

import { type Kysely, type RawBuilder, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { migrateTo } from '../../src/db/schema-migrations.ts';
import { useTestDatabases } from '../helpers/database.ts';

/**
 * Migration 0019's post-editing figures over a hand-built history, every expected value
 * worked out in the comments. The history is written before 0019 (at 0017), so the
 * migration's backfill computes each change's edit_distance; then the answers read it.
 *
 * Project alpha: component app (category 6 "mobile" inside category 5 "apps"; cs and ja)
 * and docs (no category; cs). Project beta: web (cs). Fills (change 6) are by `admin`;
 * the weeks are those of Monday 5 and Monday 12 January 2026 (UTC).
 */

const databases = useTestDatabases();
let db: Kysely<Database>;

const PLURAL = '1 soubor\x1e\x1e%d soubory';
const PLURAL_EDITED = '1 soubor\x1e\x1e%d souborů';

async function insertHistory(): Promise<void> {
  await sql`insert into weblate.projects (id, slug, name, raw) values
    (1, 'alpha', 'Alpha', '{}'), (2, 'beta', 'Beta', '{}')`.execute(db);
  await sql`insert into weblate.categories (id, project_id, project_slug, slug, name, parent_id, raw)
    values (5, 1, 'alpha', 'apps', 'Apps', null, '{}'),
           (6, 1, 'alpha', 'mobile', 'Mobile', 5, '{}')`.execute(db);
  await sql`insert into weblate.components (id, project_id, project_slug, slug, name, category_id, raw)
    values (10, 1, 'alpha', 'app', 'App', 6, '{}'), (11, 1, 'alpha', 'docs', 'Docs', null, '{}'),
           (20, 2, 'beta', 'web', 'Web', null, '{}')`.execute(db);
  await sql`insert into weblate.translations (id, component_id, project_slug, component_slug,
      language_code, is_source, raw) values
    (101, 10, 'alpha', 'app', 'cs', false, '{}'), (102, 10, 'alpha', 'app', 'ja', false, '{}'),
    (111, 11, 'alpha', 'docs', 'cs', false, '{}'), (201, 20, 'beta', 'web', 'cs', false, '{}')`.execute(
    db,
  );
  // unit, translation, automatically_translated, last_updated
  await sql`insert into weblate.units (id, translation_id, id_hash, content_hash, num_words, state,
      automatically_translated, last_updated, source, target, raw)
    select v.id, v.translation_id, v.id, 0, 1, 20, v.auto, v.last_updated::timestamptz,
           '{}', '{}', '{}'
    from (values
      (1001, 101, null::boolean, null::text), (1002, 101, null, null), (1003, 101, null, null),
      (1004, 101, null, null), (1005, 101, null, null), (1006, 101, null, null),
      (1007, 101, null, null), (1008, 102, null, null), (1009, 102, null, null),
      (1010, 111, false, null),
      (1011, 111, true, '2026-01-13T10:00:00Z'),
      (1012, 111, null, '2026-01-06T15:00:00Z'),
      (1013, 111, null, '2026-01-06T15:00:00Z'),
      (1014, 111, false, '2026-01-06T15:00:00Z'),
      (1015, 111, true, '2026-01-08T10:00:00Z'),
      (1016, 111, null, '2026-01-06T15:00:00Z'),
      (2001, 201, null, null), (2002, 201, null, null)
    ) as v(id, translation_id, auto, last_updated)`.execute(db);
  // 1012 carries Weblate 5's label; 1013 carried it once; 1016 carries another label.
  await sql`insert into weblate.labels (id, project_id, project_slug, name, raw) values
    (50, 1, 'alpha', 'Automatically translated', '{}'), (51, 1, 'alpha', 'Needs review', '{}')`.execute(
    db,
  );
  await sql`insert into weblate.unit_labels (unit_id, label_id, deleted_at) values
    (1012, 50, null), (1013, 50, '2026-01-07T00:00:00Z'), (1016, 51, null)`.execute(db);
  await sql`insert into weblate.changes (id, action, unit_id, translation_id, component_id,
      project_slug, component_slug, language_code, user_name, author_name, old, target,
      timestamp, raw)
    select v.id, v.action, v.unit_id, t.id, t.component_id, t.project_slug, t.component_slug,
           t.language_code, coalesce(v.user_name, v.author), v.author, v.old, v.target,
           v.at::timestamptz, '{}'
    from (values
      (1, 6, 1001, 'admin', null::text, '', 'Uložit vše', '2026-01-05T10:00:00Z'),
      (2, 2, 1001, 'ana', null, 'Uložit vše', 'Uložit vse', '2026-01-05T13:30:00Z'),
      (3, 2, 1001, 'bob', null, 'Uložit vse', 'Uložit vše', '2026-01-06T09:00:00Z'),
      (4, 6, 1002, 'admin', null, '', ${PLURAL}, '2026-01-05T10:00:00Z'),
      (5, 2, 1002, 'ana', null, ${PLURAL}, ${PLURAL_EDITED}, '2026-01-07T10:00:00Z'),
      (6, 6, 1003, 'admin', null, '', 'Nastavení', '2026-01-06T08:00:00Z'),
      (7, 2, 1003, 'ana', null, 'Nastavení', 'Nastaveni', '2026-01-06T09:00:00Z'),
      (8, 6, 1004, 'admin', null, '', 'Zrušit', '2026-01-06T09:00:00Z'),
      (9, 36, 1004, 'rev', null, 'Zrušit', 'Zrušit', '2026-01-08T09:00:00Z'),
      (10, 2, 1004, 'ana', null, 'Zrušit', 'Zrušit akci', '2026-01-09T09:00:00Z'),
      (11, 6, 1005, 'admin', null, '', 'Zavřít okno', '2026-01-06T10:00:00Z'),
      (12, 7, 1005, 'cid', 'rev', 'Zavřít okno', 'Zavřít', '2026-01-06T22:00:00Z'),
      (13, 6, 1006, 'admin', null, '', 'Ano', '2026-01-12T10:00:00Z'),
      (14, 2, 1006, 'ana', null, 'Ano', 'OK', '2026-01-12T11:00:00Z'),
      (15, 6, 1007, 'admin', null, '', 'Soubor', '2026-01-05T11:00:00Z'),
      (16, 6, 1007, 'admin', null, 'Soubor', 'Dokument', '2026-01-12T09:00:00Z'),
      (17, 2, 1007, 'ana', null, 'Dokument', 'Dok', '2026-01-12T09:30:00Z'),
      (18, 6, 1008, 'admin', null, '', '画像を保存しています', '2026-01-05T12:00:00Z'),
      (19, 2, 1008, 'ken', null, '画像を保存しています', '画面を削除しています', '2026-01-05T18:00:00Z'),
      (20, 6, 1009, 'admin', null, '', 'Hi 👋!', '2026-01-06T12:00:00Z'),
      (21, 2, 1009, 'ken', null, 'Hi 👋!', 'Yo 👋?', '2026-01-06T14:00:00Z'),
      (22, 6, 1010, 'admin', null, '', 'Dokumentace', '2026-01-07T10:00:00Z'),
      (23, 76, 1010, 'admin', null, 'Dokumentace', 'Dokumentace', '2026-01-07T10:00:00Z'),
      (24, 3, 1010, 'cid', null, '', 'Je to správně?', '2026-01-07T11:00:00Z'),
      (25, 6, 1015, 'admin', null, '', 'Verze', '2026-01-08T10:00:00Z'),
      (26, 6, 2001, 'admin', null, '', 'Přihlásit', '2026-01-13T10:00:00Z'),
      (27, 9, 2001, 'dan', null, 'Přihlásit', 'Přihlásit se', '2026-01-14T10:00:00Z'),
      (28, 6, 2002, 'admin', null, '', 'Odhlásit', '2026-01-13T10:00:00Z'),
      (29, 2, 2002, 'dan', null, null, 'Odhlásit se', '2026-01-13T12:00:00Z'),
      (31, 5, 1014, 'ana', null, '', 'Ne', '2026-01-06T15:00:00Z'),
      (32, 2, 1014, 'bob', null, 'Ne', 'Uolžit', '2026-01-06T16:00:00Z'),
      (33, 2, 1014, 'bob', null, 'Uolžit', 'Uložit', '2026-01-06T17:00:00Z'),
      (34, 2, 1014, 'bob', null, 'CA', 'ABC', '2026-01-06T18:00:00Z'),
      (35, 2, 1014, 'bob', null, 'ABC', 'CA', '2026-01-06T19:00:00Z')
    ) as v(id, action, unit_id, author, user_name, old, target, at)
    join weblate.units u on u.id = v.unit_id
    join weblate.translations t on t.id = u.translation_id`.execute(db);
  // More changes than one batch of the backfill holds, whose ids sort otherwise as text.
  await sql`insert into weblate.changes (id, action, old, target, timestamp, raw)
    select n, 2, 'Ahoj', 'Ahoj!', '2026-01-02T00:00:00Z', '{}'
    from generate_series(100001, 102500) n`.execute(db);
}

/** A query's rows as lists of values, in the order of its select list. */
async function tuples(query: RawBuilder<unknown>, on: Kysely<Database> = db): Promise<unknown[][]> {
  return (await query.execute(on)).rows.map((row) => Object.values(row as Record<string, unknown>));
}

beforeAll(async () => {
  const database = await databases.create({ empty: true });
  const handle = await database.open();
  db = handle.db;
  await migrateTo(db, '0017_people_and_freshness');
  await insertHistory();
  await migrateToLatest(handle);
});

describe('migration 0019', () => {
  it("computes Weblate's edit distance of every change mirrored before", async () => {
    const rows = await tuples(
      sql`select id::int, edit_distance from weblate.changes where id < 100000 order by id`,
    );
    expect(rows).toEqual([
      [1, 10], // '' → 'Uložit vše': 10 code points inserted
      [2, 1], // š → s
      [3, 1], // s → š
      [4, 20], // '' → '1 soubor' (8) + '\x1e\x1e' (2) + '%d soubory' (10)
      [5, 1], // y → ů in the second plural form
      [6, 9], // '' → 'Nastavení'
      [7, 1], // í → i
      [8, 6], // '' → 'Zrušit'
      [9, 0], // approved as it was
      [10, 5], // ' akci' appended
      [11, 11], // '' → 'Zavřít okno'
      [12, 5], // ' okno' removed
      [13, 3], // '' → 'Ano'
      [14, 3], // 'Ano' → 'OK': no letter in common, A → O, n → K, o removed
      [15, 6], // '' → 'Soubor'
      [16, 6], // 'Soubor' → 'Dokument': S → D, k inserted, b → m, o → e, r → n, t appended
      [17, 5], // 'ument' removed
      [18, 10], // '' → ten CJK characters
      [19, 3], // 像 → 面, 保 → 削, 存 → 除
      [20, 5], // '' → 'Hi 👋!': five code points (six UTF-16 units)
      [21, 3], // H → Y, i → o, ! → ?
      [22, 11], // '' → 'Dokumentace'
      [23, 0],
      [24, 14], // a comment's text: 'Je to správně?'
      [25, 5], // '' → 'Verze'
      [26, 9], // '' → 'Přihlásit'
      [27, 3], // ' se' appended
      [28, 8], // '' → 'Odhlásit'
      [29, null], // no old text
      [31, 2], // '' → 'Ne'
      [32, 6], // 'Ne' → 'Uolžit': N → U, e → o, 'lžit' appended
      [33, 1], // o and l transposed
      [34, 2], // C and A transposed, B inserted between them (optimal string alignment: 3)
      [35, 2], // and back: B removed, A and C transposed
    ]);
    // '!' appended, in each of the 2,500 changes of three batches.
    expect(
      await tuples(sql`select edit_distance, count(*)::int from weblate.changes
        where id > 100000 group by 1`),
    ).toEqual([[1, 2500]]);
  });
});

const FILL_COLUMNS = sql.raw(`unit_id::int, project_slug, component_slug, language_code, evidence,
  fill_change_id::int, to_char(filled_at at time zone 'UTC', 'MM-DD HH24:MI') as filled_at, outcome,
  person_change_id::int, person_action, edit_distance, edit_percent::text, edit_band,
  hours_to_person::text`);

describe('weblate.machine_translation_fills', () => {
  it('follows each fill to the first change of a person after it', async () => {
    expect(
      await tuples(sql`select ${FILL_COLUMNS} from weblate.machine_translation_fills()
        order by unit_id, filled_at`),
    ).toEqual([
      // 1 / 10 code points = 10 %: the band's upper end. Filled 10:00, edited 13:30. Bob's
      // edit the next day is not the post-edit.
      [
        1001,
        'alpha',
        'app',
        'cs',
        'change log',
        1,
        '01-05 10:00',
        'edited',
        2,
        2,
        1,
        '10.00',
        '1-10',
        '3.50',
      ],
      // 1 / 20 (two plural forms, 8 + 2 + 10) = 5 %, two days later.
      [
        1002,
        'alpha',
        'app',
        'cs',
        'change log',
        4,
        '01-05 10:00',
        'edited',
        5,
        2,
        1,
        '5.00',
        '1-10',
        '48.00',
      ],
      // 1 / 9 = 11.11 %: past 10, so 11-30.
      [
        1003,
        'alpha',
        'app',
        'cs',
        'change log',
        6,
        '01-06 08:00',
        'edited',
        7,
        2,
        1,
        '11.11',
        '11-30',
        '1.00',
      ],
      // Approved as it was, 48 hours on: kept by a person; ana's later edit does not count.
      [
        1004,
        'alpha',
        'app',
        'cs',
        'change log',
        8,
        '01-06 09:00',
        'kept',
        9,
        36,
        0,
        '0.00',
        '0',
        '48.00',
      ],
      // A suggestion accepted: replaced, whatever its distance (5 / 11 = 45.45 %).
      [
        1005,
        'alpha',
        'app',
        'cs',
        'change log',
        11,
        '01-06 10:00',
        'replaced',
        12,
        7,
        5,
        '45.45',
        '31-60',
        '12.00',
      ],
      // 3 / 3 = 100 %: nothing of the machine's text is left, replaced.
      [
        1006,
        'alpha',
        'app',
        'cs',
        'change log',
        13,
        '01-12 10:00',
        'replaced',
        14,
        2,
        3,
        '100.00',
        'over 60',
        '1.00',
      ],
      // Filled again before anyone edited it: superseded; the second fill's edit is 5 / 8.
      [
        1007,
        'alpha',
        'app',
        'cs',
        'change log',
        15,
        '01-05 11:00',
        'superseded',
        null,
        null,
        null,
        null,
        null,
        null,
      ],
      [
        1007,
        'alpha',
        'app',
        'cs',
        'change log',
        16,
        '01-12 09:00',
        'edited',
        17,
        2,
        5,
        '62.50',
        'over 60',
        '0.50',
      ],
      // 3 / 10 = 30 %, the band's upper end; 6 hours.
      [
        1008,
        'alpha',
        'app',
        'ja',
        'change log',
        18,
        '01-05 12:00',
        'edited',
        19,
        2,
        3,
        '30.00',
        '11-30',
        '6.00',
      ],
      // 3 / 5 code points = 60 % (as UTF-16 units it would be 3 / 6).
      [
        1009,
        'alpha',
        'app',
        'ja',
        'change log',
        20,
        '01-06 12:00',
        'edited',
        21,
        2,
        3,
        '60.00',
        '31-60',
        '2.00',
      ],
      // An enforced check (76) and a comment (3) follow: no person's change, kept as it was.
      [
        1010,
        'alpha',
        'docs',
        'cs',
        'change log',
        22,
        '01-07 10:00',
        'kept',
        null,
        null,
        null,
        null,
        null,
        null,
      ],
      // No fill in the log: the flag says so, filled at last_updated at the latest.
      [
        1011,
        'alpha',
        'docs',
        'cs',
        'flag',
        null,
        '01-13 10:00',
        'kept',
        null,
        null,
        null,
        null,
        null,
        null,
      ],
      // Weblate 5's label says so.
      [
        1012,
        'alpha',
        'docs',
        'cs',
        'label',
        null,
        '01-06 15:00',
        'kept',
        null,
        null,
        null,
        null,
        null,
        null,
      ],
      // Flagged, and its fill is in the log: counted once, from the log.
      [
        1015,
        'alpha',
        'docs',
        'cs',
        'change log',
        25,
        '01-08 10:00',
        'kept',
        null,
        null,
        null,
        null,
        null,
        null,
      ],
      // An upload: replaced; 3 / 12 = 25 %, a day later.
      [
        2001,
        'beta',
        'web',
        'cs',
        'change log',
        26,
        '01-13 10:00',
        'replaced',
        27,
        9,
        3,
        '25.00',
        '11-30',
        '24.00',
      ],
      // The change has no old text: edited (its target differs), distance unknown.
      [
        2002,
        'beta',
        'web',
        'cs',
        'change log',
        28,
        '01-13 10:00',
        'edited',
        29,
        2,
        null,
        null,
        null,
        '2.00',
      ],
    ]);
  });

  it('filters by project, component, category, language and time of the fill', async () => {
    const units = async (query: RawBuilder<unknown>) =>
      (await tuples(query)).map((r) => r.join(':'));
    expect(
      await units(sql`select unit_id from weblate.machine_translation_fills(only_projects => array['beta'])
        order by 1`),
    ).toEqual(['2001', '2002']);
    expect(
      await units(sql`select unit_id from weblate.machine_translation_fills(only_components => array['docs'])
        order by 1`),
    ).toEqual(['1010', '1011', '1012', '1015']);
    // Category 5 holds category 6, whose component is app.
    const app = ['1001', '1002', '1003', '1004', '1005', '1006', '1007', '1007', '1008', '1009'];
    expect(
      await units(sql`select unit_id from weblate.machine_translation_fills(only_category => 5)
        order by 1`),
    ).toEqual(app);
    expect(
      await units(sql`select unit_id from weblate.machine_translation_fills(only_category => 6)
        order by 1`),
    ).toEqual(app);
    expect(
      await units(sql`select unit_id from weblate.machine_translation_fills(only_language => 'ja')
        order by 1`),
    ).toEqual(['1008', '1009']);
    expect(
      await units(sql`select unit_id, fill_change_id from weblate.machine_translation_fills(
          since => '2026-01-12T00:00:00Z', until => '2026-01-13T10:00:00Z') order by 1`),
    ).toEqual(['1006:13', '1007:16']);
    expect(
      await units(sql`select unit_id from weblate.machine_translation_fills(
          since => '2026-01-13T00:00:00Z') order by 1`),
    ).toEqual(['1011', '2001', '2002']);
  });
});

const OUTCOME_COLUMNS = sql.raw(`period_start::text, scope, project_slug, component_slug,
  language_code, filled, kept, untouched, edited, replaced, superseded, edits_0, edits_1_10,
  edits_11_30, edits_31_60, edits_over_60, median_edit_percent::text, p90_edit_percent::text,
  median_hours_to_person::text, p90_hours_to_person::text, from_change_log, from_flag,
  from_label`);

describe('weblate.machine_translation_outcomes', () => {
  it('sums the fills per week', async () => {
    expect(
      await tuples(sql`select ${OUTCOME_COLUMNS} from weblate.machine_translation_outcomes()
        where scope = 'all' order by period_start`),
    ).toEqual([
      // Week of 5 January: 11 fills (1001-1005, 1007's first, 1008, 1009, 1010, 1012, 1015).
      // Kept 1004 (by a person), 1010, 1012, 1015 (untouched); edited 1001, 1002, 1003,
      // 1008, 1009; replaced 1005; superseded 1007. Percentages in order: 0, 5, 10, 11.11,
      // 30, 45.45, 60: median 11.11; p90 at rank 0.9 × 6 = 5.4, 45.45 + 0.4 × 14.55 = 51.27.
      // Hours in order: 1, 2, 3.5, 6, 12, 48, 48: median 6; p90 48 + 0.4 × 0 = 48.
      [
        '2026-01-05',
        'all',
        null,
        null,
        null,
        '11',
        '4',
        '3',
        '5',
        '1',
        '1',
        '1',
        '2',
        '2',
        '2',
        '0',
        '11.11',
        '51.27',
        '6.00',
        '48.00',
        '10',
        '0',
        '1',
      ],
      // Week of 12 January: 1006, 1007's second, 1011, 2001, 2002. Percentages 25, 62.5,
      // 100 (2002's unknown): median 62.5, p90 at 0.9 × 2 = 1.8, 62.5 + 0.8 × 37.5 = 92.5.
      // Hours 0.5, 1, 2, 24: median 1.5, p90 at 0.9 × 3 = 2.7, 2 + 0.7 × 22 = 17.4.
      [
        '2026-01-12',
        'all',
        null,
        null,
        null,
        '5',
        '1',
        '1',
        '2',
        '2',
        '0',
        '0',
        '0',
        '1',
        '0',
        '2',
        '62.50',
        '92.50',
        '1.50',
        '17.40',
        '4',
        '1',
        '0',
      ],
    ]);
  });

  it('gives each scope its own medians', async () => {
    expect(
      await tuples(sql`select ${OUTCOME_COLUMNS} from weblate.machine_translation_outcomes()
        where language_code = 'ja' order by scope`),
    ).toEqual([
      // 30 % and 60 %: median 45, p90 30 + 0.9 × 30 = 57; hours 2 and 6: 4 and 2 + 0.9 × 4.
      [
        '2026-01-05',
        'component and language',
        'alpha',
        'app',
        'ja',
        '2',
        '0',
        '0',
        '2',
        '0',
        '0',
        '0',
        '0',
        '1',
        '1',
        '0',
        '45.00',
        '57.00',
        '4.00',
        '5.60',
        '2',
        '0',
        '0',
      ],
      [
        '2026-01-05',
        'language',
        null,
        null,
        'ja',
        '2',
        '0',
        '0',
        '2',
        '0',
        '0',
        '0',
        '0',
        '1',
        '1',
        '0',
        '45.00',
        '57.00',
        '4.00',
        '5.60',
        '2',
        '0',
        '0',
      ],
      [
        '2026-01-05',
        'project and language',
        'alpha',
        null,
        'ja',
        '2',
        '0',
        '0',
        '2',
        '0',
        '0',
        '0',
        '0',
        '1',
        '1',
        '0',
        '45.00',
        '57.00',
        '4.00',
        '5.60',
        '2',
        '0',
        '0',
      ],
    ]);
    // Project beta, by month: 2001 and 2002 in January, in each of its scopes.
    const beta = await tuples(sql`select scope, filled, replaced, edited
      from weblate.machine_translation_outcomes('month', only_projects => array['beta'])
      order by scope`);
    expect(beta).toEqual([
      ['all', '2', '1', '1'],
      ['component', '2', '1', '1'],
      ['component and language', '2', '1', '1'],
      ['language', '2', '1', '1'],
      ['project', '2', '1', '1'],
      ['project and language', '2', '1', '1'],
    ]);
  });
});

describe('people are opt-in', () => {
  it('post_edits names who made each post-edit, for weblate_effort_reader', async () => {
    const rows = await db.transaction().execute(async (trx) => {
      await sql`set local role weblate_effort_reader`.execute(trx);
      return tuples(
        sql`select unit_id::int, fill_change_id::int, author_name from weblate.post_edits()
          where person_change_id is not null order by unit_id, filled_at`,
        trx,
      );
    });
    expect(rows).toEqual([
      [1001, 1, 'ana'],
      [1002, 4, 'ana'],
      [1003, 6, 'ana'],
      [1004, 8, 'rev'],
      // The suggestion's author, not rev who accepted it.
      [1005, 11, 'cid'],
      [1006, 13, 'ana'],
      [1007, 16, 'ana'],
      [1008, 18, 'ken'],
      [1009, 20, 'ken'],
      [2001, 26, 'dan'],
      [2002, 28, 'dan'],
    ]);
  });

  it('refuses post_edits to weblate_reader, which reads the totals', async () => {
    const asReader = <T>(query: RawBuilder<T>) =>
      db.transaction().execute(async (trx) => {
        await sql`set local role weblate_reader`.execute(trx);
        return (await query.execute(trx)).rows;
      });
    await expect(asReader(sql`select * from weblate.post_edits()`)).rejects.toThrow(
      /permission denied for function post_edits/,
    );
    // The reader reads every row of the totals that the owner reads.
    const outcomes = sql<{
      n: string;
    }>`select count(*) as n from weblate.machine_translation_outcomes()`;
    expect(await asReader(outcomes)).toEqual((await outcomes.execute(db)).rows);
    expect(await asReader(outcomes)).not.toEqual([{ n: '0' }]);
    expect(
      await asReader(
        sql<{ n: string }>`select count(*) as n from weblate.machine_translation_fills()`,
      ),
    ).toEqual([{ n: '16' }]);
    const granted = await sql<{ role: string; may: boolean }>`
      select r.rolname as role,
             has_function_privilege(r.rolname,
               'weblate.post_edits(text[], text[], integer, text, timestamptz, timestamptz)',
               'execute') as may
      from pg_roles r where r.rolname in ('public', 'weblate_reader', 'weblate_effort_reader')
      order by 1`.execute(db);
    expect(granted.rows).toEqual([
      { role: 'weblate_effort_reader', may: true },
      { role: 'weblate_reader', may: false },
    ]);
  });
});

import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { type DatabaseClock, readDatabaseClock } from '../helpers/database-clock.ts';

/**
 * The answer functions of migration 0010 over a small hand-built mirror whose every
 * expected figure is worked out in the comments. Changes happen at fixed times in January
 * 2026 (the week of Monday 5 January, unless said otherwise); statistics snapshots at
 * `clock.at(n)`, n UTC days before the database's today.
 *
 * Project alpha (reviews on): core (source en; cs, de) and docs (cs). Project beta
 * (reviews off): app (cs). Strings are told apart by id_hash: 1 (3 words), 2 (5 words),
 * 8 (4 words, removed), 9 (4 words), 5 (2 words, beta).
 */

let database: TestDatabase;
let handle: DbHandle;
let db: Kysely<Database>;
let clock: DatabaseClock;

async function insertFixture(): Promise<void> {
  await sql`insert into weblate.projects (id, slug, name, translation_review, raw) values
    (1, 'alpha', 'Alpha', true, '{}'), (2, 'beta', 'Beta', false, '{}')`.execute(db);
  await sql`insert into weblate.components (id, project_id, project_slug, slug, name, raw) values
    (10, 1, 'alpha', 'core', 'Core', '{}'), (11, 1, 'alpha', 'docs', 'Docs', '{}'),
    (20, 2, 'beta', 'app', 'App', '{}')`.execute(db);
  await sql`insert into weblate.translations (id, component_id, project_slug, component_slug,
      language_code, is_source, total, total_words, translated, translated_words, raw) values
    (100, 10, 'alpha', 'core', 'en', true, 2, 8, 2, 8, '{}'),
    (101, 10, 'alpha', 'core', 'cs', false, 10, 100, 8, 85, '{}'),
    (102, 10, 'alpha', 'core', 'de', false, 10, 100, 5, 50, '{}'),
    (110, 11, 'alpha', 'docs', 'cs', false, 10, 100, 9, 95, '{}'),
    (200, 20, 'beta', 'app', 'cs', false, 1, 10, 1, 10, '{}')`.execute(db);
  // unit id, translation, id_hash, words, state, automatically_translated, last_updated
  await sql`insert into weblate.units (id, translation_id, id_hash, content_hash, num_words, state,
      automatically_translated, last_updated, deleted_at, source, target, raw)
    select v.id, v.translation_id, v.id_hash, 0, v.words, v.state, v.auto, v.last_updated,
           v.deleted_at, '{}', '{}', '{}'
    from (values
      (1000, 100, 1, 3, 100, null::boolean, null::timestamptz, null::timestamptz),
      (1001, 100, 2, 5, 100, null, null, null),
      (1010, 101, 1, 3, 30, true, null, null),
      (1011, 101, 2, 5, 30, false, null, null),
      (1020, 102, 1, 3, 20, null, null, null),
      (1021, 102, 2, 5, 0, null, null, null),
      (1100, 110, 9, 4, 20, null, ${clock.ago(3, 1)}::timestamptz, null),
      (1101, 110, 8, 4, 0, null, null, '2026-01-14T12:00:00Z'::timestamptz),
      (2000, 200, 5, 2, 20, null, null, null)
    ) as v(id, translation_id, id_hash, words, state, auto, last_updated, deleted_at)`.execute(db);
  // change id, action, unit, user, author, time
  await sql`insert into weblate.changes (id, action, unit_id, translation_id, component_id,
      project_slug, component_slug, language_code, user_name, author_name, timestamp, raw)
    select v.id, v.action, v.unit_id, t.id, t.component_id, t.project_slug, t.component_slug,
           t.language_code, v.user_name, v.author_name, v.at::timestamptz, '{}'
    from (values
      (1, 13, 1000, 'src', 'src', '2026-01-05T10:00:00Z'),
      (2, 31, 1010, 'src', 'src', '2026-01-06T10:00:00Z'),
      (3, 90, 1001, null, null, '2026-01-13T10:00:00Z'),
      (4, 63, 1101, 'src', 'src', '2026-01-14T10:00:00Z'),
      (10, 5, 1010, 'ana', 'ana', '2026-01-05T12:00:00Z'),
      (11, 2, 1010, 'ana', 'ana', '2026-01-06T10:00:00Z'),
      (12, 2, 1011, 'ana', 'ana', '2026-01-06T12:00:00Z'),
      (13, 7, 1020, 'rev', 'bob', '2026-01-07T10:00:00Z'),
      (14, 36, 1011, 'rev', 'rev', '2026-01-08T12:00:00Z'),
      (15, 4, 1100, 'cid', 'cid', '2026-01-07T11:00:00Z'),
      (16, 3, 1010, 'cid', 'cid', '2026-01-07T12:00:00Z'),
      (17, 3, 1010, 'cid', 'cid', '2026-01-07T13:00:00Z'),
      (18, 6, 1021, 'rev', 'rev', '2026-01-08T10:00:00Z'),
      (19, 9, 2000, 'dan', 'dan', '2026-01-09T10:00:00Z'),
      (20, 59, 1020, null, null, '2026-01-09T11:00:00Z'),
      (21, 36, 1010, 'rev', 'rev', '2026-01-10T10:00:00Z')
    ) as v(id, action, unit_id, user_name, author_name, at)
    join weblate.units u on u.id = v.unit_id
    join weblate.translations t on t.id = u.translation_id`.execute(db);
  // core cs: 70 → 85 translated words over the last 30 days (pace 0.5 a day), failing 4 → 1;
  // core de: no progress; docs cs: one snapshot (no pace), failing 2.
  await sql`insert into weblate.translation_statistics (translation_id, captured_at, last_seen_at,
      project_slug, component_slug, language_code, total, total_words, translated,
      translated_words, failing, raw)
    select v.id, v.at::timestamptz, v.at::timestamptz, t.project_slug, t.component_slug,
           t.language_code, 10, 100, 0, v.words, v.failing, '{}'
    from (values
      (101, ${clock.at(40)}, 70, 4), (101, ${clock.at(1)}, 85, 1),
      (102, ${clock.at(40)}, 50, 0), (110, ${clock.at(1)}, 95, 2)
    ) as v(id, at, words, failing)
    join weblate.translations t on t.id = v.id`.execute(db);
}

/** A query's rows as lists of values, in the order of its select list. */
async function tuples(query: RawBuilder<unknown>): Promise<unknown[][]> {
  return (await query.execute(db)).rows.map((row) => Object.values(row as Record<string, unknown>));
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

describe('weblate.source_string_changes', () => {
  const columns = sql.raw(`period_start::text, project_slug, component_slug, strings_added,
    words_added, strings_removed, words_removed`);

  it('counts each added or removed string once per component, whatever its language', async () => {
    // Hash 1 is added in en (13) and again in cs (31): once, in the week of its first change.
    expect(
      await tuples(sql`select ${columns} from weblate.source_string_changes()
        order by period_start, component_slug`),
    ).toEqual([
      ['2026-01-05', 'alpha', 'core', '1', '3', '0', '0'],
      ['2026-01-12', 'alpha', 'core', '1', '5', '0', '0'],
      ['2026-01-12', 'alpha', 'docs', '0', '0', '1', '4'],
    ]);
  });

  it('sums per month and keeps to the components and window asked for', async () => {
    expect(
      await tuples(sql`select ${columns} from weblate.source_string_changes('month',
        only_components => array['core'])`),
    ).toEqual([['2026-01-01', 'alpha', 'core', '2', '8', '0', '0']]);
    expect(
      await tuples(sql`select ${columns} from weblate.source_string_changes('day',
        since => '2026-01-06T00:00:00Z', until => '2026-01-14T00:00:00Z')
        order by period_start`),
    ).toEqual([
      ['2026-01-06', 'alpha', 'core', '1', '3', '0', '0'],
      ['2026-01-13', 'alpha', 'core', '1', '5', '0', '0'],
    ]);
    expect(
      await tuples(
        sql`select ${columns} from weblate.source_string_changes(only_projects => array['beta'])`,
      ),
    ).toEqual([]);
  });
});

describe('weblate.contributions', () => {
  it('counts strings and words translated, approved and suggested, and comments, per person', async () => {
    // Every change counts, credited to its author: ana translated hash 1 twice and hash 2
    // once (3 strings, 3 + 3 + 5 words). rev approved both (3 + 5 words). cid suggested in
    // docs and commented twice on one string. Content changes, as Weblate's credits count
    // them: ana's three edits, rev's two approvals, src's new string (31), with their source
    // words. Suggestions and comments are not content.
    expect(
      await tuples(sql`select username, strings_translated, words_translated, strings_approved,
          words_approved, strings_suggested, words_suggested, comments, content_changes, rank,
          content_words
        from weblate.contributions()
        where scope = 'project and language' and project_slug = 'alpha' and language_code = 'cs'
        order by rank, username`),
    ).toEqual([
      ['ana', '3', '11', '0', '0', '0', '0', '0', '3', '1', '11'],
      ['cid', '0', '0', '0', '0', '1', '4', '2', '0', '2', '0'],
      ['rev', '0', '0', '2', '8', '0', '0', '0', '2', '2', '8'],
      ['src', '0', '0', '0', '0', '0', '0', '0', '1', '2', '3'],
    ]);
  });

  it('counts each change once, whatever the period unit', async () => {
    // ana's string 1, translated in two weeks, counts twice over the whole window too.
    expect(
      await tuples(sql`select period_start, strings_translated, content_changes
        from weblate.contributions(null, only_language => 'cs')
        where scope = 'project and language' and project_slug = 'alpha' and username = 'ana'`),
    ).toEqual([[null, '3', '3']]);
    expect(
      await tuples(sql`select sum(strings_translated)::text from weblate.contributions('day',
          only_language => 'cs')
        where scope = 'project and language' and project_slug = 'alpha' and username = 'ana'`),
    ).toEqual([['3']]);
  });

  it('ranks per language over projects and per project over languages', async () => {
    const ranking = (scope: string) => sql`
      select project_slug, language_code, username, words_translated, rank
      from weblate.contributions('month') where scope = ${scope}
      order by project_slug nulls first, language_code nulls first, rank, username`;
    // An accepted suggestion (7) is its author's (bob), not the reviewer's.
    expect(await tuples(ranking('project'))).toEqual([
      ['alpha', null, 'ana', '11', '1'],
      ['alpha', null, 'bob', '3', '2'],
      ['alpha', null, 'cid', '0', '3'],
      ['alpha', null, 'rev', '0', '3'],
      ['alpha', null, 'src', '0', '3'],
      ['beta', null, 'dan', '2', '1'],
    ]);
    expect(
      await tuples(sql`select username, words_translated, rank from (${ranking('language')}) r
      where language_code = 'cs'`),
    ).toEqual([
      ['ana', '11', '1'],
      ['dan', '2', '2'],
      ['cid', '0', '3'],
      ['rev', '0', '3'],
      ['src', '0', '3'],
    ]);
  });

  it('keeps to the window and language asked for', async () => {
    expect(
      await tuples(sql`select username, strings_translated, comments
        from weblate.contributions('day', only_language => 'cs',
          since => '2026-01-06T00:00:00Z', until => '2026-01-07T00:00:00Z')
        where scope = 'language' order by username`),
    ).toEqual([
      ['ana', '2', '0'],
      ['src', '0', '0'],
    ]);
  });
});

describe('review', () => {
  it('lists strings waiting for review in projects with reviews, with their age', async () => {
    // u1020 was last saved by the repository update (change 20); u1100 by no change, so
    // since its last_updated, 3 days and an hour ago. beta has no reviews.
    expect(
      await tuples(sql`select unit_id, project_slug, component_slug, language_code, num_words,
          waiting_since = '2026-01-09T11:00:00Z' as is_since_change
        from weblate.strings_awaiting_review() order by unit_id`),
    ).toEqual([
      ['1020', 'alpha', 'core', 'de', 3, true],
      ['1100', 'alpha', 'docs', 'cs', 4, false],
    ]);
    expect(
      await tuples(sql`select days_waiting from weblate.strings_awaiting_review()
        where unit_id = 1100`),
    ).toEqual([[3]]);
    expect(
      await tuples(sql`select unit_id from weblate.strings_awaiting_review(only_language => 'cs')`),
    ).toEqual([['1100']]);
  });

  it('measures the time from the last translation of a string to its approval', async () => {
    // u1011: saved 6 Jan 12:00, approved 8 Jan 12:00 (48 h); u1010: saved 6 Jan 10:00,
    // approved 10 Jan 10:00 (96 h).
    expect(
      await tuples(sql`select period_start::text, project_slug, language_code, approvals, measured,
          median_hours, average_hours, max_hours
        from weblate.time_to_approval()`),
    ).toEqual([['2026-01-05', 'alpha', 'cs', '2', '2', '72.00', '72.00', '96.00']]);
  });
});

describe('translation method', () => {
  it('splits the words of each period by how they were translated', async () => {
    expect(
      await tuples(sql`select project_slug, component_slug, language_code, method, strings, words
        from weblate.translation_methods('month')
        order by project_slug, component_slug, language_code, method`),
    ).toEqual([
      ['alpha', 'core', 'cs', 'person', '3', '11'],
      ['alpha', 'core', 'de', 'automatic', '1', '5'],
      ['alpha', 'core', 'de', 'person', '1', '3'],
      ['alpha', 'core', 'de', 'repository', '1', '3'],
      ['beta', 'app', 'cs', 'upload', '1', '2'],
    ]);
  });

  it('counts the translated strings whose current text the server says is automatic', async () => {
    expect(
      await tuples(sql`select translation_id, translated, translated_words, known, automatic,
          automatic_words
        from weblate.automatic_share(array['alpha']) order by translation_id`),
    ).toEqual([
      [101, '2', '8', '2', '1', '3'],
      [102, '1', '3', '0', '0', '0'],
      [110, '1', '4', '0', '0', '0'],
    ]);
  });
});

describe('weblate.release_readiness', () => {
  const columns = sql.raw(`project_slug, component_slug, language_code, threshold::text,
    translated_words_percent, is_reached, words_needed, words_per_day, projected_date::text`);

  it('gives each language of a component its thresholds and the date at the recent pace', async () => {
    // core cs: 85 of 100 words at 15 words in 30 days; 90 % needs 5 more (10 days), 95 % 10.
    expect(
      await tuples(sql`select ${columns} from weblate.release_readiness(only_components => array['core'])
        order by language_code, threshold`),
    ).toEqual([
      ['alpha', 'core', 'cs', '80', '85.0', true, '0', '0.50', null],
      ['alpha', 'core', 'cs', '90', '85.0', false, '5', '0.50', clock.day(-10)],
      ['alpha', 'core', 'cs', '95', '85.0', false, '10', '0.50', clock.day(-20)],
      ['alpha', 'core', 'de', '80', '50.0', false, '30', '0.00', null],
      ['alpha', 'core', 'de', '90', '50.0', false, '40', '0.00', null],
      ['alpha', 'core', 'de', '95', '50.0', false, '45', '0.00', null],
    ]);
  });

  it('sums a project’s components per language and takes thresholds asked for', async () => {
    // alpha cs: 180 of 200 words (90 %), 15 words in 30 days; 95 % needs 10 more.
    expect(
      await tuples(sql`select ${columns}
        from weblate.release_readiness('project', array[90, 95], array['alpha'], only_language => 'cs')
        order by threshold`),
    ).toEqual([
      ['alpha', null, 'cs', '90', '90.0', true, '0', '0.50', null],
      ['alpha', null, 'cs', '95', '90.0', false, '10', '0.50', clock.day(-20)],
    ]);
  });
});

describe('weblate.failing_checks', () => {
  it('gives failing checks per translation and per language at the end of each period', async () => {
    const window = sql`'day', only_language => 'cs', since => ${`${clock.day(2)}T00:00:00Z`}::timestamptz,
      until => ${`${clock.today}T00:00:00Z`}::timestamptz`;
    expect(
      await tuples(sql`select period_start::text, translation_id, failing, total, failing_percent
        from weblate.failing_checks(${window}) order by period_start, translation_id`),
    ).toEqual([
      [clock.day(2), 101, '4', '10', '40.0'],
      [clock.day(1), 101, '1', '10', '10.0'],
      [clock.day(1), 110, '2', '10', '20.0'],
    ]);
    expect(
      await tuples(sql`select period_start::text, language_code, translations, failing, total,
          failing_percent
        from weblate.failing_checks(${window}, per => 'language') order by period_start`),
    ).toEqual([
      [clock.day(2), 'cs', '1', '4', '10', '40.0'],
      [clock.day(1), 'cs', '2', '3', '20', '15.0'],
    ]);
  });
});

describe('weblate_reader', () => {
  it('may call every answer function', async () => {
    const counts = await db.transaction().execute(async (trx) => {
      await sql`set local role weblate_reader`.execute(trx);
      const result = await sql<{ n: string }>`
        select (select count(*) from weblate.source_string_changes())
             + (select count(*) from weblate.contributions())
             + (select count(*) from weblate.strings_awaiting_review())
             + (select count(*) from weblate.time_to_approval())
             + (select count(*) from weblate.translation_methods())
             + (select count(*) from weblate.automatic_share())
             + (select count(*) from weblate.release_readiness())
             + (select count(*) from weblate.failing_checks()) as n`.execute(trx);
      return result.rows;
    });
    expect(Number(counts[0]!.n)).toBeGreaterThan(0);
    // Granted by name, not only through PUBLIC (see 0005).
    const granted = await sql<{ name: string; is_granted: boolean }>`
      select p.proname as name, p.proacl::text like '%weblate_reader=X%' as is_granted
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'weblate' and p.proname in ('source_string_changes', 'contributions',
        'strings_awaiting_review', 'time_to_approval', 'translation_methods', 'automatic_share',
        'release_readiness', 'failing_checks')
      order by 1`.execute(db);
    expect(granted.rows.map((r) => r.is_granted)).toEqual(Array(8).fill(true));
  });
});

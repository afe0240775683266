import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { type DatabaseClock, readDatabaseClock } from '../helpers/database-clock.ts';

/**
 * Migration 0020's time in each state over a hand-built history whose every span is worked out
 * in the comments. Fixed times are in January and February 2026 (5 January and 2 February are
 * Mondays); the open waits are `clock.ago(days)` before the database's now.
 *
 * Project alpha (reviews on): core (category apps; source en, cs, de), docs (category guides,
 * inside apps; cs) and site (no category; cs). Project beta (reviews off): app (cs). Projects
 * modern and legacy (reviews on): ui (cs), the same history twice, with details.state (Weblate
 * 5.6 and later) and without (before 5.6: action codes only).
 */

let database: TestDatabase;
let db: Kysely<Database>;
let clock: DatabaseClock;

/** 1e 1e: Weblate's separator of plural forms in a change's target. */
const PLURAL = '\u001e\u001e';

/** A change: id, action, unit, time, target, and [old_state, state] as Weblate logs them. */
type ChangeRow = [number, number, number, string, string | null, [number, number] | null];

async function insertChanges(rows: readonly ChangeRow[], withDetails = true): Promise<void> {
  for (const [id, action, unit, at, target, states] of rows) {
    const details =
      withDetails && states !== null
        ? JSON.stringify({ old_state: states[0], state: states[1], source: 's', context: '' })
        : null;
    await sql`insert into weblate.changes (id, action, unit_id, translation_id, project_slug,
        component_slug, language_code, timestamp, target, details, raw)
      select ${id}, ${action}, u.id, t.id, t.project_slug, t.component_slug, t.language_code,
             ${at}::timestamptz, ${target}, ${details}::jsonb, '{}'
      from weblate.units u join weblate.translations t on t.id = u.translation_id
      where u.id = ${unit}`.execute(db);
  }
}

async function insertFixture(): Promise<void> {
  await sql`insert into weblate.projects (id, slug, name, translation_review, raw) values
    (1, 'alpha', 'Alpha', true, '{}'), (2, 'beta', 'Beta', false, '{}'),
    (3, 'modern', 'Modern', true, '{}'), (4, 'legacy', 'Legacy', true, '{}')`.execute(db);
  await sql`insert into weblate.categories (id, project_id, project_slug, slug, name, parent_id,
      raw) values (100, 1, 'alpha', 'apps', 'Apps', null, '{}'),
    (101, 1, 'alpha', 'guides', 'Guides', 100, '{}')`.execute(db);
  await sql`insert into weblate.components (id, project_id, project_slug, slug, name, category_id,
      raw) values (10, 1, 'alpha', 'core', 'Core', 100, '{}'),
    (11, 1, 'alpha', 'docs', 'Docs', 101, '{}'), (12, 1, 'alpha', 'site', 'Site', null, '{}'),
    (20, 2, 'beta', 'app', 'App', null, '{}'), (30, 3, 'modern', 'ui', 'UI', null, '{}'),
    (40, 4, 'legacy', 'ui', 'UI', null, '{}')`.execute(db);
  await sql`insert into weblate.translations (id, component_id, project_slug, component_slug,
      language_code, is_source, raw) values
    (100, 10, 'alpha', 'core', 'en', true, '{}'), (101, 10, 'alpha', 'core', 'cs', false, '{}'),
    (102, 10, 'alpha', 'core', 'de', false, '{}'), (111, 11, 'alpha', 'docs', 'cs', false, '{}'),
    (121, 12, 'alpha', 'site', 'cs', false, '{}'), (201, 20, 'beta', 'app', 'cs', false, '{}'),
    (301, 30, 'modern', 'ui', 'cs', false, '{}'), (401, 40, 'legacy', 'ui', 'cs', false, '{}')`.execute(
    db,
  );
  const jan5 = '2026-01-05T00:00:00Z';
  const feb2 = '2026-02-02T00:00:00Z';
  // unit, translation, state now, source, created (units.timestamp), first seen, deleted
  await sql`insert into weblate.units (id, translation_id, id_hash, content_hash, state, source,
      target, timestamp, first_seen_at, deleted_at, web_url, raw)
    select v.id, v.translation_id, v.id, 0, v.state, v.source, '{}', v.created::timestamptz,
           coalesce(v.first_seen::timestamptz, now()), v.deleted::timestamptz,
           'https://weblate.example/t/' || v.id, '{}'
    from (values
      (1000, 100, 100, array['Hello'], ${jan5}, null, null),
      (1001, 101, 30, array['Hello'], ${jan5}, null, null),
      (1002, 101, 20, array['%d Datei ✓', '%d Dateien ✓'], ${jan5}, null, null),
      (1003, 101, 0, array['Nothing yet'], ${jan5}, null, null),
      (1004, 102, 20, array['Übersicht'], null, ${clock.ago(10)}, null),
      (1005, 111, 20, array['Guide'], ${clock.ago(20)}, null, null),
      (1006, 121, 20, array['Site'], ${clock.ago(20)}, null, null),
      (1007, 111, 20, array['Chapter'], ${clock.ago(20)}, null, null),
      (1009, 121, 20, array['Removed'], ${jan5}, null, '2026-01-20T00:00:00Z'),
      (1010, 121, 30, array['Moved'], ${jan5}, null, null),
      (2001, 201, 20, array['Hi'], ${jan5}, null, null),
      (3001, 301, 20, array['One'], ${feb2}, null, null),
      (3002, 301, 20, array['Two'], ${feb2}, null, null),
      (3003, 301, 10, array['Three'], ${feb2}, null, null),
      (3004, 301, 0, array['%d four', '%d fours'], ${feb2}, null, null),
      (4001, 401, 20, array['One'], ${feb2}, null, null),
      (4002, 401, 20, array['Two'], ${feb2}, null, null),
      (4003, 401, 10, array['Three'], ${feb2}, null, null),
      (4004, 401, 0, array['%d four', '%d fours'], ${feb2}, null, null)
    ) as v(id, translation_id, state, source, created, first_seen, deleted)`.execute(db);
  await insertChanges([
    // The source string's own change: source translations are left out.
    [1, 13, 1000, '2026-01-05T01:00:00Z', 'Hello', [-1, 100]],
    // 1001: translated, saved again while waiting, approved, edited back to waiting, approved.
    [2, 5, 1001, '2026-01-05T06:00:00Z', 'Ahoj', [0, 20]],
    [3, 2, 1001, '2026-01-06T06:00:00Z', 'Ahoj!', [20, 20]],
    [4, 36, 1001, '2026-01-07T06:00:00Z', 'Ahoj!', [20, 30]],
    [5, 2, 1001, '2026-01-08T18:00:00Z', 'Ahoj, světe', [30, 20]],
    [6, 36, 1001, '2026-01-12T18:00:00Z', 'Ahoj, světe', [20, 30]],
    // 1002 (plural): translated, marked for editing, translated again; a suggestion is no save.
    [7, 5, 1002, '2026-01-05T12:00:00Z', `%d soubor${PLURAL}%d soubory`, [0, 20]],
    [8, 37, 1002, '2026-01-06T00:00:00Z', `%d soubor${PLURAL}%d soubory`, [20, 10]],
    [9, 2, 1002, '2026-01-07T12:00:00Z', `%d soubor${PLURAL}%d souborů`, [10, 20]],
    [10, 4, 1002, '2026-01-08T00:00:00Z', `%d soubor${PLURAL}%d souborů!`, [20, 20]],
    [11, 5, 1005, clock.ago(9), 'Průvodce', [0, 20]],
    [12, 5, 1006, clock.ago(8), 'Web', [0, 20]],
    // 1007: marked for editing, then back to waiting with no change logged.
    [13, 5, 1007, clock.ago(15), 'Kapitola', [0, 20]],
    [14, 37, 1007, clock.ago(12), 'Kapitola', [20, 10]],
    [15, 5, 1009, '2026-01-05T10:00:00Z', 'Pryč', [0, 20]],
    // 1010: translated, then approved from "needs editing": a move between them went unlogged.
    [16, 5, 1010, '2026-01-05T10:00:00Z', 'Hnutí', [0, 20]],
    [17, 36, 1010, '2026-01-08T10:00:00Z', 'Hnutí', [10, 30]],
  ]);
  // beta (no reviews), logged before Weblate 5.6: no details.
  await insertChanges(
    [
      [20, 5, 2001, '2026-01-05T08:00:00Z', 'Nazdar', null],
      [21, 37, 2001, '2026-01-06T08:00:00Z', 'Nazdar', null],
      [22, 2, 2001, '2026-01-06T20:00:00Z', 'Čau', null],
    ],
    false,
  );
  for (const [base, withDetails] of [
    [3000, true],
    [4000, false],
  ] as const) {
    await insertChanges(
      [
        [base + 1, 5, base + 1, '2026-02-02T10:00:00Z', 'A', [0, 20]],
        [base + 2, 4, base + 1, '2026-02-02T12:00:00Z', 'A?', [20, 20]],
        [base + 3, 37, base + 1, '2026-02-03T10:00:00Z', 'A', [20, 10]],
        [base + 4, 2, base + 1, '2026-02-04T10:00:00Z', 'B', [10, 20]],
        [base + 5, 36, base + 1, '2026-02-05T10:00:00Z', 'B', [20, 30]],
        [base + 6, 2, base + 1, '2026-02-06T10:00:00Z', 'C', [30, 20]],
        // Automatic translation into "needs editing", then a person's translation.
        [base + 7, 6, base + 2, '2026-02-02T06:00:00Z', 'M', [0, 10]],
        [base + 8, 2, base + 2, '2026-02-03T06:00:00Z', 'N', [10, 20]],
        [base + 9, 6, base + 3, '2026-02-02T06:00:00Z', 'M', [0, 10]],
        // A plural translated, then emptied (every form blank).
        [base + 10, 5, base + 4, '2026-02-02T08:00:00Z', `x${PLURAL}y`, [0, 20]],
        [base + 11, 2, base + 4, '2026-02-03T08:00:00Z', PLURAL, [20, 0]],
      ],
      withDetails,
    );
  }
}

/** A query's rows as lists of values, in the order of its select list. */
async function tuples(query: RawBuilder<unknown>): Promise<unknown[][]> {
  return (await query.execute(db)).rows.map((row) => Object.values(row as Record<string, unknown>));
}

/** A fixed time of 2026 as the spans below print it: T('01-05T06:00'). */
const T = (at: string) => `2026-${at}:00.000Z`;

const SPAN_COLUMNS = sql.raw(`unit_id::int, state,
  to_char(entered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as entered,
  to_char(left_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as left, hours, left_to,
  evidence, entered_by`);

async function spansOf(units: readonly number[]): Promise<unknown[][]> {
  return tuples(sql`select ${SPAN_COLUMNS} from weblate.state_spans()
    where unit_id = any(${units}::bigint[]) order by unit_id, entered_at, state`);
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

describe('weblate.state_spans', () => {
  it('follows a string translated, re-saved, approved, edited and approved again', async () => {
    // Created 5 Jan 00:00, translated 06:00 (6 h untranslated). Waiting 06:00 → saved again
    // 6 Jan 06:00 (24 h; the wait restarts) → approved 7 Jan 06:00 (24 h). Approved → edited
    // 8 Jan 18:00 (24 + 12 = 36 h). Waiting → approved 12 Jan 18:00 (4 days: 96 h), since.
    // First translation (5 Jan 06:00) to approval (7 Jan 06:00): 48 h.
    const d = 'details.state';
    expect(await spansOf([1001])).toEqual([
      [
        1001,
        'untranslated',
        T('01-05T00:00'),
        T('01-05T06:00'),
        '6.00',
        'waiting for review',
        d,
        'unit created',
      ],
      [
        1001,
        'first translation to approval',
        T('01-05T06:00'),
        T('01-07T06:00'),
        '48.00',
        'approved',
        d,
        'change',
      ],
      [
        1001,
        'waiting for review',
        T('01-05T06:00'),
        T('01-06T06:00'),
        '24.00',
        'waiting for review',
        d,
        'change',
      ],
      [
        1001,
        'waiting for review',
        T('01-06T06:00'),
        T('01-07T06:00'),
        '24.00',
        'approved',
        d,
        'change',
      ],
      [
        1001,
        'approved',
        T('01-07T06:00'),
        T('01-08T18:00'),
        '36.00',
        'waiting for review',
        d,
        'change',
      ],
      [
        1001,
        'waiting for review',
        T('01-08T18:00'),
        T('01-12T18:00'),
        '96.00',
        'approved',
        d,
        'change',
      ],
      [1001, 'approved', T('01-12T18:00'), null, null, null, d, 'change'],
    ]);
  });

  it('follows a plural marked for editing and translated again; a suggestion saves nothing', async () => {
    // Created 5 Jan 00:00, translated 12:00 (12 h). Waiting → marked 6 Jan 00:00 (12 h).
    // Needs editing → translated 7 Jan 12:00 (36 h). Waiting since; the suggestion of 8 Jan
    // leaves the wait as it was. Never approved: its first translation still waits.
    const d = 'details.state';
    expect(await spansOf([1002])).toEqual([
      [
        1002,
        'untranslated',
        T('01-05T00:00'),
        T('01-05T12:00'),
        '12.00',
        'waiting for review',
        d,
        'unit created',
      ],
      [1002, 'first translation to approval', T('01-05T12:00'), null, null, null, d, 'change'],
      [
        1002,
        'waiting for review',
        T('01-05T12:00'),
        T('01-06T00:00'),
        '12.00',
        'needs editing',
        d,
        'change',
      ],
      [
        1002,
        'needs editing',
        T('01-06T00:00'),
        T('01-07T12:00'),
        '36.00',
        'waiting for review',
        d,
        'change',
      ],
      [1002, 'waiting for review', T('01-07T12:00'), null, null, null, d, 'change'],
    ]);
  });

  it('starts strings no change mentions when they were created, or first seen', async () => {
    // 1003: untranslated since its creation. 1004: no creation time (units.timestamp), so
    // since the mirror first saw it, 10 days ago: an estimate.
    expect(await spansOf([1003, 1004])).toEqual([
      [1003, 'untranslated', T('01-05T00:00'), null, null, null, 'unit state', 'unit created'],
      [
        1004,
        'first translation to approval',
        clock.ago(10),
        null,
        null,
        null,
        'unit state',
        'first seen',
      ],
      [1004, 'waiting for review', clock.ago(10), null, null, null, 'unit state', 'first seen'],
    ]);
  });

  it('marks a move no change logged, from the last change on', async () => {
    // Created 20 days ago, translated 15 days ago (5 days: 120 h untranslated), waiting until
    // marked for editing 12 days ago (72 h). The mirror has it waiting again, with no change
    // since: waiting from that change on at the latest, an estimate.
    const d = 'details.state';
    expect(await spansOf([1007])).toEqual([
      [
        1007,
        'untranslated',
        clock.ago(20),
        clock.ago(15),
        '120.00',
        'waiting for review',
        d,
        'unit created',
      ],
      [1007, 'first translation to approval', clock.ago(15), null, null, null, d, 'change'],
      [
        1007,
        'waiting for review',
        clock.ago(15),
        clock.ago(12),
        '72.00',
        'waiting for review',
        d,
        'change',
      ],
      [1007, 'waiting for review', clock.ago(12), null, null, null, d, 'unlogged move'],
    ]);
  });

  it('puts a move between two changes that no change logged at the earlier one', async () => {
    // 1010: translated 5 Jan 10:00 (10 h untranslated), approved 8 Jan 10:00 from "needs
    // editing". As the estimated history has it, the translation left it needing editing,
    // which it did for 72 h at most; its first translated state was approved, at once.
    const d = 'details.state';
    expect(await spansOf([1010])).toEqual([
      [
        1010,
        'untranslated',
        T('01-05T00:00'),
        T('01-05T10:00'),
        '10.00',
        'needs editing',
        d,
        'unit created',
      ],
      [
        1010,
        'needs editing',
        T('01-05T10:00'),
        T('01-08T10:00'),
        '72.00',
        'approved',
        d,
        'unlogged move',
      ],
      [1010, 'approved', T('01-08T10:00'), null, null, null, d, 'change'],
      [
        1010,
        'first translation to approval',
        T('01-08T10:00'),
        T('01-08T10:00'),
        '0.00',
        'approved',
        d,
        'change',
      ],
    ]);
  });

  it('keeps a removed string’s ended spans only, and leaves source strings out', async () => {
    // 1009: untranslated 00:00 → 10:00 (10 h); its wait had no end before it was removed.
    expect(await spansOf([1000, 1009])).toEqual([
      [
        1009,
        'untranslated',
        T('01-05T00:00'),
        T('01-05T10:00'),
        '10.00',
        'waiting for review',
        'details.state',
        'unit created',
      ],
    ]);
  });

  it('reads action codes where changes carry no states, and calls translated strings of a project without reviews translated', async () => {
    // 2001 (beta): created 5 Jan 00:00; 5 (Translation added: it was untranslated) 08:00
    // (8 h); 37 (Marked for edit) 6 Jan 08:00 (24 h translated); 2 (Translation changed)
    // 20:00 (12 h needing editing); translated since.
    const a = 'action codes';
    expect(await spansOf([2001])).toEqual([
      [
        2001,
        'untranslated',
        T('01-05T00:00'),
        T('01-05T08:00'),
        '8.00',
        'translated',
        a,
        'unit created',
      ],
      [
        2001,
        'translated',
        T('01-05T08:00'),
        T('01-06T08:00'),
        '24.00',
        'needs editing',
        a,
        'change',
      ],
      [
        2001,
        'needs editing',
        T('01-06T08:00'),
        T('01-06T20:00'),
        '12.00',
        'translated',
        a,
        'change',
      ],
      [2001, 'translated', T('01-06T20:00'), null, null, null, a, 'change'],
    ]);
  });

  it('gives the same spans from details.state and from action codes where both know them', async () => {
    // x001: created 2 Feb 00:00, translated 10:00 (10 h); the suggestion at 12:00 changes
    // nothing; marked 3 Feb 10:00 (24 h waiting); translated 4 Feb 10:00 (24 h needing
    // editing); approved 5 Feb 10:00 (24 h); edited 6 Feb 10:00 (24 h approved), waiting since.
    // First translation (2 Feb 10:00) to approval (5 Feb 10:00): 72 h.
    // x004 (plural): translated 2 Feb 08:00 (8 h), every form emptied 3 Feb 08:00 (24 h).
    const expected = (base: number, evidence: string) => [
      [
        base + 1,
        'untranslated',
        T('02-02T00:00'),
        T('02-02T10:00'),
        '10.00',
        'waiting for review',
        evidence,
        'unit created',
      ],
      [
        base + 1,
        'first translation to approval',
        T('02-02T10:00'),
        T('02-05T10:00'),
        '72.00',
        'approved',
        evidence,
        'change',
      ],
      [
        base + 1,
        'waiting for review',
        T('02-02T10:00'),
        T('02-03T10:00'),
        '24.00',
        'needs editing',
        evidence,
        'change',
      ],
      [
        base + 1,
        'needs editing',
        T('02-03T10:00'),
        T('02-04T10:00'),
        '24.00',
        'waiting for review',
        evidence,
        'change',
      ],
      [
        base + 1,
        'waiting for review',
        T('02-04T10:00'),
        T('02-05T10:00'),
        '24.00',
        'approved',
        evidence,
        'change',
      ],
      [
        base + 1,
        'approved',
        T('02-05T10:00'),
        T('02-06T10:00'),
        '24.00',
        'waiting for review',
        evidence,
        'change',
      ],
      [base + 1, 'waiting for review', T('02-06T10:00'), null, null, null, evidence, 'change'],
      [
        base + 4,
        'untranslated',
        T('02-02T00:00'),
        T('02-02T08:00'),
        '8.00',
        'waiting for review',
        evidence,
        'unit created',
      ],
      [
        base + 4,
        'first translation to approval',
        T('02-02T08:00'),
        null,
        null,
        null,
        evidence,
        'change',
      ],
      [
        base + 4,
        'waiting for review',
        T('02-02T08:00'),
        T('02-03T08:00'),
        '24.00',
        'untranslated',
        evidence,
        'change',
      ],
      [base + 4, 'untranslated', T('02-03T08:00'), null, null, null, evidence, 'change'],
    ];
    expect(await spansOf([3001, 3004])).toEqual(expected(3000, 'details.state'));
    expect(await spansOf([4001, 4004])).toEqual(expected(4000, 'action codes'));
  });

  it('knows less from action codes where an automatic translation needed editing', async () => {
    // x002: automatic translation into "needs editing" 2 Feb 06:00, translated 3 Feb 06:00.
    // x003: the same automatic translation, its last change; the mirror has it needing editing.
    // Action 6 says neither the state before nor after it: without details.state, 4002 has
    // no span before it and waits from it (the later save restarts the wait); 4003 takes
    // the mirrored state.
    const d = 'details.state';
    const a = 'action codes';
    expect(await spansOf([3002, 3003, 4002, 4003])).toEqual([
      [
        3002,
        'untranslated',
        T('02-02T00:00'),
        T('02-02T06:00'),
        '6.00',
        'needs editing',
        d,
        'unit created',
      ],
      [
        3002,
        'needs editing',
        T('02-02T06:00'),
        T('02-03T06:00'),
        '24.00',
        'waiting for review',
        d,
        'change',
      ],
      [3002, 'first translation to approval', T('02-03T06:00'), null, null, null, d, 'change'],
      [3002, 'waiting for review', T('02-03T06:00'), null, null, null, d, 'change'],
      [
        3003,
        'untranslated',
        T('02-02T00:00'),
        T('02-02T06:00'),
        '6.00',
        'needs editing',
        d,
        'unit created',
      ],
      [3003, 'needs editing', T('02-02T06:00'), null, null, null, d, 'change'],
      [4002, 'first translation to approval', T('02-02T06:00'), null, null, null, a, 'change'],
      [
        4002,
        'waiting for review',
        T('02-02T06:00'),
        T('02-03T06:00'),
        '24.00',
        'waiting for review',
        a,
        'change',
      ],
      [4002, 'waiting for review', T('02-03T06:00'), null, null, null, a, 'change'],
      [4003, 'needs editing', T('02-02T06:00'), null, null, null, a, 'change'],
    ]);
  });

  it('keeps the spans that end in the window, and the open ones that began in it', async () => {
    // 12 Jan: 1001's wait ended at 18:00, and its approval began then and holds.
    expect(
      await tuples(sql`select unit_id::int, state, hours from weblate.state_spans(
          array['alpha'], since => '2026-01-12T00:00:00Z', until => '2026-01-13T00:00:00Z')
        order by unit_id, entered_at`),
    ).toEqual([
      [1001, 'waiting for review', '96.00'],
      [1001, 'approved', null],
    ]);
  });

  it('keeps to the projects, components, categories (with those inside) and language asked for', async () => {
    const units = (args: RawBuilder<unknown>) =>
      tuples(sql`select distinct unit_id::int from weblate.state_spans(${args}) order by 1`);
    expect(await units(sql`only_category => 100`)).toEqual([
      [1001],
      [1002],
      [1003],
      [1004],
      [1005],
      [1007],
    ]);
    expect(await units(sql`only_category => 101`)).toEqual([[1005], [1007]]);
    expect(await units(sql`only_language => 'de'`)).toEqual([[1004]]);
    expect(await units(sql`array['alpha'], array['site']`)).toEqual([[1006], [1009], [1010]]);
    expect(await units(sql`array['beta'], only_language => 'cs'`)).toEqual([[2001]]);
    expect(await units(sql`array[]::text[]`)).toEqual([]);
  });
});

describe('weblate.time_in_state', () => {
  const columns = sql.raw(`period_start::text, state, spans, ended, still_open,
    median_hours_in_state, p90_hours_in_state, by_details, by_action_codes, by_unit_state,
    estimated_starts`);

  it('sums the spans of each week by when they ended, the open ones by when they began', async () => {
    // core cs, week of 5 Jan. Untranslated: 1001 6 h, 1002 12 h, 1003 still open: median of
    // (6, 12) 9 h, p90 6 + 0.9 × 6 = 11.4 h. Waiting: 1001 24 h and 24 h, 1002 12 h, 1002
    // open: median 24 h; p90 at 0.9 × 2 = 1.8 between 24 and 24. 1001 approved 36 h; 1002
    // needing editing 36 h; first translation to approval 1001 48 h, 1002 open.
    // Week of 12 Jan: 1001 waited 96 h; approved since.
    expect(
      await tuples(sql`select ${columns} from weblate.time_in_state(only_projects => array['alpha'],
          only_components => array['core'], only_language => 'cs')
        where scope = 'component and language' order by period_start, state`),
    ).toEqual([
      ['2026-01-05', 'approved', '1', '1', '0', '36.00', '36.00', '1', '0', '0', '0'],
      [
        '2026-01-05',
        'first translation to approval',
        '2',
        '1',
        '1',
        '48.00',
        '48.00',
        '2',
        '0',
        '0',
        '0',
      ],
      ['2026-01-05', 'needs editing', '1', '1', '0', '36.00', '36.00', '1', '0', '0', '0'],
      ['2026-01-05', 'untranslated', '3', '2', '1', '9.00', '11.40', '2', '0', '1', '0'],
      ['2026-01-05', 'waiting for review', '4', '3', '1', '24.00', '24.00', '4', '0', '0', '0'],
      ['2026-01-12', 'approved', '1', '0', '1', null, null, '1', '0', '0', '0'],
      ['2026-01-12', 'waiting for review', '1', '1', '0', '96.00', '96.00', '1', '0', '0', '0'],
    ]);
  });

  it('sums a month, and over components, projects and languages', async () => {
    // January, core cs waiting: 12, 24, 24, 96 h ended, one open: median (24 + 24) / 2 = 24;
    // p90 at 0.9 × 3 = 2.7: 24 + 0.7 × (96 − 24) = 74.4. Alpha's core also has de's wait
    // (first seen 10 days ago: an estimated start, in its own month). Beta: 2001 translated
    // 24 h, then open, from action codes.
    const waiting = sql`select scope, project_slug, component_slug, language_code, spans, ended,
        median_hours_in_state, p90_hours_in_state, by_details, by_unit_state, estimated_starts
      from weblate.time_in_state('month', array['alpha'], array['core'])
      where state = 'waiting for review' and period_start = '2026-01-01'
      order by scope, language_code nulls first`;
    expect(await tuples(waiting)).toEqual([
      ['all', null, null, null, '5', '4', '24.00', '74.40', '5', '0', '0'],
      ['component', 'alpha', 'core', null, '5', '4', '24.00', '74.40', '5', '0', '0'],
      ['component and language', 'alpha', 'core', 'cs', '5', '4', '24.00', '74.40', '5', '0', '0'],
      ['language', null, null, 'cs', '5', '4', '24.00', '74.40', '5', '0', '0'],
      ['project', 'alpha', null, null, '5', '4', '24.00', '74.40', '5', '0', '0'],
      ['project and language', 'alpha', null, 'cs', '5', '4', '24.00', '74.40', '5', '0', '0'],
    ]);
    expect(
      await tuples(sql`select sum(spans)::int as spans, sum(estimated_starts)::int as estimated
        from weblate.time_in_state(null, array['alpha'], array['core'])
        where scope = 'component and language' and language_code = 'de'`),
    ).toEqual([[2, 2]]);
    expect(
      await tuples(sql`select state, spans, ended, median_hours_in_state, by_details,
          by_action_codes
        from weblate.time_in_state('month', array['beta'])
        where scope = 'project' order by state`),
    ).toEqual([
      ['needs editing', '1', '1', '12.00', '0', '1'],
      ['translated', '2', '1', '24.00', '0', '2'],
      ['untranslated', '1', '1', '8.00', '0', '1'],
    ]);
  });

  it('says which evidence its spans stand on', async () => {
    // Legacy waits: 4001 24 h, 24 h and open; 4004 24 h; 4002 24 h and open: 6 spans, 4 ended
    // at 24 h each, every one from action codes. Modern's, from details.state: 3001 24 h, 24 h
    // and open; 3004 24 h; 3002 open: 5 spans, 3 ended.
    expect(
      await tuples(sql`select project_slug, spans, ended, median_hours_in_state, by_details,
          by_action_codes
        from weblate.time_in_state(null, array['legacy', 'modern'])
        where scope = 'project' and state = 'waiting for review' order by project_slug`),
    ).toEqual([
      ['legacy', '6', '4', '24.00', '0', '6'],
      ['modern', '5', '3', '24.00', '5', '0'],
    ]);
  });
});

describe('weblate.strings_over_target', () => {
  const columns = sql.raw(`unit_id::int, project_slug, component_slug, language_code, source,
    state, to_char(since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), entered_by`);

  it('lists the strings waiting for review longer than 7 days, oldest first', async () => {
    // Waiting now in alpha: 1002 since 7 Jan, 1007 12 days, 1004 10 days, 1005 9 days and
    // 1006 8 days.
    expect(
      await tuples(
        sql`select ${columns} from weblate.strings_over_target(only_projects => array['alpha'])`,
      ),
    ).toEqual([
      [
        1002,
        'alpha',
        'core',
        'cs',
        ['%d Datei ✓', '%d Dateien ✓'],
        'waiting for review',
        T('01-07T12:00'),
        'change',
      ],
      [
        1007,
        'alpha',
        'docs',
        'cs',
        ['Chapter'],
        'waiting for review',
        clock.ago(12),
        'unlogged move',
      ],
      [
        1004,
        'alpha',
        'core',
        'de',
        ['Übersicht'],
        'waiting for review',
        clock.ago(10),
        'first seen',
      ],
      [1005, 'alpha', 'docs', 'cs', ['Guide'], 'waiting for review', clock.ago(9), 'change'],
      [1006, 'alpha', 'site', 'cs', ['Site'], 'waiting for review', clock.ago(8), 'change'],
    ]);
  });

  it('gives each string its whole days and hours in the state and its link', async () => {
    // 1007 entered 12 days (288 h) before the clock was read; a query a moment later still
    // says 12 whole days and 288.00 hours.
    expect(
      await tuples(sql`select unit_id::int, days_in_state, hours_in_state, evidence, web_url
        from weblate.strings_over_target('waiting for review', '11 days', array['alpha'])`),
    ).toEqual([
      [
        1002,
        expect.any(Number),
        expect.any(String),
        'details.state',
        'https://weblate.example/t/1002',
      ],
      [1007, 12, '288.00', 'details.state', 'https://weblate.example/t/1007'],
    ]);
  });

  it('keeps to the target, the state, the categories and the language asked for', async () => {
    const units = (args: RawBuilder<unknown>) =>
      tuples(sql`select unit_id::int from weblate.strings_over_target(${args})`);
    expect(await units(sql`target => '9 days 12 hours', only_projects => array['alpha']`)).toEqual([
      [1002],
      [1007],
      [1004],
    ]);
    expect(await units(sql`only_category => 100`)).toEqual([[1002], [1007], [1004], [1005]]);
    expect(await units(sql`only_category => 101`)).toEqual([[1007], [1005]]);
    expect(await units(sql`only_language => 'de'`)).toEqual([[1004]]);
    expect(await units(sql`'untranslated', '30 days', array['alpha']`)).toEqual([[1003]]);
    expect(await units(sql`'needs editing', '1 day'`)).toEqual([[3003], [4003]]);
    expect(await units(sql`'translated', '1 day'`)).toEqual([[2001]]);
    expect(await units(sql`'first translation to approval', '7 days', array['modern']`)).toEqual([
      [3004],
      [3002],
    ]);
  });
});

describe('waiting for review, in every answer', () => {
  it('lists the same strings as strings_awaiting_review, waiting since the same save', async () => {
    // Every waiting string's wait starts at its last save, except 1007's: its last save was
    // 15 days ago, but it needed editing after that; the spans have it waiting again from the
    // change 12 days ago on.
    const awaiting = await tuples(sql`select unit_id::int,
        to_char(waiting_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      from weblate.strings_awaiting_review() order by unit_id`);
    const over = await tuples(sql`select unit_id::int,
        to_char(since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      from weblate.strings_over_target('waiting for review', '0 seconds') order by unit_id`);
    expect(over.map(([unit]) => unit)).toEqual(awaiting.map(([unit]) => unit));
    expect(over.filter((row, i) => row[1] !== awaiting[i]![1])).toEqual([[1007, clock.ago(12)]]);
    expect(awaiting.find(([unit]) => unit === 1007)).toEqual([1007, clock.ago(15)]);
  });

  it('measures each approval’s wait as time_to_approval does', async () => {
    // alpha core cs: approved 7 Jan after a wait of 24 h (week of 5 Jan), 12 Jan after 96 h.
    expect(
      await tuples(sql`select period_start::text, median_hours
        from weblate.time_to_approval('week', array['alpha'], array['core']) order by 1`),
    ).toEqual([
      ['2026-01-05', '24.00'],
      ['2026-01-12', '96.00'],
    ]);
    expect(
      await tuples(sql`select date_trunc('week', left_at at time zone 'UTC')::date::text, hours
        from weblate.state_spans(array['alpha'], array['core'])
        where state = 'waiting for review' and left_to = 'approved' order by 1`),
    ).toEqual([
      ['2026-01-05', '24.00'],
      ['2026-01-12', '96.00'],
    ]);
  });

  it('is granted to weblate_reader by name', async () => {
    const granted = await sql<{ name: string; is_granted: boolean }>`
      select p.proname as name, p.proacl::text like '%weblate_reader=X%' as is_granted
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'weblate'
        and p.proname in ('state_spans', 'time_in_state', 'strings_over_target')
      order by 1`.execute(db);
    expect(granted.rows).toEqual([
      { name: 'state_spans', is_granted: true },
      { name: 'strings_over_target', is_granted: true },
      { name: 'time_in_state', is_granted: true },
    ]);
  });
});

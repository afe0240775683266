import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { autoTranslateAndPostEdit, MACHINE_FILLED } from './harness/edits.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE, tierIsAtLeast } from './harness/release.ts';

const weblate = useWeblate('post-edits');

/**
 * Automatic translation and its post-edits in a real Weblate, then the mirror's figures of
 * them against Weblate's own: each change's edit distance against `Change.get_distance()`
 * (what Weblate shows as the change's edits), and what became of each fill.
 */
describe(`post-editing of automatic translation, against a real Weblate ${TIER_RELEASE}`, () => {
  let database: TestDatabase;
  let db: Kysely<Database>;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = (await database.migrated()).db;
    const first = await syncWeblate(weblate.current, db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
    await autoTranslateAndPostEdit(weblate.current);
    const second = await syncWeblate(weblate.current, db);
    expect([second.mode, second.status, second.error]).toEqual(['incremental', 'succeeded', null]);
  });
  let compared = 0;
  afterAll(async () => {
    process.stdout.write(`post-edits against Weblate ${TIER_RELEASE}: ${compared} distances\n`);
    await database?.drop();
  });

  it("has each change's edit distance as Weblate's Change.get_distance()", async () => {
    const { rows } = await sql<{ id: string; edit_distance: number | null }>`
      select id::text as id, edit_distance from weblate.changes order by id`.execute(db);
    // Weblate's API sends every change's old and target text, so each has a distance.
    expect(rows.filter((r) => r.edit_distance === null)).toEqual([]);
    const [weblateDistances] = (await weblate.current.ops([
      { op: 'change_distances', args: { change_ids: rows.map((r) => r.id) } },
    ])) as [Record<string, number>];
    const mirror = Object.fromEntries(rows.map((r) => [r.id, r.edit_distance]));
    expect(mirror).toEqual(weblateDistances);
    compared = rows.length;
    // Seeded plurals, right-to-left text, emoji and the long string among them, and not all 0.
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.filter((r) => r.edit_distance! > 50).length).toBeGreaterThan(0);
  });

  it('follows each fill to the first person’s change after it', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select u.source[1] as source, f.evidence, f.outcome, f.person_action, f.edit_distance,
             f.edit_percent::text as edit_percent, f.edit_band, f.author_name,
             f.hours_to_person is not null as has_hours
      from weblate.post_edits(only_projects => array['aurora'], only_language => 'de') f
      join weblate.units u on u.id = f.unit_id
      order by f.filled_at, f.unit_id`.execute(db);
    const bySource = new Map(rows.map(({ source, ...rest }) => [source, rest]));
    expect(rows).toHaveLength(3);
    expect(bySource.get(MACHINE_FILLED.edited.source)).toEqual({
      evidence: 'change log',
      outcome: 'edited',
      person_action: 2,
      // Bob's hyphen for a space: 1 of 46 code points (7 + 1 + 4 + 1 + 3 + 1 + 14 + 1, then
      // e and its accent 2, 1 + 3 + 1 + 3 + 1, and 👩‍💻 3) = 2.17 %; Alice's later edit is not it.
      edit_distance: 1,
      edit_percent: '2.17',
      edit_band: '1-10',
      author_name: 'bob',
      has_hours: true,
    });
    expect(bySource.get(MACHINE_FILLED.approved.source)).toEqual({
      evidence: 'change log',
      outcome: 'kept',
      person_action: 36,
      edit_distance: 0,
      edit_percent: '0.00',
      edit_band: '0',
      author_name: 'admin',
      has_hours: true,
    });
    expect(bySource.get(MACHINE_FILLED.untouched.source)).toEqual({
      evidence: 'change log',
      outcome: 'kept',
      person_action: null,
      edit_distance: null,
      edit_percent: null,
      edit_band: null,
      author_name: null,
      has_hours: false,
    });
    const totals = await sql<Record<string, unknown>>`
      select filled, kept, untouched, edited, replaced, superseded, edits_0, edits_1_10
      from weblate.machine_translation_outcomes(null, array['aurora'], only_language => 'de')
      where scope = 'component and language'`.execute(db);
    expect(totals.rows).toEqual([
      {
        filled: '3',
        kept: '2',
        untouched: '1',
        edited: '1',
        replaced: '0',
        superseded: '0',
        edits_0: '1',
        edits_1_10: '1',
      },
    ]);
  });

  const marker = tierIsAtLeast('2026') ? 'flag' : 'label';
  it(`knows the untouched fill by its ${marker} when the change log lacks it`, async () => {
    // Weblate marks a string it fills automatically until a person saves it: since 2026 with
    // the unit's automatically_translated, before with the "Automatically translated" label.
    const { rows } = await sql<{ source: string; is_flagged: boolean; is_labelled: boolean }>`
      select u.source[1] as source, coalesce(u.automatically_translated, false) as is_flagged,
             exists (select from weblate.unit_labels ul join weblate.labels lb on lb.id = ul.label_id
                     where ul.unit_id = u.id and ul.deleted_at is null
                       and lb.name = 'Automatically translated') as is_labelled
      from weblate.units u join weblate.translations t on t.id = u.translation_id
      where t.project_slug = 'aurora' and t.component_slug = 'app' and t.language_code = 'de'
        and (u.automatically_translated or exists (
          select from weblate.unit_labels ul where ul.unit_id = u.id and ul.deleted_at is null))`.execute(
      db,
    );
    expect(rows).toEqual([
      {
        source: MACHINE_FILLED.untouched.source,
        is_flagged: marker === 'flag',
        is_labelled: marker === 'label',
      },
    ]);
    // Without its change 6, the fill is known from the unit alone, kept as it was.
    await sql`delete from weblate.changes where action = 6 and unit_id = (
      select u.id from weblate.units u join weblate.translations t on t.id = u.translation_id
      where t.project_slug = 'aurora' and t.component_slug = 'app' and t.language_code = 'de'
        and u.source[1] = ${MACHINE_FILLED.untouched.source})`.execute(db);
    const fills = await sql<{ evidence: string; outcome: string }>`
      select evidence, outcome from weblate.machine_translation_fills(array['aurora'],
        only_language => 'de') order by evidence`.execute(db);
    expect(fills.rows).toEqual([
      { evidence: 'change log', outcome: 'edited' },
      { evidence: 'change log', outcome: 'kept' },
      { evidence: marker, outcome: 'kept' },
    ]);
  });
});

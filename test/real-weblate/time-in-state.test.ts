import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { approveAndMarkForEditing } from './harness/edits.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE } from './harness/release.ts';
import { findUnit, STATE, unitsOf } from './harness/seed.ts';

const weblate = useWeblate('time-in-state');

const DAY_MS = 86_400_000;

/** A unit as the API gives it, with what the spans need. */
interface ApiUnit {
  id: number;
  url: string;
  source: string[];
  context: string;
  state: number;
  timestamp: string;
}

interface ApiChange {
  id: number;
  action: number;
  unit: string | null;
  timestamp: string;
  details: { state?: unknown; old_state?: unknown } | null;
}

/** A span as compared: state, entered, left (ISO, microseconds, UTC), and where it went. */
type Span = [string, string, string | null, string | null];

/** Weblate's timestamps (`…:12.5Z`, `…:12Z`, `+00:00`) with six fractional digits and Z. */
function micros(text: string): string {
  const match = /^(.+T\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|\+00:00)$/.exec(text);
  if (match === null) throw new Error(`not a UTC timestamp: ${text}`);
  return `${match[1]!}.${(match[2] ?? '').padEnd(6, '0')}Z`;
}

const SAVES = new Set([2, 5, 6, 7, 8, 9, 27, 59, 72, 77, 94]);
const CREATING = new Set([13, 31, 71, 73]);
const NAMES: Record<number, string> = {
  0: 'untranslated',
  10: 'needs editing',
  11: 'needs editing',
  12: 'needs editing',
  20: 'waiting for review',
  30: 'approved',
  100: 'read-only',
};

/**
 * What Weblate's own history of a string (of a project with reviews) says, read as the answer
 * reads it: since the string was created, the state its first change found; then each change's
 * state, a save of a waiting string restarting its wait.
 */
function weblateSpans(unit: ApiUnit, changes: ApiChange[]): Span[] {
  const logged = changes
    .filter((c) => typeof c.details?.state === 'number')
    .sort((a, b) => micros(a.timestamp).localeCompare(micros(b.timestamp)) || a.id - b.id);
  const points: Array<{ at: string; state: number; isSave: boolean }> = [];
  const first = logged[0];
  if (first === undefined) points.push({ at: unit.timestamp, state: unit.state, isSave: false });
  else if (!CREATING.has(first.action) && (first.details!.old_state as number) >= 0)
    points.push({ at: unit.timestamp, state: first.details!.old_state as number, isSave: false });
  for (const c of logged)
    points.push({
      at: c.timestamp,
      state: c.details!.state as number,
      isSave: SAVES.has(c.action),
    });
  const spans: Span[] = [];
  for (const { at, state, isSave } of points) {
    const name = NAMES[state] ?? `state ${state}`;
    const last = spans.at(-1);
    if (last !== undefined && last[0] === name && !(name === 'waiting for review' && isSave))
      continue;
    if (last !== undefined) [last[2], last[3]] = [micros(at), name];
    spans.push([name, micros(at), null, null]);
  }
  return spans;
}

/**
 * Time in each state against a real Weblate: after edits through its API, each a day apart
 * (their changes moved to noon of their day), the mirror's spans of a few named strings equal
 * what Weblate's own history of them says (its units' creation times and its changes' times
 * and details.state), and the spans of the edits are the ones made.
 */
describe(`time in each state against a real Weblate ${TIER_RELEASE}`, () => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  const today = Date.UTC(
    new Date().getUTCFullYear(),
    new Date().getUTCMonth(),
    new Date().getUTCDate(),
  );
  const noon = (daysAgo: number) => new Date(today - daysAgo * DAY_MS + DAY_MS / 2).toISOString();
  const at = (daysAgo: number) => micros(noon(daysAgo));
  /** The named strings: `language: source`. */
  const named = new Map<string, ApiUnit>();

  async function phase(daysAgo: number, edit: () => Promise<void>): Promise<void> {
    const [before] = (await weblate.current.ops([{ op: 'max_change_id', args: {} }])) as [number];
    await edit();
    await weblate.current.ops([
      { op: 'backdate_after', args: { after_id: before, timestamp: noon(daysAgo) } },
    ]);
  }

  async function mirroredSpans(unitId: number): Promise<Span[]> {
    const rows = await sql<{
      state: string;
      entered: string;
      left: string | null;
      left_to: string | null;
    }>`
      select state,
             to_char(entered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as entered,
             to_char(left_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as left,
             left_to
      from weblate.state_spans(array['aurora'])
      where unit_id = ${unitId} and state <> 'first translation to approval'
      order by entered_at`.execute(db);
    return rows.rows.map((r) => [r.state, r.entered, r.left, r.left_to]);
  }

  async function weblateHistory(language: string, unit: ApiUnit): Promise<ApiChange[]> {
    const api = weblate.current.admin;
    const all = await api.listAll<ApiChange>(`translations/aurora/app/${language}/changes/`);
    return all.filter((c) => c.unit === unit.url);
  }

  beforeAll(async () => {
    const api = weblate.current.admin;
    const alice = weblate.current.as('alice');
    // The seed's history a month back, so that each edit below has a day of its own after it.
    await weblate.current.ops([{ op: 'age', args: { seconds: 30 * 86_400 } }]);
    const de = await unitsOf(api, 'aurora/app/de');
    const lastSynced = findUnit(de, 'Last synced {date}').id;
    await phase(6, () =>
      alice.patch(`units/${lastSynced}/`, {
        target: ['Zuletzt sync {date}'],
        state: STATE.translated,
      }),
    );
    await phase(5, async () => {
      await alice.patch(`units/${lastSynced}/`, {
        target: ['Zuletzt synchronisiert {date}'],
        state: STATE.translated,
      });
      await approveAndMarkForEditing(api);
    });
    await phase(4, () =>
      api.patch(`units/${lastSynced}/`, {
        target: ['Zuletzt synchronisiert {date}'],
        state: STATE.approved,
      }),
    );
    // A reviewer's edit that takes the approval back.
    await phase(3, () =>
      api.patch(`units/${lastSynced}/`, {
        target: ['Zuletzt synchronisiert: {date}'],
        state: STATE.translated,
      }),
    );
    for (const [language, source] of [
      ['de', 'Last synced {date}'],
      ['cs', 'Cancel'],
      ['ja', 'Settings'],
      ['ar', '%d file'],
    ] as const) {
      const units = await api.listAll<ApiUnit>(`translations/aurora/app/${language}/units/`);
      named.set(
        `${language}: ${source}`,
        units.find((u) => u.source[0] === source && u.context === '')!,
      );
      // And a German string nobody touched: its state since Weblate created it.
      if (language === 'de') {
        const untouched = units.find((u) => u.state === STATE.empty && u.id !== lastSynced);
        named.set('de: untouched', untouched!);
      }
    }
    database = await createTestDatabase();
    db = (await database.migrated()).db;
    const first = await syncWeblate(weblate.current, db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("has each named string's spans as Weblate's own history of it says", async () => {
    const compared: string[] = [];
    for (const [name, unit] of named) {
      const language = name.split(':')[0]!;
      const expected = weblateSpans(unit, await weblateHistory(language, unit));
      expect(expected.length, name).toBeGreaterThan(0);
      expect(await mirroredSpans(unit.id), name).toEqual(expected);
      compared.push(`${name} (${expected.length})`);
    }
    process.stdout.write(
      `time in state against Weblate ${TIER_RELEASE}: spans of ${compared.join(', ')}\n`,
    );
  });

  it('has the spans of the edits as they were made', async () => {
    // German "Last synced": translated 6 days ago, saved again 5 days ago (the wait restarts),
    // approved 4 days ago, and edited by a reviewer 3 days ago: waiting again since.
    const de = await mirroredSpans(named.get('de: Last synced {date}')!.id);
    expect(de.slice(-4)).toEqual([
      ['waiting for review', at(6), at(5), 'waiting for review'],
      ['waiting for review', at(5), at(4), 'approved'],
      ['approved', at(4), at(3), 'waiting for review'],
      ['waiting for review', at(3), null, null],
    ]);
    // Czech "Cancel" approved 5 days ago; Japanese "Settings" marked for editing then.
    expect((await mirroredSpans(named.get('cs: Cancel')!.id)).at(-1)).toEqual([
      'approved',
      at(5),
      null,
      null,
    ]);
    expect((await mirroredSpans(named.get('ja: Settings')!.id)).at(-1)).toEqual([
      'needs editing',
      at(5),
      null,
      null,
    ]);
    // From its first translation 6 days ago to its approval 4 days ago: 48 hours.
    const composite = await sql<{ hours: string; evidence: string }>`
      select hours, evidence from weblate.state_spans(array['aurora'])
      where unit_id = ${named.get('de: Last synced {date}')!.id}
        and state = 'first translation to approval'`.execute(db);
    expect(composite.rows).toEqual([{ hours: '48.00', evidence: 'details.state' }]);
  });

  it('lists the German string among those waiting for review over 2 days, with the others', async () => {
    const over = await sql<{ unit_id: string; since: string }>`
      select unit_id, to_char(since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as since
      from weblate.strings_over_target('waiting for review', '2 days', array['aurora'])`.execute(
      db,
    );
    const lastSynced = String(named.get('de: Last synced {date}')!.id);
    expect(over.rows.find((r) => r.unit_id === lastSynced)?.since).toBe(at(3));
    // The same strings as the report's list of strings waiting for review.
    const awaiting = await sql<{ unit_id: string }>`
      select unit_id from weblate.strings_awaiting_review(array['aurora'])
      where waiting_since < now() - interval '2 days' order by unit_id`.execute(db);
    expect(over.rows.length).toBeGreaterThan(1);
    expect(over.rows.map((r) => r.unit_id).sort()).toEqual(
      awaiting.rows.map((r) => r.unit_id).sort(),
    );
  });

  it('notices a change an hour off (the comparison can fail)', async () => {
    const unit = named.get('cs: Cancel')!;
    await sql`update weblate.changes set timestamp = timestamp + interval '1 hour'
      where id = (select max(id) from weblate.changes where unit_id = ${unit.id})`.execute(db);
    const expected = weblateSpans(unit, await weblateHistory('cs', unit));
    expect(await mirroredSpans(unit.id)).not.toEqual(expected);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, siteLinks, startSimulator } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { rawMismatchesByTable } from '../helpers/raw-compare.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * A Weblate 2026.x (simulated: release.ts): records with fields the mirror has no column for
 * land in `raw` exactly, `automatically_translated` in its column too, and the project's
 * `set_language_team`, gone from the record, is null. The server takes one token, and would
 * refuse an Authorization header of another scheme than the mirror's `Token`.
 */
const databases = useTestDatabases();
const TOKEN = 'wlu_only_this_one';
const asMirror = { client: { token: TOKEN } };
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 74,
    projects: 2,
    components: 3,
    languages: 3,
    units: 200,
    changes: 120,
    users: 2,
    compat: { release: '2026' },
    token: TOKEN,
  });
  const translated = sim.instance.units.filter(
    (u) => u.state === 20 && !sim.instance.index.translationById.get(u.translationId)!.isSource,
  );
  sim.mutate.editUnits(
    translated.slice(0, 12).map((u) => u.id),
    { automatic: true },
  );
});
afterAll(async () => {
  await sim.close();
});

describe('a mirror of Weblate 2026', () => {
  it('keeps every record exactly, its new fields included, and types automatically_translated', async () => {
    const handle = await databases.migrated();
    const result = await syncSimulator(sim, handle, asMirror);
    expect([result.status, result.summary.rejected, result.summary.warnings]).toEqual([
      'succeeded',
      0,
      [],
    ]);
    const mismatches = await rawMismatchesByTable(handle.db, sim, siteLinks(sim.url, '2026'));
    expect(mismatches).toEqual(Object.fromEntries(Object.keys(mismatches).map((k) => [k, []])));

    const units = await sql<{ automatic: boolean | null; raw_automatic: boolean; n: number }>`
      select automatically_translated as automatic,
        (raw->>'automatically_translated')::boolean as raw_automatic, count(*)::int as n
      from weblate.units group by 1, 2 order by 1, 2`.execute(handle.db);
    expect(units.rows.map((r) => [r.automatic, r.raw_automatic])).toEqual([
      [false, false],
      [true, true],
    ]);
    expect(units.rows.find((r) => r.automatic === true)!.n).toBe(12);
    const untyped = await sql<{ n: number }>`
      select count(*)::int as n from weblate.units
      where raw->>'translation_parent' is not null or not raw ? 'effective_source'`.execute(
      handle.db,
    );
    expect(untyped.rows[0]!.n).toBe(0);
    const projects = await sql<{ team: boolean | null; has: boolean }>`
      select set_language_team as team, raw ? 'set_language_team' as has from weblate.projects`.execute(
      handle.db,
    );
    expect(new Set(projects.rows.map((r) => JSON.stringify(r)))).toEqual(
      new Set([JSON.stringify({ team: null, has: false })]),
    );
  });

  it('mirrors changes of the action codes 2026 added (85 to 104), with their addon and alert fields', async () => {
    const translation = sim.instance.translations.find((t) => !t.isSource)!;
    const codes = Array.from({ length: 20 }, (_, i) => 85 + i);
    for (const action of codes) sim.mutate.addChanges(translation.id, 1, { action });
    const handle = await databases.migrated();
    expect((await syncSimulator(sim, handle, asMirror)).status).toBe('succeeded');
    const mirrored = await sql<{ action: number; name: string | null; fields: boolean }>`
      select c.action, a.name, bool_and(c.raw ? 'addon' and c.raw ? 'alert') as fields
      from weblate.changes c left join weblate.change_actions a on a.action = c.action
      where c.action between 85 and 104 group by 1, 2 order by 1`.execute(handle.db);
    expect(mirrored.rows.map((r) => r.action)).toEqual(codes);
    expect(mirrored.rows.filter((r) => r.name === null || !r.fields)).toEqual([]);
  });

  it('rewrites nothing when synced again', async () => {
    const handle = await databases.migrated();
    expect((await syncSimulator(sim, handle, asMirror)).status).toBe('succeeded');
    const again = await syncSimulator(sim, handle, { ...asMirror, full: true });
    expect([again.status, again.summary.rowsWritten]).toEqual(['succeeded', 0]);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * Weblate 5.14.3 keeps English, its default language, as one object per process, with the
 * statistics that process first loaded (docs/weblate-compatibility.md). Behind two
 * processes, /api/languages/en/statistics/ answers current sums from one and old ones from
 * the other.
 */
/** The simulator's English has no translations of its own with changes: Czech stands in. */
const STALE = { processes: 2, code: 'cs' };

describe('stale statistics of the default language', () => {
  let sim: RunningSimulator;
  let database: TestDatabase;
  let handle: DbHandle;

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 5,
      projects: 1,
      components: 2,
      languages: 3,
      units: 300,
      changes: 100,
      compat: { staleLanguageStatistics: STALE },
    });
    database = await createTestDatabase();
    handle = await database.migrated();
  });
  afterAll(async () => {
    await sim.close();
    await database.drop();
  });

  const history = async () =>
    (
      await sql<{ last_change: string }>`
        select to_char(last_change at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as last_change
        from weblate.language_statistics where language_code = 'cs' order by captured_at`.execute(
        handle.db,
      )
    ).rows.map((r) => r.last_change);
  const pending = async () =>
    (
      await sql<{ code: string }>`
        select l.code from weblate.sync_pending p join weblate.languages l on l.id = p.id
        where p.kind = 'language'`.execute(handle.db)
    ).rows.map((r) => r.code);
  const moveLanguage = () => {
    const cs = sim.instance.languages.find((l) => l.code === 'cs')!;
    const translation = sim.instance.index.translationsByLanguage.get(cs.id)![0]!;
    const unit = sim.instance.index.unitsByTranslation.get(translation.id)![0]!;
    sim.mutate.editUnits([unit.id]);
  };

  it('never records an answer older than its translations once it has one, and reads it again until current', async () => {
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    expect(await history()).toHaveLength(1);

    moveLanguage();
    // The second process loads English now: its answer is current.
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    const [first, second] = await history();
    expect(second! > first!).toBe(true);
    expect(await pending()).toEqual([]);

    moveLanguage();
    // The first process answers what it loaded at the first sync: older than the latest row.
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    expect(await history()).toEqual([first, second]);
    expect(await pending()).toEqual(['cs']);
    // Both processes are stale now: still nothing recorded, still pending.
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    expect(await history()).toEqual([first, second]);
    expect(await pending()).toEqual(['cs']);

    // Restarted processes answer current sums: recorded, and nothing lags any more.
    sim.setCompat({ staleLanguageStatistics: STALE });
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    const rows = await history();
    expect(rows).toHaveLength(3);
    expect(rows[2]! > second!).toBe(true);
    expect(await pending()).toEqual([]);
  });
});

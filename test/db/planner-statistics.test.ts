import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { refreshPlannerStatistics, tablesToAnalyze } from '../../src/db/planner-statistics.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';

describe('tablesToAnalyze', () => {
  const table = (name: string, analyzedRows: number, analyzedPages: number, pages: number) => ({
    table: name,
    analyzedRows,
    analyzedPages,
    pages,
  });

  it('picks what was never analyzed and holds rows, or grew or was written by a tenth', () => {
    const tables = [
      table('empty_never', -1, 0, 0),
      table('never', -1, 0, 3),
      table('written_never', -1, 0, 0),
      table('grown', 1000, 100, 119),
      table('grown_little', 1000, 100, 118),
      table('small_grown', 10, 1, 10),
      table('written', 10_000, 500, 500),
      table('written_little', 10_000, 500, 500),
    ];
    const written = new Map([
      ['written_never', 1],
      ['written', 1051],
      ['written_little', 1050],
    ]);
    // Autovacuum's rule: more than 50 + 10 % of the rows at the last ANALYZE; pages: more
    // than 10 % + 8 pages past the last ANALYZE's.
    expect(tablesToAnalyze(tables, written)).toEqual([
      'grown',
      'never',
      'small_grown',
      'written',
      'written_never',
    ]);
  });
});

describe('refreshPlannerStatistics', () => {
  let sim: RunningSimulator;
  const databases = useTestDatabases();
  let handle: DbHandle;

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, projects: 2, components: 3, languages: 3, units: 400 });
    handle = await databases.migrated();
    const result = await syncSimulator(sim, handle);
    expect(result.status).toBe('succeeded');
  });

  afterAll(async () => {
    await sim.close();
  });

  async function unitsSeen(): Promise<{ analyzed: number; rows: number }> {
    const { rows } = await sql<{ analyzed: number; rows: number }>`
      select (select reltuples::integer from pg_class where oid = 'weblate.units'::regclass)
               as analyzed,
             (select count(*)::integer from weblate.units) as rows`.execute(handle.db);
    return rows[0]!;
  }

  it('leaves the mirror analyzed after a sync, without waiting for autovacuum', async () => {
    const seen = await unitsSeen();
    expect(seen.rows).toBeGreaterThan(0);
    expect(seen.analyzed).toBe(seen.rows);
  });

  it('analyzes again only what grew since', async () => {
    await refreshPlannerStatistics(handle.db);
    expect(await refreshPlannerStatistics(handle.db)).toEqual([]);
    await sql`insert into weblate.rejected_records (resource, url, reason, raw)
      select 'units', 'https://weblate.example/api/units/' || g, 'test', '{}'
      from generate_series(1, 2000) g`.execute(handle.db);
    expect(await refreshPlannerStatistics(handle.db)).toEqual(['rejected_records']);
    expect(await refreshPlannerStatistics(handle.db)).toEqual([]);
  });
});

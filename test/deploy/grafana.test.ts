import { readFileSync } from 'node:fs';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { fillAutomatically } from '../../src/simulator/machine-fills.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { dashboard, DEPLOY, panelRows } from '../helpers/grafana.ts';
import { syncSimulator } from '../helpers/sync.ts';

const datasource = readFileSync(
  new URL('grafana/provisioning/datasources/weblate-mirror.yml', DEPLOY),
  'utf8',
);

let sim: RunningSimulator;
let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 12,
    projects: 2,
    components: 3,
    languages: 3,
    units: 600,
    changes: 400,
    users: 1,
    categoriesAndLabels: true,
  });
  fillAutomatically(sim);
  database = await createTestDatabase();
  handle = await database.migrated();
  const result = await syncSimulator(sim, handle);
  expect(result.status).toBe('succeeded');
});

afterAll(async () => {
  await sim.close();
  await database.drop();
});

describe('the Grafana dashboard', () => {
  it('reads only the provisioned data source', () => {
    expect(datasource).toMatch(/uid: weblate-mirror\b/);
    expect(datasource).toMatch(/type: grafana-postgresql-datasource\b/);
    expect(datasource).toMatch(/user: grafana\b/);
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(6);
    for (const panel of dashboard.panels) {
      expect(panel.datasource.uid, panel.title).toBe('weblate-mirror');
      for (const target of panel.targets) expect(target.datasource.uid).toBe('weblate-mirror');
    }
  });

  it('answers every panel query with data, as the read-only role', async () => {
    const queries = dashboard.panels.flatMap((panel) =>
      panel.targets.map((target) => ({ panel, target })),
    );
    for (const { panel, target } of queries) {
      const rows = await panelRows(handle.db, target.rawSql);
      expect(rows.length, panel.title).toBeGreaterThan(0);
      if (target.format === 'time_series') {
        expect(Object.keys(rows[0]!), panel.title).toContain('time');
        expect(
          rows.every((row) => row.time !== null),
          panel.title,
        ).toBe(true);
      }
    }
  });

  it('charts contributors, translation methods, new work and release readiness', () => {
    const sqlOf = (fn: string) =>
      dashboard.panels.filter((p) => p.targets.some((t) => t.rawSql.includes(`weblate.${fn}(`)));
    expect(sqlOf('contributions').map((p) => p.type)).toEqual(['timeseries']);
    expect(sqlOf('translation_methods').map((p) => p.type)).toEqual(['timeseries']);
    expect(sqlOf('source_string_changes').map((p) => p.type)).toEqual(['timeseries']);
    expect(sqlOf('release_readiness').map((p) => p.type)).toEqual(['table']);
    // Every panel has its own id and place.
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lays the release readiness table out with a column per threshold', async () => {
    const panel = dashboard.panels.find((p) => p.targets[0]!.rawSql.includes('release_readiness'));
    const rows = (
      await sql.raw<Record<string, unknown>>(panel!.targets[0]!.rawSql).execute(handle.db)
    ).rows;
    const expected = await sql<{ n: string }>`
      select count(distinct (project_slug, language_code)) as n
      from weblate.translation_progress`.execute(handle.db);
    expect(rows).toHaveLength(Number(expected.rows[0]!.n));
    for (const row of rows)
      for (const column of ['80 %', '90 %', '95 %'])
        expect(String(row[column])).toMatch(
          /^(reached|\d{4}-\d{2}-\d{2}|no net progress in 30 days|pace unknown until \d{4}-\d{2}-\d{2}|losing ground: -\d+ words in 30 days)$/,
        );
  });

  it('shows progress per category, nested ones indented, and per label and language', async () => {
    const panelOf = (name: string) =>
      dashboard.panels.find((p) => p.targets.some((t) => t.rawSql.includes(name)))!;
    const categories = panelOf('weblate.category_progress');
    expect(categories.type).toBe('table');
    const rows = (
      await sql
        .raw<{ category: string; path: string }>(categories.targets[0]!.rawSql)
        .execute(handle.db)
    ).rows;
    const live = await sql<{ n: string }>`
      select count(*) as n from weblate.categories where deleted_at is null`.execute(handle.db);
    expect(rows).toHaveLength(Number(live.rows[0]!.n));
    for (const row of rows)
      expect(row.category.length - row.category.trimStart().length).toBe(
        3 * (row.path.split('/').length - 1),
      );
    expect(panelOf('weblate.label_progress').type).toBe('table');
    expect(panelOf('weblate.progress_by_label_daily(').type).toBe('timeseries');
  });

  it('cannot write through the read-only role', async () => {
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await sql`set local role weblate_reader`.execute(trx);
        await sql`delete from weblate.sync_runs`.execute(trx);
      }),
    ).rejects.toThrow(/permission denied/);
  });
});

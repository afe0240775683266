import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type RunningCli, startCli } from '../helpers/cli.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { dashboard, defaultRange, panelRows } from '../helpers/grafana.ts';
import { syncServed } from '../helpers/sync.ts';

/**
 * `simulate` serves the demo's instance, at its default size: a history that ends today,
 * categories and labels, so that every panel of the Grafana dashboard has data over the
 * dashboard's default range (README's walk-through of the dashboard uses it).
 */

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('the instance `simulate` serves by default', () => {
  const databases = useTestDatabases();
  let cli: RunningCli;
  let handle: DbHandle;
  let firstDay: string;

  beforeAll(async () => {
    firstDay = utcDay(Date.now());
    cli = startCli(['simulate'], {}, 240_000);
    const url = (await cli.waitForStderr(/WEBLATE_URL=(\S+)/, 120_000))[1]!;
    handle = await databases.migrated();
    expect((await syncServed(url, [], handle)).status).toBe('succeeded');
  }, 300_000);
  afterAll(async () => {
    cli?.child.kill('SIGINT');
    expect((await cli?.done)?.code).toBe(0);
  });

  it('ends its history today (UTC) and has categories and labels', async () => {
    const { rows } = await sql<{ newest: string; categories: string; labels: string }>`
      select (max("timestamp") at time zone 'UTC')::date::text as newest,
             (select count(*) from weblate.categories) as categories,
             (select count(*) from weblate.labels) as labels
      from weblate.changes`.execute(handle.db);
    const { newest, categories, labels } = rows[0]!;
    // Today as of the start or the end of the test, should it cross midnight.
    expect([firstDay, utcDay(Date.now())]).toContain(newest);
    expect(Number(categories)).toBeGreaterThan(0);
    expect(Number(labels)).toBeGreaterThan(0);
  });

  it('has data on every panel of the Grafana dashboard over its default range', async () => {
    const range = defaultRange();
    const empty: string[] = [];
    for (const panel of dashboard.panels)
      for (const target of panel.targets) {
        const rows = await panelRows(handle.db, target.rawSql, range);
        // A row with a value, not only a time and a series name.
        const valued = rows.some((row) =>
          Object.entries(row).some(
            ([key, value]) => key !== 'time' && key !== 'metric' && value !== null,
          ),
        );
        if (!valued) empty.push(`${panel.title} (${target.refId})`);
      }
    expect(empty).toEqual([]);
  });
});

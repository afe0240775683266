import { readFileSync } from 'node:fs';

import { type Kysely, sql } from 'kysely';
import { format, resolveConfig } from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { METRICS_DOC_COMMAND, metricsDoc } from '../../scripts/metrics-doc.ts';
import { EXAMPLE_QUERIES } from '../../src/cli/commands/demo.ts';
import type { DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { DEFAULT_COST } from '../../src/db/queries/report-effort.ts';
import { GRAFANA_SERIES } from '../../src/metrics/catalogue.ts';
import { DIMENSIONS, METRICS } from '../../src/metrics/lookup.ts';
import { DEFAULT_EFFORT } from '../../src/report/build-effort.ts';
import { buildReport } from '../../src/report/build-report.ts';
import { addDays } from '../../src/report/days.ts';
import type { Report } from '../../src/report/model.ts';
import { checkHealth } from '../../src/worker/health.ts';
import { createMetrics } from '../../src/worker/metrics.ts';
import { dashboard, panelRows } from '../helpers/grafana.ts';
import { createReportFixture, type ReportFixture } from '../helpers/report-fixture.ts';
import {
  DIMENSION_HEADINGS,
  isPivotHeading,
  METRIC_BY_HEADING,
  renderSurfaces,
  type Surfaces,
} from '../helpers/surfaces.ts';

/**
 * Every figure any surface shows has an entry in the metric catalogue: the report's JSON keys
 * and CSV columns are metric (or dimension) names, its text and HTML headings metric (or
 * dimension) headings, and so are the columns of the Grafana panels and of the example
 * queries of README, docs/schema.md and the demo; /healthz and /metrics name theirs as an
 * entry's alias. docs/metrics.md is what the catalogue writes.
 */

const ROOT = new URL('../../', import.meta.url);
const NAMES = new Set([...METRICS.map((m) => m.name), ...DIMENSIONS.map((d) => d.name)]);
const HEADINGS = new Set([...METRIC_BY_HEADING.keys(), ...DIMENSION_HEADINGS]);
const ALIASES = METRICS.flatMap((m) => m.aliases ?? []).join('\n');

describe('the metric catalogue', () => {
  it('gives each figure one name and one heading, shared with no other', () => {
    const dupes = (list: string[]) => list.filter((x, i) => list.indexOf(x) !== i);
    expect(dupes(METRICS.map((m) => m.name))).toEqual([]);
    expect(dupes(METRICS.map((m) => m.heading))).toEqual([]);
    const dimensionNames = new Set(DIMENSIONS.map((d) => d.name));
    expect(METRICS.filter((m) => dimensionNames.has(m.name)).map((m) => m.name)).toEqual([]);
    expect(METRICS.filter((m) => DIMENSION_HEADINGS.has(m.heading)).map((m) => m.name)).toEqual([]);
    for (const m of METRICS) expect(m.definition.length, m.name).toBeGreaterThan(20);
  });

  it(`is what docs/metrics.md says (run \`${METRICS_DOC_COMMAND}\` when not)`, async () => {
    const path = new URL('docs/metrics.md', ROOT).pathname;
    const options = await resolveConfig(path);
    const written = await format(metricsDoc(), { ...options, filepath: path });
    expect(readFileSync(path, 'utf8'), `run \`${METRICS_DOC_COMMAND}\``).toBe(written);
  });
});

describe('every figure on every surface', () => {
  let fixture: ReportFixture;
  let handle: DbHandle;
  let db: Kysely<Database>;
  let report: Report;
  let surfaces: Surfaces;

  beforeAll(async () => {
    fixture = await createReportFixture();
    handle = await fixture.database.open();
    db = handle.db;
    const today = (
      await sql<{ d: string }>`select (now() at time zone 'UTC')::date::text as d`.execute(db)
    ).rows[0]!.d;
    // A window past 30 days, so that every movers window shows.
    report = await buildReport(db, {
      projects: [],
      language: null,
      since: addDays(today, -44),
      limit: 100_000,
      // Every effort section: the cost and each translator's work too.
      effort: { ...DEFAULT_EFFORT, people: true, cost: DEFAULT_COST },
    });
    surfaces = renderSurfaces(report);
  });
  afterAll(async () => {
    await fixture?.sim.close();
    await fixture?.database.drop();
  });

  it('JSON: every key is a metric or a dimension', () => {
    const unknown = new Set<string>();
    const walk = (value: unknown, key: string | null) => {
      // An empty list shows no figure; a list of rows is walked row by row.
      if (Array.isArray(value) && value.length === 0) return;
      if (Array.isArray(value) && value.some((v) => typeof v === 'object' && v !== null))
        value.forEach((v) => walk(v, null));
      else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        if (key === 'filters') return;
        for (const [k, v] of Object.entries(value)) walk(v, k);
      } else if (key !== null && !NAMES.has(key)) unknown.add(key);
    };
    walk(surfaces.json, null);
    expect([...unknown]).toEqual([]);
  });

  it('CSV: every column is a metric or a dimension', () => {
    const filters = new Set(['projects', 'language', 'since', 'category', 'label']);
    const unknown = [...surfaces.csv].flatMap(([section, rows]) =>
      Object.keys(rows[0] ?? {})
        .filter((c) => !NAMES.has(c) && !(section === 'report' && filters.has(c)))
        .map((c) => `${section}.${c}`),
    );
    expect(surfaces.csv.size).toBeGreaterThan(15);
    expect(unknown).toEqual([]);
  });

  it('text and HTML: every heading is a metric’s or a dimension’s, and so is every headline', () => {
    const tables = [...surfaces.text.tables, ...surfaces.html.tables];
    expect(tables.length).toBeGreaterThan(25);
    const unknown = tables.flatMap((t) =>
      t.headers.filter((h) => !HEADINGS.has(h) && !isPivotHeading(h)).map((h) => `${t.name}: ${h}`),
    );
    expect(unknown).toEqual([]);
    const cards = [...surfaces.html.cards.keys()].flatMap((label) => label.split(' / '));
    expect(cards.filter((label) => !HEADINGS.has(label))).toEqual([]);
  });

  it('Grafana: every panel shows metrics under their names or headings', async () => {
    const schemaColumns = await columnsOfSchema(db);
    const unknown: string[] = [];
    for (const panel of dashboard.panels) {
      const rows = await panelRows(db, panel.targets[0]!.rawSql);
      const columns = Object.keys(rows[0] ?? {});
      expect(columns.length, panel.title).toBeGreaterThan(0);
      for (const column of columns) {
        if (column === 'time' || column === 'metric') continue;
        if (column === 'value') {
          if (!(panel.title in GRAFANA_SERIES)) unknown.push(`${panel.title}: value`);
          continue;
        }
        const known = HEADINGS.has(column) || NAMES.has(column) || isPivotHeading(column);
        if (!known && !schemaColumns.has(column)) unknown.push(`${panel.title}: ${column}`);
      }
    }
    expect(unknown).toEqual([]);
    const titles = new Set(dashboard.panels.map((p) => p.title));
    expect(Object.keys(GRAFANA_SERIES).filter((t) => !titles.has(t))).toEqual([]);
  });

  it('the example queries of README, docs/schema.md and the demo run and name what they show', async () => {
    const schemaColumns = await columnsOfSchema(db);
    const queries = exampleQueries();
    expect(queries.length).toBeGreaterThan(25);
    const unknown: string[] = [];
    for (const { where, text } of queries) {
      const rows = await db.transaction().execute(async (trx) => {
        await sql`set local role weblate_reader`.execute(trx);
        return (await sql.raw<Record<string, unknown>>(text).execute(trx)).rows;
      });
      // A query with no rows here names its columns all the same: in its text.
      const columns = rows.length > 0 ? Object.keys(rows[0]!) : [];
      for (const column of columns)
        if (!NAMES.has(column) && !HEADINGS.has(column) && !schemaColumns.has(column))
          unknown.push(`${where}: ${column}`);
    }
    expect(unknown).toEqual([]);
  });

  it('/healthz and /metrics name their data figures as the catalogue does', async () => {
    const health = await checkHealth(db, { maxAgeSeconds: 3600 });
    for (const key of ['lastSuccessfulSync', 'ageSeconds'] as const) {
      expect(health[key], key).not.toBeNull();
      expect(ALIASES).toContain(`healthz: ${key}`);
    }
    const metrics = createMetrics({ jobs: [], lastSyncAt: () => Promise.resolve(null) });
    const names = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name);
    expect(names).toContain('weblate_mirror_data_freshness_lag_seconds');
    expect(ALIASES).toContain('metrics: weblate_mirror_data_freshness_lag_seconds');
  });
});

/** Every column of the schema's tables and views, and of its functions' results. */
async function columnsOfSchema(db: Kysely<Database>): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`
    select column_name as name from information_schema.columns where table_schema = 'weblate'
    union
    select unnest(p.proargnames) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'weblate'`.execute(db);
  return new Set(rows.map((r) => r.name));
}

/** The queries of README (`weblate-mirror query "…"`), docs/schema.md (```sql) and the demo. */
function exampleQueries(): Array<{ where: string; text: string }> {
  const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
  const schema = readFileSync(new URL('docs/schema.md', ROOT), 'utf8');
  const isRead = (text: string) => /^\s*(select|with)\b/i.test(text);
  return [
    ...[...readme.matchAll(/npx weblate-mirror query "([^"]+)"/g)].map((m) => ({
      where: 'README',
      text: m[1]!,
    })),
    ...[...schema.matchAll(/```sql\n(.*?)```/gs)]
      .flatMap((m) => m[1]!.split(/;\s*\n/))
      .map((text) => text.replace(/^\s*--.*$/gm, '').trim())
      .filter(isRead)
      .map((text) => ({ where: 'docs/schema.md', text })),
    ...EXAMPLE_QUERIES.map((q) => ({ where: 'demo', text: q.sql })),
  ];
}

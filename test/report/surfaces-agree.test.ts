import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { DEFAULT_COST } from '../../src/db/queries/report-effort.ts';
import { DEFAULT_EFFORT } from '../../src/report/build-effort.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { Report } from '../../src/report/model.ts';
import { renderCsv } from '../../src/report/render-csv.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import { renderJson } from '../../src/report/render-json.ts';
import { renderTable } from '../../src/report/render-table.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import {
  freshnessProblems,
  grafanaProblems,
  invariantProblems,
  reportProblems,
} from '../helpers/agreement.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { panelTitled } from '../helpers/grafana.ts';
import { disagreements, readSurfaces } from '../helpers/surfaces.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * One truth per number: a generated instance with categories, labels, estimated history and
 * deletions (strings, a translation and a component deleted upstream after the first sync)
 * gives a report whose every figure is the same in JSON, CSV, text and HTML and on the
 * Grafana panels that show it, and whose sections hold together (sums equal totals, the pace
 * is the movers' change, people add up to the window). Mutants (one surface read another
 * way) must be caught. report-demo.test.ts checks the same of the demo's instance.
 */

describe('every surface of the report of an instance with deletions and estimated history', () => {
  const databases = useTestDatabases();
  let sim: RunningSimulator;
  let handle: DbHandle;
  let report: Report;

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 23,
      projects: 3,
      components: 6,
      languages: 4,
      units: 500,
      changes: 3000,
      users: 4,
      categoriesAndLabels: true,
      historyEndsAt: Date.now() - 3_600_000,
    });
    handle = await databases.migrated();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    const { instance } = sim;
    // Changes in the second component only, so that others stay stalled.
    const edited = instance.components[1]!;
    const translation = instance.translations.find(
      (t) => !t.isSource && t.componentId === edited.id,
    )!;
    const component = instance.components.find(
      (c) => c.id !== edited.id && c.projectId === edited.projectId,
    )!;
    const targets = new Set(
      instance.translations
        .filter((t) => !t.isSource && t.componentId === edited.id && t.id !== translation.id)
        .map((t) => t.id),
    );
    const units = instance.units.filter((u) => targets.has(u.translationId)).slice(0, 25);
    sim.mutate.editUnits(units.slice(10, 25).map((u) => u.id));
    sim.mutate.deleteUnits(units.slice(0, 10).map((u) => u.id));
    sim.mutate.deleteTranslation(translation.id);
    sim.mutate.deleteComponent(component.id);
    expect((await syncSimulator(sim, handle, { full: true })).status).toBe('succeeded');
    report = await buildReport(handle.db, {
      projects: [],
      language: null,
      since: null,
      limit: 100_000,
      // Every effort section: the cost and each translator's work too.
      effort: { ...DEFAULT_EFFORT, people: true, cost: DEFAULT_COST },
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('has what the checks need: deletions, estimated days, labels, categories, movers', async () => {
    const { rows } = await sql<{ deleted: string; estimated: string }>`
      select (select count(*) from weblate.translations where deleted_at is not null) as deleted,
             (select count(*) from weblate.translation_progress_estimated) as estimated`.execute(
      handle.db,
    );
    expect(Number(rows[0]!.deleted)).toBeGreaterThan(0);
    expect(Number(rows[0]!.estimated)).toBeGreaterThan(0);
    expect(report.labels.length).toBeGreaterThan(0);
    expect(report.categories.length).toBeGreaterThan(0);
    expect(report.movers.find((w) => w.name === '30d')!.rows.length).toBeGreaterThan(0);
    expect(report.release_readiness.some((r) => r.pace_origin === 'estimated')).toBe(true);
    // Every table the comparison reads has rows, so that a figure read otherwise shows.
    const sizes = {
      stalled: report.stalled.rows.length,
      newWork: report.new_work.length,
      ranking: report.contributor_ranking.rows.length,
      contributors: report.contributors.rows.length,
      waiting: report.review.waiting.rows.length,
      approval: report.review.approval.rows.length,
      methods: report.translation_methods.length,
      quality: report.quality.length,
      movers7d: report.movers.find((w) => w.name === '7d')!.rows.length,
    };
    expect(Object.entries(sizes).filter(([, n]) => n === 0)).toEqual([]);
  });

  it('says the same of every figure in JSON, CSV, text and HTML, and its sections hold together', () => {
    expect(reportProblems(report)).toEqual([]);
  });

  it('shows on the Grafana panels what the report shows', async () => {
    expect(await grafanaProblems(handle.db, report)).toEqual([]);
  });

  it('catches a surface that reads a figure another way', () => {
    // The HTML page and the text tables of a report whose words translated and one
    // language's translated strings were read otherwise; JSON and CSV as they are.
    const other: Report = structuredClone(report);
    other.totals.activity.words_translated += 1;
    other.languages[0]!.translated += 1;
    other.release_readiness[0]!.status = '2099-01-01';
    const problems = disagreements(
      readSurfaces({
        json: renderJson(report),
        csv: renderCsv(report),
        text: renderTable(other),
        html: renderHtml(other),
      }),
    );
    expect(problems.some((p) => p.startsWith('html card words translated'))).toBe(true);
    expect(problems.some((p) => p.startsWith('text header'))).toBe(true);
    expect(problems.some((p) => /^text Progress by language row 0 translated:/.test(p))).toBe(true);
    expect(problems.some((p) => /^html readiness row 0 80 %/.test(p))).toBe(true);
  });

  it('catches a pace that reads measured history only, as readiness did', async () => {
    // translation_pace as it would be without the estimated days, inside a transaction that
    // is rolled back: release readiness then disagrees with the movers of the same 30 days.
    const problems = await handle.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ body: string }>`
          select pg_get_functiondef('weblate.translation_pace(integer, text[], text, text[])'::regprocedure)
            as body`.execute(trx);
        const measuredOnly = rows[0]!.body.replace(
          'where days >= 1',
          "where days >= 1 and s.origin = 'measured'",
        );
        expect(measuredOnly).not.toBe(rows[0]!.body);
        await sql.raw(measuredOnly).execute(trx);
        const mutant = await buildReport(trx, {
          projects: [],
          language: null,
          since: null,
          limit: 100_000,
          // Every effort section: the cost and each translator's work too.
          effort: { ...DEFAULT_EFFORT, people: true, cost: DEFAULT_COST },
        });
        throw Object.assign(new Error('rolled back'), { problems: invariantProblems(mutant) });
      })
      .catch((err: Error & { problems?: string[] }) => err.problems ?? [err.message]);
    expect(problems.some((p) => p.startsWith('readiness '))).toBe(true);
  });

  it('catches a freshness panel that counts statistics snapshots as syncs', async () => {
    // A statistics snapshot after the last sync: the old panel's definition took it for one.
    await sql`insert into weblate.sync_runs (kind, status, finished_at, weblate_url)
      values ('statistics', 'succeeded', now() + interval '1 minute', 'http://127.0.0.1/')`.execute(
      handle.db,
    );
    const panel = panelTitled('Data freshness (since the last successful sync)').targets[0]!.rawSql;
    expect(await freshnessProblems(handle.db, panel)).toEqual([]);
    const before = `select extract(epoch from now() - max(finished_at)) as "since last success"
      from weblate.sync_runs where status = 'succeeded'`;
    expect(await freshnessProblems(handle.db, before)).toHaveLength(1);
  });
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { firstEstimatedDay } from '../../src/db/queries/backfill.ts';
import { readinessByLanguage } from '../../src/report/answer-rows.ts';
import { buildReport } from '../../src/report/build-report.ts';
import { languageLines } from '../../src/report/language-lines.ts';
import type { Report } from '../../src/report/model.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import {
  DEFAULT_SIZE,
  type RunningSimulator,
  startSimulator,
  trueDailyProgress,
} from '../../src/simulator/index.ts';
import { grafanaProblems, reportProblems } from '../helpers/agreement.ts';
import { ARTIFACTS, launchChromium, shouldRunInChromium } from '../helpers/chromium.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { expectReadableLayout, readReportLayout } from '../helpers/report-layout.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * The HTML report of an instance the size of `weblate-mirror demo` (its default size and
 * seed, a history ending an hour ago, the window from the first estimated day), as the demo
 * writes it: its size, the truth of its language lines against the simulator's own history,
 * and its layout on a phone and on a wide screen.
 */

const SHOULD_RUN_BROWSER = shouldRunInChromium('report-demo.test.ts');
// The page was 394 KB before the phone layout, which labels each cell after a table's key
// column with its header (data-label) and places chart points by percentages: 418 KB; the
// effort sections' five tables of at most --limit rows, 432 KB. The limit catches a return of
// the 1.35 MB page a mark per point made.
const MAX_PAGE_BYTES = 450_000;

describe('the demo-sized HTML report', () => {
  const databases = useTestDatabases();
  let sim: RunningSimulator;
  let handle: DbHandle;
  let report: Report;
  let html: string;

  beforeAll(async () => {
    sim = await startSimulator({
      ...DEFAULT_SIZE,
      seed: 1,
      historyEndsAt: Date.now() - 3_600_000,
      categoriesAndLabels: true,
    });
    handle = await databases.migrated();
    const result = await syncSimulator(sim, handle);
    expect(result.status).toBe('succeeded');
    const since = await firstEstimatedDay(handle.db);
    report = await buildReport(handle.db, { projects: [], language: null, since, limit: 10 });
    html = renderHtml(report);
  });
  afterAll(async () => {
    await sim?.close();
  });

  it(`stays under ${MAX_PAGE_BYTES / 1000} KB`, () => {
    const bytes = Buffer.byteLength(html);
    process.stdout.write(`demo-sized report: ${bytes} bytes over ${report.activity.length} days\n`);
    // Over a year: the window crosses one, and the axis says so.
    expect(report.activity.length).toBeGreaterThan(365);
    expect(bytes).toBeLessThan(MAX_PAGE_BYTES);
    expect(html).toMatch(/<text [^>]*>\d{4}-\d{2}-\d{2}<\/text>/);
  });

  it('shows the categories and labels the demo instance has', () => {
    expect(report.categories.length).toBeGreaterThan(0);
    expect(report.categories.some((c) => c.depth > 0 && c.translations > 0)).toBe(true);
    expect(report.labels.length).toBeGreaterThan(0);
    expect(html).toContain('<section id="categories">');
    expect(html).toContain('<section id="labels">');
  });

  it('draws no stretch of a line over a changing set of translations', () => {
    const counts = new Map(
      report.language_history.map((d) => [`${d.language_code} ${d.day}`, d.translations]),
    );
    for (const line of languageLines(report))
      for (const run of line.runs) {
        const sets = new Set(run.map((p) => counts.get(`${line.code} ${p.day}`)));
        expect(sets.size, `${line.code} from ${run[0]!.day}`).toBe(1);
      }
  });

  it('draws language lines within 2 points of the true history on 95% of days, 5 on all', async () => {
    const languageOf = new Map(
      (
        await sql<{ id: number; language_code: string }>`
          select id, language_code from weblate.translations where not is_source`.execute(handle.db)
      ).rows.map((r) => [r.id, r.language_code]),
    );
    // The truth of a language on a day: its translations' true counts summed.
    const truth = new Map<string, { translated: number; total: number }>();
    for (const [id, days] of trueDailyProgress(sim.instance, { until: report.window.to }))
      for (const d of days) {
        const key = `${languageOf.get(id)} ${d.day}`;
        const sum = truth.get(key) ?? { translated: 0, total: 0 };
        sum.translated += d.translated;
        sum.total += d.total;
        truth.set(key, sum);
      }
    const gaps: Array<{ key: string; gap: number }> = [];
    for (const line of languageLines(report))
      for (const p of line.runs.flat()) {
        const key = `${line.code} ${p.day}`;
        const real = truth.get(key);
        expect(real, key).toBeDefined();
        gaps.push({ key, gap: Math.abs(p.value - (100 * real!.translated) / real!.total) });
      }
    const within = gaps.filter((g) => g.gap <= 2).length / gaps.length;
    const worst = [...gaps].sort((a, b) => b.gap - a.gap).slice(0, 10);
    process.stdout.write(
      `demo-sized report: language lines within 2 points of the truth on ${(100 * within).toFixed(1)}% ` +
        `of ${gaps.length} language-days; largest gap ${worst[0]?.gap.toFixed(2)} points\n`,
    );
    expect(gaps.length).toBeGreaterThan(1000);
    expect(within, JSON.stringify(worst)).toBeGreaterThanOrEqual(0.95);
    // Translations joining a language's sum one by one moved it by up to 36 points on the
    // first days of the estimate, on 3% of the days only: the bound on all days catches that.
    expect(worst[0]!.gap, JSON.stringify(worst)).toBeLessThanOrEqual(5);
  });

  describe("the demo's default report, as `report` prints it after the first sync", () => {
    let whole: Report;
    beforeAll(async () => {
      whole = await buildReport(handle.db, {
        projects: [],
        language: null,
        since: null,
        limit: 100_000,
      });
    });

    it('says the same of every figure on every surface and on the dashboard', async () => {
      expect(reportProblems(whole)).toEqual([]);
      expect(await grafanaProblems(handle.db, whole)).toEqual([]);
    });

    it('gives readiness the estimated pace of every language that moved, never a pace of 0', () => {
      const moved = new Set(
        whole.movers
          .find((w) => w.name === '30d')!
          .rows.filter((m) => (m.translated_words_change ?? 0) !== 0)
          .map((m) => `${m.project_slug}/${m.language_code}`),
      );
      expect(moved.size).toBeGreaterThan(5);
      const lines = readinessByLanguage(whole.release_readiness);
      for (const line of lines) {
        const key = `${line.project_slug}/${line.language_code}`;
        // The mirror's history is one sync old: its 30 days are estimated from the change log.
        expect(line.pace_origin, key).toBe('estimated');
        expect(line.words_per_day, key).not.toBeNull();
        if (moved.has(key)) expect(line.words_per_day, key).not.toBe(0);
        for (const t of line.thresholds) expect(t.status, key).not.toMatch(/^pace unknown/);
      }
      expect(lines.filter((l) => (l.words_per_day ?? 0) > 0).length).toBeGreaterThan(5);
    });

    it("answers README's forecast query with dates", async () => {
      const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
      const query =
        /# How far along is each language, and when will it be done[^\n]*\n(?:#[^\n]*\n)*npx weblate-mirror query "([^"]+)"/.exec(
          readme,
        )?.[1];
      expect(query).toBeDefined();
      const { rows } = await sql
        .raw<{ words_per_day: string | null; projected_completion: string | null }>(query!)
        .execute(handle.db);
      expect(rows.length).toBeGreaterThan(5);
      for (const row of rows)
        if (Number(row.words_per_day) > 0) expect(row.projected_completion).not.toBeNull();
      expect(rows.filter((r) => r.projected_completion !== null).length).toBeGreaterThan(5);
    });
  });

  describe.skipIf(!SHOULD_RUN_BROWSER)('in Chromium', () => {
    let browser: Browser;
    let file: string;

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      file = join(ARTIFACTS, `report-demo-${handle.kind}.html`);
      writeFileSync(file, html);
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    for (const width of [390, 1440])
      it(`fits a ${width} px wide screen, key figures and the newest days in view`, async () => {
        const layout = await readReportLayout(browser, file, width, {
          folder: ARTIFACTS,
          name: `report-demo-${handle.kind}-${width}.png`,
        });
        expect(layout.tables.length).toBeGreaterThan(5);
        expectReadableLayout(layout);
      });
  });
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { daysBetween } from '../../src/report/days.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, shouldRunInChromium } from '../helpers/chromium.ts';
import { databaseEnv, runCli } from '../helpers/cli.ts';
import {
  createReportFixture,
  HOSTILE_NAME,
  type ReportFixture,
} from '../helpers/report-fixture.ts';
import { expectReadableLayout, readReportLayout } from '../helpers/report-layout.ts';

/**
 * The HTML report opened in a real browser: Debian's Chromium through playwright-core,
 * offline (file:// only). The charts' data points must be the database's figures.
 */

const SHOULD_RUN = shouldRunInChromium('report-html.test.ts');

interface PageData {
  title: string;
  scripts: number;
  lines: Array<{ series: string; hasPath: boolean }>;
  /** The line chart's hover columns: a day and its <title>. */
  hover: Array<{ day: string; title: string }>;
  circles: number;
  legend: string[];
  bars: Array<{ day: string; value: number; words: number; height: number }>;
  components: Array<{
    project: string;
    component: string;
    percent: string;
    translated: number;
    total: number;
    text: string;
  }>;
  hoverInside: boolean;
  chartHeights: number[];
  projectsText: string;
}

describe.skipIf(!SHOULD_RUN)(`report --html in Chromium (needs ${CHROMIUM})`, () => {
  let fixture: ReportFixture;
  let handle: DbHandle;
  let browser: Browser;
  let file: string;
  let stdout: string;
  const requests: string[] = [];
  let data: PageData;

  beforeAll(async () => {
    fixture = await createReportFixture();
    file = join(fixture.database.dataDir, 'out', 'report.html');
    const result = await runCli(['report', '--html', file], databaseEnv(fixture.database));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    stdout = result.stdout;
    handle = await fixture.database.open();
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    data = await page.evaluate(readPage);
    mkdirSync(ARTIFACTS, { recursive: true });
    const screenshot = join(ARTIFACTS, `report-${handle.kind}.png`);
    await page.screenshot({ path: screenshot, fullPage: true });
    process.stdout.write(`report screenshot: ${screenshot}\n`);
  });

  afterAll(async () => {
    await browser?.close();
    await fixture?.sim.close();
    await fixture?.database.drop();
  });

  it('prints where it wrote the page', () => {
    expect(stdout).toBe(`Report written to ${file}\n`);
    expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('loads nothing but the file itself', () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
  });

  it('draws one line per language with the points of language_progress_daily', async () => {
    const window = reportWindow();
    const rows = await sql<{
      language_code: string;
      language_name: string;
      day: string;
      translated_percent: string;
    }>`
      select d.language_code, l.name as language_name, d.day::text as day, d.translated_percent
      from weblate.language_progress_daily d join weblate.languages l on l.code = d.language_code
      where d.day between ${window.from}::date and ${window.to}::date
      order by d.language_code, d.day`.execute(handle.db);
    const expected = new Map<string, Array<{ day: string; value: number }>>();
    const codes = new Map<string, string>();
    for (const r of rows.rows) {
      const points = expected.get(r.language_code) ?? [];
      points.push({ day: r.day, value: Number(r.translated_percent) });
      expected.set(r.language_code, points);
      codes.set(r.language_name, r.language_code);
    }
    expect(expected.size).toBeGreaterThan(1);
    expect(data.lines.map((l) => l.series)).toEqual([...expected.keys()]);
    // Hover titles: the day, then `<language name>: <percent>%` per language.
    const drawn = new Map<string, Array<{ day: string; value: number }>>();
    for (const { day, title } of data.hover) {
      const [head, ...lines] = title.split('\n');
      expect(head).toBe(day);
      for (const line of lines) {
        const match = /^(.*): (\d+\.\d)%$/.exec(line);
        expect(match, line).not.toBeNull();
        const code = codes.get(match![1]!)!;
        drawn.set(code, [...(drawn.get(code) ?? []), { day, value: Number(match![2]) }]);
      }
    }
    for (const line of data.lines) {
      expect(drawn.get(line.series)).toEqual(expected.get(line.series));
      // History starts 40 days back, so every line crosses the whole 30-day window.
      expect(drawn.get(line.series)).toHaveLength(30);
      expect(line.hasPath).toBe(true);
    }
    // The translations behind each language stay the same: no line breaks, no ring.
    expect(data.circles).toBe(0);
    expect(data.legend).toEqual([...expected.keys()]);
    expect(data.hoverInside).toBe(true);
  });

  it('draws one bar per day with the sums of activity_daily', async () => {
    const window = reportWindow();
    const rows = await sql<{ day: string; changes: string; words: string }>`
      select day::text as day, sum(changes) as changes, sum(words) as words
      from weblate.activity_daily
      where day between ${window.from}::date and ${window.to}::date
      group by day`.execute(handle.db);
    const byDay = new Map(rows.rows.map((r) => [r.day, r]));
    const expected = daysBetween(window).map((day) => ({
      day,
      value: Number(byDay.get(day)?.changes ?? 0),
      words: Number(byDay.get(day)?.words ?? 0),
    }));
    expect(expected.filter((b) => b.value > 0).length).toBeGreaterThan(10);
    expect(data.bars.map(({ day, value, words }) => ({ day, value, words }))).toEqual(expected);
    // Taller bars for more changes.
    const tallest = data.bars.reduce((a, b) => (b.value > a.value ? b : a));
    expect(data.bars.every((b) => b.height <= tallest.height)).toBe(true);
    expect(data.bars.filter((b) => b.value > 0).every((b) => b.height > 0)).toBe(true);
  });

  it('lists every component with the figures of component_progress', async () => {
    const rows = await sql<{
      project_slug: string;
      component_slug: string;
      translated_percent: string;
      translated: string;
      total: string;
    }>`
      select project_slug, component_slug, translated_percent::text, translated, total
      from weblate.component_progress order by project_slug, component_slug`.execute(handle.db);
    expect(rows.rows.length).toBeGreaterThan(2);
    expect(
      data.components.map(({ project, component, percent, translated, total }) => ({
        project,
        component,
        percent,
        translated,
        total,
      })),
    ).toEqual(
      rows.rows.map((r) => ({
        project: r.project_slug,
        component: r.component_slug,
        percent: Number(r.translated_percent).toFixed(1),
        translated: Number(r.translated),
        total: Number(r.total),
      })),
    );
    for (const row of data.components) expect(row.text).toContain(`${row.percent}%`);
  });

  it('shows names as text, never as markup', () => {
    expect(data.scripts).toBe(0);
    expect(data.title).not.toBe('pwned');
    expect(data.projectsText).toContain(HOSTILE_NAME);
  });

  it('lays the charts out with a visible size', () => {
    expect(data.chartHeights).toHaveLength(2);
    for (const height of data.chartHeights) expect(height).toBeGreaterThan(150);
  });

  // On a phone and on a wide screen: every table's key figure in view without scrolling
  // sideways (the page or the table), chart text of 11 px or more, the newest day in view.
  for (const width of [390, 1440])
    it(`shows every table's key figure and legible charts at ${width} px`, async () => {
      const layout = await readReportLayout(browser, file, width, {
        folder: ARTIFACTS,
        name: `report-${handle.kind}-${width}.png`,
      });
      // The fixture fills every table of the page: 19, with two windows of movers and the
      // effort sections' four (translator work, machine translation, time in each state and
      // strings over target; per person and the cost only when asked).
      expect(layout.tables.map((t) => t.name)).toHaveLength(19);
      expect(layout.tables.every((t) => t.rows > 0)).toBe(true);
      expect(layout.charts).toHaveLength(2);
      expectReadableLayout(layout);
    });

  it('catches a table widened past a phone, and a chart text shrunk (mutants of the page)', async () => {
    const mutant = join(fixture.database.dataDir, 'out', 'mutant.html');
    const widened = readFileSync(file, 'utf8').replace(
      '</head>',
      '<style>table.stalled { min-width: 900px; } .chart text { font-size: 9px !important; }</style></head>',
    );
    writeFileSync(mutant, widened);
    const layout = await readReportLayout(browser, mutant, 390, {
      folder: ARTIFACTS,
      name: `report-${handle.kind}-mutant-390.png`,
    });
    expect(layout.tables.find((t) => t.name === 'stalled')!.hidden.length).toBeGreaterThan(0);
    expect(layout.smallestText.size).toBeLessThan(11);
    expect(() => expectReadableLayout(layout)).toThrow();
  });

  function reportWindow(): { from: string; to: string } {
    // The page's text: dates come in spans that keep them on one line.
    const html = readFileSync(file, 'utf8').replace(/<[^>]*>/g, '');
    const match = /Window: (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(html);
    expect(match).not.toBeNull();
    return { from: match![1]!, to: match![2]! };
  }
});

/** The little of the DOM that readPage uses (the test compiles without the DOM library). */
interface PageElement {
  innerText: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getBoundingClientRect(): {
    top: number;
    bottom: number;
    left: number;
    right: number;
    height: number;
  };
}

/** Runs in the page (serialised by playwright): what a reader sees, as data. */
function readPage(): PageData {
  const doc = (
    globalThis as unknown as {
      document: PageElement & { title: string; scripts: { length: number } };
    }
  ).document;
  const all = (root: PageElement, selector: string) => [...root.querySelectorAll(selector)];
  const svg = doc.querySelector('svg.line-chart')!;
  const box = svg.getBoundingClientRect();
  const lines = all(svg, 'g.series').map((g) => ({
    series: g.getAttribute('data-series')!,
    hasPath: g.querySelector('path') !== null,
  }));
  const columns = all(svg, 'g.hover rect');
  const hoverInside = columns.every((c) => {
    const r = c.getBoundingClientRect();
    return r.top >= box.top && r.bottom <= box.bottom && r.left >= box.left && r.right <= box.right;
  });
  const bars = all(doc, 'svg.bar-chart rect[data-day]').map((r) => ({
    day: r.getAttribute('data-day')!,
    value: Number(r.getAttribute('data-value')),
    words: Number(r.getAttribute('data-words')),
    height: r.getBoundingClientRect().height,
  }));
  const components = all(doc, 'table.components tbody tr').map((tr) => ({
    project: tr.getAttribute('data-project')!,
    component: tr.getAttribute('data-component')!,
    percent: tr.getAttribute('data-percent')!,
    translated: Number(tr.getAttribute('data-translated')),
    total: Number(tr.getAttribute('data-total')),
    text: tr.innerText,
  }));
  return {
    title: doc.title,
    scripts: doc.scripts.length,
    lines,
    hover: columns.map((c) => ({
      day: c.getAttribute('data-day')!,
      title: c.querySelector('title')!.textContent!,
    })),
    circles: all(svg, 'circle').length,
    legend: all(doc, 'ul.legend li').map((li) => li.getAttribute('data-series')!),
    bars,
    components,
    hoverInside,
    chartHeights: all(doc, 'svg.chart').map((s) => s.getBoundingClientRect().height),
    projectsText: doc.querySelector('table.projects')!.innerText,
  };
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Browser } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What the HTML report must show on any screen, read in Chromium: the key figure of every
 * table (its `key` column, html-table.ts) in view without scrolling the page or the table,
 * chart text of at least MIN_CHART_TEXT pixels, each chart's newest day in view, and no
 * sideways scrolling of the page.
 */

export const MIN_CHART_TEXT = 11;

export interface ReportLayout {
  innerWidth: number;
  scrollWidth: number;
  tables: Array<{
    name: string;
    keyHeaders: number;
    rows: number;
    keyCells: number;
    /** Key cells (and the key header) not wholly in view, with where they are. */
    hidden: string[];
  }>;
  /** The smallest rendered size of a chart's or legend's text, in CSS pixels, and that text. */
  smallestText: { size: number; text: string };
  charts: Array<{ name: string; right: number; newestDay: string | null; isNewestInView: boolean }>;
}

/** Opens `file` at `width` px, saves a full-page screenshot as `screenshot` in `folder`, and reads its layout. */
export async function readReportLayout(
  browser: Browser,
  file: string,
  width: number,
  screenshot: { folder: string; name: string },
): Promise<ReportLayout> {
  mkdirSync(screenshot.folder, { recursive: true });
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  try {
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await page.screenshot({ path: join(screenshot.folder, screenshot.name), fullPage: true });
    return await page.evaluate(readLayout);
  } finally {
    await page.close();
  }
}

/** Fails, naming the tables, cells and texts, unless the layout shows what it must. */
export function expectReadableLayout(layout: ReportLayout): void {
  expect(layout.scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(layout.innerWidth);
  for (const table of layout.tables) {
    expect(table.keyHeaders, `${table.name}: key columns`).toBe(1);
    expect(table.keyCells, `${table.name}: key cells`).toBe(table.rows);
    expect(table.hidden, `${table.name}: key cells out of view`).toEqual([]);
  }
  expect(layout.smallestText.size, layout.smallestText.text).toBeGreaterThanOrEqual(MIN_CHART_TEXT);
  for (const chart of layout.charts) {
    expect(chart.right, `${chart.name} is wider than the screen`).toBeLessThanOrEqual(
      layout.innerWidth,
    );
    expect(chart.isNewestInView, `${chart.name}: newest day ${chart.newestDay}`).toBe(true);
  }
}

/** The little of the DOM that readLayout uses (the tests compile without the DOM library). */
interface Rect {
  left: number;
  right: number;
  top: number;
  width: number;
  height: number;
}
interface LayoutElement {
  className: string | { baseVal: string };
  textContent: string | null;
  clientLeft: number;
  clientWidth: number;
  scrollWidth: number;
  parentElement: LayoutElement | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Rect;
  getClientRects(): { length: number };
  querySelectorAll(selector: string): Iterable<LayoutElement>;
  getScreenCTM?(): { a: number; b: number; c: number; d: number } | null;
}
interface LayoutWindow {
  innerWidth: number;
  document: LayoutElement & { scrollingElement: LayoutElement };
  getComputedStyle(element: LayoutElement): { fontSize: string; overflowX: string };
}

/** Runs in the page (serialised by playwright, so self-contained): the layout as data. */
function readLayout(): ReportLayout {
  const win = globalThis as unknown as LayoutWindow;
  const doc = win.document;
  const all = (root: LayoutElement, selector: string) => [...root.querySelectorAll(selector)];
  const isShown = (el: LayoutElement) => el.getClientRects().length > 0;
  const where = (r: Rect) => `${Math.round(r.left)}–${Math.round(r.right)}`;
  // Wholly in view as the page opens: inside the viewport, and across inside the visible box
  // of every element around it that clips or scrolls what overflows it.
  const isInView = (element: LayoutElement): boolean => {
    const r = element.getBoundingClientRect();
    if (r.left < -0.5 || r.right > win.innerWidth + 0.5) return false;
    for (let box = element.parentElement; box !== null; box = box.parentElement) {
      if (win.getComputedStyle(box).overflowX === 'visible') continue;
      const left = box.getBoundingClientRect().left + box.clientLeft;
      if (r.left < left - 0.5 || r.right > left + box.clientWidth + 0.5) return false;
    }
    return true;
  };
  const tables = all(doc, 'table').map((table) => {
    const keys = all(table, 'th.key, td.key');
    return {
      name: typeof table.className === 'string' ? table.className : table.className.baseVal,
      keyHeaders: all(table, 'thead th.key').length,
      rows: all(table, 'tbody tr').length,
      keyCells: all(table, 'tbody td.key').length,
      hidden: keys
        .filter((cell) => !isShown(cell) || !isInView(cell))
        .map(
          (cell) =>
            `${(cell.textContent ?? '').trim()} at ${isShown(cell) ? where(cell.getBoundingClientRect()) : 'hidden'}`,
        ),
    };
  });
  // A text's rendered size: its font size times the scale it is drawn at.
  let smallestText = { size: Infinity, text: '(no chart text)' };
  const texts = [...all(doc, 'svg.chart text'), ...all(doc, 'ul.legend li')].filter(isShown);
  for (const text of texts) {
    const ctm = text.getScreenCTM?.() ?? { a: 1, b: 0, c: 0, d: 1 };
    const scale = Math.min(Math.hypot(ctm.a, ctm.b), Math.hypot(ctm.c, ctm.d));
    const size = parseFloat(win.getComputedStyle(text).fontSize) * scale;
    if (size < smallestText.size)
      smallestText = {
        size,
        text: `"${(text.textContent ?? '').trim()}" at ${size.toFixed(1)} px`,
      };
  }
  const charts = all(doc, 'svg.chart').map((svg) => {
    const days = all(svg, '[data-day]').filter(isShown);
    const newest = days.reduce<LayoutElement | null>(
      (max, el) =>
        max === null || el.getAttribute('data-day')! > max.getAttribute('data-day')! ? el : max,
      null,
    );
    return {
      name: typeof svg.className === 'string' ? svg.className : svg.className.baseVal,
      right: svg.getBoundingClientRect().right,
      newestDay: newest?.getAttribute('data-day') ?? null,
      isNewestInView: newest !== null && isInView(newest),
    };
  });
  return {
    innerWidth: win.innerWidth,
    scrollWidth: doc.scrollingElement.scrollWidth,
    tables,
    smallestText,
    charts,
  };
}

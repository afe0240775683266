import { describe, expect, it } from 'vitest';

import { PageSizer, type PageTiming } from '../../src/weblate/page-sizer.ts';

const OPTIONS = { start: 1000, max: 10_000, timeoutMs: 60_000, textBudget: 24_000_000, min: 100 };

/** A full page at the sizer's size, answered in `msPerRecord` per record plus `fixedMs`. */
function fullPage(
  sizer: PageSizer,
  msPerRecord: number,
  fixedMs = 50,
  bytesPerRecord = 800,
): PageTiming {
  const size = sizer.size;
  return {
    answeredSize: size,
    askedSize: size,
    records: size,
    elapsedMs: fixedMs + size * msPerRecord,
    textLength: size * bytesPerRecord,
  };
}

describe('the page size of a walk', () => {
  it('starts moderate and grows to the largest while time per record stays flat', () => {
    const sizer = new PageSizer(OPTIONS);
    const sizes = [sizer.size];
    for (let i = 0; i < 4; i++) {
      sizer.observe(fullPage(sizer, 0.5));
      sizes.push(sizer.size);
    }
    // 550 ms at 1,000, under a 32nd of the timeout: four times. 2,050 ms at 4,000 and 4,050 ms
    // at 8,000, under an eighth: twice, up to the largest.
    expect(sizes).toEqual([1000, 4000, 8000, 10_000, 10_000]);
  });

  it('stops growing when the time per record rises with the page', () => {
    const sizer = new PageSizer(OPTIONS);
    sizer.observe(fullPage(sizer, 0.5));
    expect(sizer.size).toBe(4000);
    // 0.55 ms a record at 1,000; at 4,000 the server takes about 1 ms a record.
    sizer.observe(fullPage(sizer, 1));
    expect(sizer.size).toBe(4000);
  });

  it('stops growing when a page takes an eighth of the timeout, so a larger page stays well under it', () => {
    const sizer = new PageSizer({ ...OPTIONS, timeoutMs: 10_000 });
    sizer.observe(fullPage(sizer, 1)); // 1,050 ms at 1,000: over a 32nd, under an eighth
    expect(sizer.size).toBe(2000);
    sizer.observe(fullPage(sizer, 1)); // 2,050 ms at 2,000: over 1,250 ms
    expect(sizer.size).toBe(2000);
  });

  it('does not grow past what the text budget holds, and shrinks on a page over it', () => {
    const sizer = new PageSizer({ ...OPTIONS, textBudget: 3_000_000 });
    sizer.observe(fullPage(sizer, 0.1)); // 800 B a record: 3,750 fit, not 4,000
    expect(sizer.size).toBe(3750);
    sizer.observe(fullPage(sizer, 0.1));
    expect(sizer.size).toBe(3750);
    // Longer strings: 3,750 records in 11.25 MB, almost four times the budget.
    sizer.observe(fullPage(sizer, 0.1, 50, 3000));
    expect(sizer.size).toBe(1000);
  });

  it('learns nothing about larger pages from a page less than half full', () => {
    const sizer = new PageSizer(OPTIONS);
    sizer.observe({ ...fullPage(sizer, 0.3), records: 400, elapsedMs: 170 });
    expect(sizer.size).toBe(1000);
  });

  it('never again asks more than a page that had to be asked again smaller', () => {
    const sizer = new PageSizer(OPTIONS);
    sizer.observe(fullPage(sizer, 0.3));
    expect(sizer.size).toBe(4000);
    // 4,000 timed out and was answered at 2,000.
    sizer.observe({ ...fullPage(sizer, 0.3), askedSize: 4000, answeredSize: 2000, records: 2000 });
    expect(sizer.size).toBe(2000);
    for (let i = 0; i < 3; i++) sizer.observe(fullPage(sizer, 0.1));
    expect(sizer.size).toBe(2000);
  });

  it('grows only from a page asked at its current size, not from one asked before it grew', () => {
    const sizer = new PageSizer(OPTIONS);
    const early = fullPage(sizer, 0.3);
    sizer.observe(early);
    expect(sizer.size).toBe(4000);
    sizer.observe(early);
    expect(sizer.size).toBe(4000);
  });

  it('keeps to the largest size allowed, even below its start or its smallest', () => {
    expect(new PageSizer({ ...OPTIONS, max: 500 }).size).toBe(500);
    const tiny = new PageSizer({ ...OPTIONS, max: 50 });
    tiny.observe({ ...fullPage(tiny, 0.1), textLength: 100_000_000 });
    expect(tiny.size).toBe(50);
    const small = new PageSizer(OPTIONS);
    small.observe({ ...fullPage(small, 0.1), textLength: 1_000_000_000 });
    expect(small.size).toBe(100);
  });
});

import { describe, expect, it } from 'vitest';

import { IdWindows, type KeysetPage } from '../../src/weblate/keyset.ts';

/** A page of `found` matches (count) of which `served` came back, asked at `pageSize`. */
function page(found: number, pageSize = 100): KeysetPage {
  return {
    url: 'u',
    results: [],
    resultTexts: [],
    ids: [],
    after: null,
    through: null,
    count: found,
    textLength: 0,
    pageSize,
  };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

describe('id windows', () => {
  it('start at one page of dense ids and aim each window at one page', () => {
    const windows = new IdWindows(100, null);
    expect(windows.upperBound(null)).toBe('100');
    // Half a page in the window: ids are half as dense, the next window twice as wide.
    windows.observe(null, '100', page(50), 100);
    expect(windows.upperBound('100')).toBe('300');
    // A window that held four pages: the next is a quarter as wide, not less.
    windows.observe('100', '300', page(800), 100);
    expect(windows.upperBound('300')).toBe('350');
  });

  it('at most double from one window to the next, and grow fourfold over an empty one', () => {
    const windows = new IdWindows(100, null);
    windows.observe(null, '100', page(1), 100);
    expect(windows.upperBound('100')).toBe('300');
    windows.observe('100', '300', page(0), 100);
    expect(windows.upperBound('300')).toBe('1100');
  });

  it('end with one unbounded request after two empty windows in a row', () => {
    const windows = new IdWindows(100, null);
    windows.observe(null, '100', page(0), 100);
    expect(windows.upperBound('100')).toBe('500');
    windows.observe('100', '500', page(0), 100);
    expect(windows.upperBound('500')).toBeNull();
    // It found more than a page: the windows go on.
    windows.observe('500', null, page(5000), 100);
    expect(windows.upperBound('900')).toBe('2500');
  });

  it('end with one unbounded request once the rows left to expect fit in a page', () => {
    // Everything fits in one page: one unbounded request.
    expect(new IdWindows(100, 100).upperBound(null)).toBeNull();
    const windows = new IdWindows(100, 250);
    expect(windows.upperBound(null)).toBe('100');
    windows.observe(null, '100', { ...page(100), ids: ids(100) }, 100);
    expect(windows.upperBound('100')).toBe('200');
    windows.observe('100', '200', { ...page(100), ids: ids(100) }, 100);
    expect(windows.upperBound('200')).toBeNull();
    // There were 400 left, not 50: windows until a page is left.
    windows.observe('200', null, { ...page(400), ids: ids(100) }, 100);
    expect(windows.upperBound('300')).toBe('400');
    windows.observe('300', '400', { ...page(100), ids: ids(100) }, 100);
    windows.observe('400', '500', { ...page(100), ids: ids(100) }, 100);
    expect(windows.upperBound('500')).toBeNull();
  });

  it('size the next window for the next page size', () => {
    const windows = new IdWindows(1000, null);
    // The server answered at 1,000 but the next page asks 250 (a timeout halved it twice).
    windows.observe(null, '1000', page(1000, 1000), 250);
    expect(windows.upperBound('1000')).toBe('1250');
  });

  it('keep ids above 2^53 exact', () => {
    const windows = new IdWindows(100, null);
    expect(windows.upperBound('9007199254740993')).toBe('9007199254741093');
  });
});

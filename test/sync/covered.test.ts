import { describe, expect, it } from 'vitest';

import { CoveredIds, CoveredTimes } from '../../src/sync/covered.ts';

describe('covered ids', () => {
  it('reach only as far as the ranges stored reach without a gap', () => {
    const covered = new CoveredIds(null);
    covered.add('200', '300');
    expect(covered.reach).toEqual({ through: null, complete: false });
    covered.add(null, '100');
    expect(covered.reach).toEqual({ through: '100', complete: false });
    // The gap (100, 200] closes: the range stored beyond it joins the reach.
    covered.add('100', '200');
    expect(covered.reach).toEqual({ through: '300', complete: false });
  });

  it('complete once the range to the end joins the reach, in whatever order they came', () => {
    const covered = new CoveredIds('1000');
    covered.add('1500', null);
    covered.add('1200', '1500');
    expect(covered.reach).toEqual({ through: '1000', complete: false });
    covered.add('1000', '1200');
    expect(covered.reach).toEqual({ through: '1500', complete: true });
  });

  it('take overlapping ranges (a page that ran past its window) and ids above 2^53 exactly', () => {
    const covered = new CoveredIds('9007199254740993');
    covered.add('9007199254740993', '9007199254741100');
    covered.add('9007199254741000', '9007199254741050');
    covered.add('9007199254741050', '9007199254741200');
    expect(covered.reach).toEqual({ through: '9007199254741200', complete: false });
  });

  it('tell the reach with a range added, without adding it', () => {
    const covered = new CoveredIds(null);
    covered.add('100', '200');
    expect(covered.with(null, '100')).toEqual({ through: '200', complete: false });
    expect(covered.reach).toEqual({ through: null, complete: false });
  });
});

describe('covered times', () => {
  it('reach down from the walk start only as far as the pages stored reach without a gap', () => {
    const covered = new CoveredTimes('2026-11-20T12:00:00.000000Z');
    // A window further down arrived first: beyond a gap.
    covered.add('2026-11-18T00:00:00.000000Z', '2026-11-19T00:00:00.000000Z');
    expect(covered.reach).toEqual({ through: '2026-11-20T12:00:00.000000Z', complete: false });
    // The page below the start covers down to its oldest change, not yet the window below.
    covered.add('2026-11-19T06:30:00.250001Z', '2026-11-20T12:00:00.000000Z');
    expect(covered.reach).toEqual({ through: '2026-11-19T06:30:00.250001Z', complete: false });
    covered.add('2026-11-19T00:00:00.000000Z', '2026-11-19T06:30:00.250001Z');
    expect(covered.reach).toEqual({ through: '2026-11-18T00:00:00.000000Z', complete: false });
    // The read down to the walk's own lower bound completes it.
    expect(covered.with(null, '2026-11-18T00:00:00.000000Z')).toEqual({
      through: '2026-11-18T00:00:00.000000Z',
      complete: true,
    });
  });
});

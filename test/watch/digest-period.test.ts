import { describe, expect, it } from 'vitest';

import { parseDigestFlags } from '../../src/cli/commands/digest.ts';
import { UsageError } from '../../src/errors.ts';
import { digestPeriod } from '../../src/watch/digest/period.ts';

describe('digestPeriod', () => {
  it.each([
    // every, now, at, from, to
    ['day', '2026-12-07T00:00:00Z', null, '2026-12-06', '2026-12-06'],
    ['day', '2026-12-07T23:59:59.999Z', null, '2026-12-06', '2026-12-06'],
    ['day', '2027-01-01T08:00:00Z', null, '2026-12-31', '2026-12-31'],
    ['day', '2028-03-01T01:00:00Z', null, '2028-02-29', '2028-02-29'],
    ['day', '2026-12-07', null, '2026-12-06', '2026-12-06'],
    ['day', '2026-12-07T10:00:00Z', '2026-12-07', '2026-12-07', '2026-12-07'],
    // Monday: the week that ended yesterday.
    ['week', '2026-12-07T09:00:00Z', null, '2026-11-30', '2026-12-06'],
    // Sunday: that week is not complete yet, so the one before.
    ['week', '2026-12-06T23:00:00Z', null, '2026-11-23', '2026-11-29'],
    // ISO week 53 of 2026, which ends in 2027.
    ['week', '2027-01-04T00:00:00Z', null, '2026-12-28', '2027-01-03'],
    ['week', '2027-01-01T12:00:00Z', null, '2026-12-21', '2026-12-27'],
    ['week', '2026-06-01', '2027-01-03', '2026-12-28', '2027-01-03'],
    ['week', '2026-06-01', '2026-12-28', '2026-12-28', '2027-01-03'],
    // ISO week 1 of 2021 starts on 2021-01-04; 2020-W53 holds New Year's Day.
    ['week', '2021-01-02T00:00:00Z', null, '2020-12-21', '2020-12-27'],
    ['week', '2020-01-01', '2021-01-01', '2020-12-28', '2021-01-03'],
  ] as const)('%s at %s (--at %s) is %s to %s', (every, now, at, from, to) => {
    expect(digestPeriod(every, now, at)).toEqual({
      every,
      from,
      to,
      key: `digest/${every}/${from}`,
    });
  });

  it('takes a Date', () => {
    expect(digestPeriod('day', new Date('2026-01-01T00:00:00Z')).from).toBe('2025-12-31');
  });

  it('refuses a day that is not one', () => {
    expect(() => digestPeriod('day', '2026-12-07', '2026-13-01')).toThrow(/YYYY-MM-DD/);
  });
});

describe('digest flags', () => {
  it.each([
    [{ every: 'month' }, '--every must be one of day, week, not "month"'],
    [{ at: '2026-13-01' }, '--at must be a date written YYYY-MM-DD, not "2026-13-01"'],
    [{ at: '7 days ago' }, '--at must be a date written YYYY-MM-DD'],
    [{ format: 'table' }, '--format must be one of text, html, json, slack'],
    [{ label: 'ui' }, '--label: a digest counts whole translations'],
    [{ project: ['a b'] }, '--project takes project slugs'],
    [{ limit: '0' }, '--limit must be a positive whole number'],
  ])('refuses %o', (values, message) => {
    expect(() => parseDigestFlags(values)).toThrow(UsageError);
    expect(() => parseDigestFlags(values)).toThrow(message);
  });

  it('defaults to the text of the last day', () => {
    const flags = parseDigestFlags({});
    expect(flags).toMatchObject({ every: 'day', at: null, format: 'text' });
    expect(flags.report.options).toMatchObject({ projects: [], language: null, limit: 10 });
  });
});

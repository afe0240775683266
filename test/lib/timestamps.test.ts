import { describe, expect, it } from 'vitest';

import { fromDate, shiftSeconds, toEpochMicros, toUtcMicros } from '../../src/lib/timestamps.ts';

describe('timestamps', () => {
  it('normalise Z and offsets to UTC without losing a microsecond', () => {
    expect(toUtcMicros('2026-03-01T12:34:56.123456+02:00')).toBe('2026-03-01T10:34:56.123456Z');
    expect(toUtcMicros('2026-03-01T00:00:00.000001-05:30')).toBe('2026-03-01T05:30:00.000001Z');
    expect(toUtcMicros('2026-01-01T00:00:00Z')).toBe('2026-01-01T00:00:00.000000Z');
    expect(toUtcMicros('2025-12-31T23:59:59.9999996Z')).toBe('2026-01-01T00:00:00.000000Z');
    expect(toUtcMicros('2026-03-01 10:00+0545')).toBe('2026-03-01T04:15:00.000000Z');
  });

  it('compare as text once canonical, and shift exactly', () => {
    const a = toUtcMicros('2026-03-01T12:00:00.000001+01:00');
    const b = toUtcMicros('2026-03-01T11:00:00.000002Z');
    expect(a < b).toBe(true);
    expect(shiftSeconds(a, -300)).toBe('2026-03-01T10:55:00.000001Z');
    expect(shiftSeconds('1970-01-01T00:00:00.5Z', -1)).toBe('1969-12-31T23:59:59.500000Z');
    expect(toEpochMicros('1970-01-01T00:00:01.000001Z')).toBe(1_000_001n);
    expect(fromDate(new Date('2026-03-01T10:00:00.123Z'))).toBe('2026-03-01T10:00:00.123000Z');
  });

  it('refuse a timestamp without an offset', () => {
    expect(() => toEpochMicros('2016-03-07T10:20:05.499')).toThrow(/with an offset/);
  });
});

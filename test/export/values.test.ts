import { describe, expect, it } from 'vitest';

import { columnKind, convertValue } from '../../src/export/columns.ts';
import {
  dateToDays,
  daysFromCivil,
  int8ToBigInt,
  timestamptzToMicros,
} from '../../src/export/values.ts';

// Expected values are PostgreSQL's own: (extract(epoch from t) * 1000000)::numeric(30,0).
describe('timestamptzToMicros', () => {
  it.each([
    ['1970-01-01 00:00:00+00', 0n],
    ['2026-03-01 12:34:56.123456+00', 1_772_368_496_123_456n],
    ['2026-03-01 12:34:56.1+00', 1_772_368_496_100_000n],
    ['1969-12-31 23:59:59.999999+00', -1n],
    ['1969-07-20 20:17:40.000001+00', -14_182_939_999_999n],
    ['1900-01-01 00:00:00+00', -2_208_988_800_000_000n],
    ['0044-03-15 12:00:00+00', -60_772_248_000_000_000n],
    ['0044-03-15 12:00:00+00 BC', -63_517_780_800_000_000n],
    ['2026-03-01 14:34:56.123456+02', 1_772_368_496_123_456n],
    ['2026-03-01 07:04:56.123456-05:30', 1_772_368_496_123_456n],
    ['1901-01-01 00:09:21+00:09:21', -2_177_452_800_000_000n],
    ['2026-03-01T12:34:56.123456+00:00', 1_772_368_496_123_456n],
    ['10000-01-01 00:00:00+00', 253_402_300_800_000_000n],
  ])('%s is %d µs after the epoch', (text, micros) => {
    expect(timestamptzToMicros(text)).toBe(micros);
  });

  it.each(['infinity', '-infinity', '2026-03-01 12:34:56', '2026-03-01', '03/01/2026 12:34:56+00'])(
    'refuses %s',
    (text) => {
      expect(() => timestamptzToMicros(text)).toThrow(/not a finite timestamptz/);
    },
  );
});

describe('dateToDays', () => {
  it.each([
    ['1970-01-01', 0],
    ['1969-12-31', -1],
    ['2026-03-01', 20_513],
    ['2000-02-29', 11_016],
    ['1900-03-01', -25_508],
    ['0001-01-01', -719_162],
    ['0001-12-31 BC', -719_163],
  ])('%s is day %d', (text, days) => {
    expect(dateToDays(text)).toBe(days);
  });

  it('agrees with Date.UTC where that is right (years from 100)', () => {
    for (const [y, m, d] of [
      [100, 3, 1],
      [1600, 2, 29],
      [1970, 1, 1],
      [2100, 12, 31],
      [9999, 12, 31],
    ] as const)
      expect(daysFromCivil(y, m, d)).toBe(Date.UTC(y, m - 1, d) / 86_400_000);
  });

  it('refuses infinity', () => {
    expect(() => dateToDays('infinity')).toThrow(/not a finite date/);
  });
});

describe('column values', () => {
  it('keeps int8 exact beyond 2^53', () => {
    expect(int8ToBigInt('9223372036854775807')).toBe(9_223_372_036_854_775_807n);
    expect(int8ToBigInt('-9223372036854775808')).toBe(-9_223_372_036_854_775_808n);
    expect(int8ToBigInt('9007199254740993')).toBe(9_007_199_254_740_993n);
    expect(() => int8ToBigInt('1e3')).toThrow(/not an int8/);
  });

  it.each([
    ['int2', 'int32'],
    ['int4', 'int32'],
    ['int8', 'int64'],
    ['bool', 'boolean'],
    ['float8', 'double'],
    ['timestamptz', 'timestamp'],
    ['date', 'date'],
    ['text', 'string'],
    ['varchar', 'string'],
    ['jsonb', 'json'],
    ['json', 'json'],
    ['_text', 'string-list'],
    ['numeric', 'as-text'],
    ['uuid', 'as-text'],
  ])('carries %s as %s', (typeName, kind) => {
    expect(columnKind(typeName)).toBe(kind);
  });

  it('writes JSON as the bytes of PostgreSQL text, arrays as lists, and null as null', () => {
    const text = '{"a": "e\u0301 😀 \u05e9\u05dc\u05d5\u05dd", "n": 9223372036854775807}';
    expect(new TextDecoder().decode(convertValue('json', text) as Uint8Array)).toBe(text);
    expect(convertValue('string-list', '["a",null,"😀"]')).toEqual(['a', null, '😀']);
    expect(convertValue('as-text', '12.3400')).toBe('12.3400');
    for (const kind of ['int64', 'timestamp', 'json', 'string-list'] as const)
      expect(convertValue(kind, null)).toBeNull();
  });
});

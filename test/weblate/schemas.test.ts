import { describe, expect, it } from 'vitest';

import { parseJsonLossless } from '../../src/lib/json.ts';
import { describeIssues, int64 } from '../../src/weblate/schemas.ts';

function problem(value: unknown): string | null {
  const parsed = int64.safeParse(value);
  return parsed.success ? null : describeIssues(parsed.error);
}

describe('int64', () => {
  it('reads every signed 64-bit value exactly, as decimal text', () => {
    const text =
      '[0, -1, 9007199254740991, 9223372036854775807, -9223372036854775808, 1000000000000000000]';
    const values = parseJsonLossless(text).value as unknown[];
    expect(values.map((v) => int64.parse(v))).toEqual([
      '0',
      '-1',
      '9007199254740991',
      '9223372036854775807',
      '-9223372036854775808',
      '1000000000000000000',
    ]);
    expect(int64.parse('0009223372036854775807')).toBe('0009223372036854775807');
  });

  it('refuses values outside the range, fractions, rounded numbers and non-numbers, saying why', () => {
    expect(problem('9223372036854775808')).toMatch(/outside the signed 64-bit range/);
    expect(problem('-9223372036854775809')).toMatch(/outside the signed 64-bit range/);
    expect(problem('12345678901234567890')).toMatch(/outside the signed 64-bit range/);
    expect(problem(1.5)).toMatch(/expected a whole number/);
    expect(problem('1e5')).toMatch(/expected a whole number/);
    expect(problem('')).toMatch(/expected a whole number/);
    expect(problem(null)).toMatch(/expected a whole number/);
    expect(problem(2 ** 60)).toMatch(/beyond 2\^53 that was not read exactly/);
  });
});

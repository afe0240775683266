import { isDeepStrictEqual } from 'node:util';

/** The first position where two row lists differ (or null), so a failure shows one row, not thousands. */
export function firstMismatch(actual: readonly unknown[], expected: readonly unknown[]): unknown {
  const length = Math.max(actual.length, expected.length);
  for (let i = 0; i < length; i++) {
    if (!isDeepStrictEqual(actual[i], expected[i])) {
      return {
        index: i,
        actualLength: actual.length,
        expectedLength: expected.length,
        actual: actual[i],
        expected: expected[i],
      };
    }
  }
  return null;
}

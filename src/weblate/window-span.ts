/**
 * The span of the next window of a walk in windows (ids or microseconds): the span that
 * would have held `pageSize` rows at the density the last window showed (`count` rows over
 * `span`), kept within [span / 4, span × maxGrowth] so that one odd window cannot swing it.
 * `count` must be positive.
 */
export function fittingSpan(
  span: bigint,
  pageSize: number,
  count: number,
  maxGrowth: bigint,
): bigint {
  const fitting = (span * BigInt(pageSize)) / BigInt(count);
  const low = span / 4n > 0n ? span / 4n : 1n;
  const high = span * maxGrowth;
  return fitting < low ? low : fitting > high ? high : fitting;
}

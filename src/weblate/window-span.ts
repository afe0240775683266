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

/**
 * Where to cut the span (low, high] into about `rows / pageSize` pieces of equal span (one
 * when `rows` is unknown, never more than the span has units): the inner bounds, ascending.
 * For the rest of a window that overflowed beside others, whose page said how many rows it
 * left.
 */
export function evenCuts(
  low: bigint,
  high: bigint,
  rows: number | null,
  pageSize: number,
): bigint[] {
  const span = high - low;
  const wanted = rows === null ? 1n : BigInt(Math.max(1, Math.ceil(rows / pageSize)));
  const pieces = wanted < span ? wanted : span > 0n ? span : 1n;
  const cuts: bigint[] = [];
  for (let i = 1n; i < pieces; i++) cuts.push(low + (span * i) / pieces);
  return cuts;
}

/**
 * evenCuts, but no piece wider than `densitySpan`, the span that held a page where the rows
 * were last seen: the rows of a window that overflowed may all lie just past its page, before
 * a gap, and equal pieces would put them all in the first. The last piece reaches `high`.
 */
export function densityCuts(
  low: bigint,
  high: bigint,
  rows: number | null,
  pageSize: number,
  densitySpan: bigint,
): bigint[] {
  const even = evenCuts(low, high, rows, pageSize);
  const pieces = BigInt(even.length + 1);
  if ((high - low) / pieces <= densitySpan) return even;
  return even.map((_, i) => low + densitySpan * BigInt(i + 1));
}

/**
 * Whether a walk expecting `expected` rows in all, `seen` of them read, has more than two
 * pages left beyond what `inFlight` windows of a page each should hold: room for another
 * window beside them.
 */
export function leavesRoomBeside(
  expected: number,
  seen: number,
  inFlight: number,
  pageSize: number,
): boolean {
  return expected - seen - inFlight * pageSize > 2 * pageSize;
}

import { createRng } from '../../src/simulator/prng.ts';
import { sparseClusteredIds } from '../../src/simulator/unit-ids.ts';
import type { IdHints } from '../../src/weblate/id-hints.ts';
import { type KeysetOptions, type KeysetPage, WindowPlan } from '../../src/weblate/keyset.ts';

/** What walking an id list with a WindowPlan cost a fake unit list. */
export interface IdWalk {
  requests: number;
  /** Rows the list counted: every id each request's range matched, as Weblate's COUNT does. */
  counted: number;
  /** Rows its pages served. */
  served: number;
  /** The range each page covered, (after, through], through null: to the end. */
  covered: { after: bigint; through: bigint | null }[];
  /** Ids served, in the order the pages arrived. */
  ids: bigint[];
}

/** The first index of ascending `ids` whose id is above `after`. */
function above(ids: readonly bigint[], after: bigint): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((ids[mid] as bigint) <= after) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Walks ascending `ids` as a full unit walk does (WindowPlan with windows), against a fake
 * list in memory: a request for (after, upTo] counts every id in it and serves the first
 * page of them. Up to `concurrency` ranges are out at once, answered oldest first; pages
 * come back quickly, so they grow as on a quick server.
 */
export function walkIds(
  ids: readonly bigint[],
  {
    pageSize = 1000,
    concurrency = 4,
    expected = ids.length,
    hints = null,
  }: {
    pageSize?: number;
    concurrency?: number;
    expected?: number | null;
    hints?: IdHints | null;
  } = {},
): IdWalk {
  const options: KeysetOptions = {
    resource: 'units',
    pageSize,
    q: null,
    after: null,
    windows: { expected, concurrency, hints },
  };
  const client = {
    resolve: (target: string | URL) => new URL(target, 'http://weblate.test/api/'),
    timeoutMs: 60_000,
  };
  const plan = new WindowPlan(client, 'units/', options);
  const walk: IdWalk = { requests: 0, counted: 0, served: 0, covered: [], ids: [] };
  const out: NonNullable<ReturnType<WindowPlan['next']>>[] = [];
  for (;;) {
    for (let range = plan.next(out.length); range !== null; range = plan.next(out.length)) {
      out.push(range);
    }
    const range = out.shift();
    if (range === undefined) return walk;
    if (++walk.requests > 10 * ids.length + 1000) throw new Error('the walk does not end');
    const after = range.after === null ? 0n : BigInt(range.after);
    const from = above(ids, after);
    const to = range.upTo === null ? ids.length : above(ids, BigInt(range.upTo));
    const size = plan.pageSize;
    const served = ids.slice(from, Math.min(to, from + size));
    const through = to - from > size ? String(served.at(-1)) : range.upTo;
    walk.counted += to - from;
    walk.served += served.length;
    walk.ids.push(...served);
    walk.covered.push({ after, through: through === null ? null : BigInt(through) });
    const page: KeysetPage = {
      url: 'fake',
      results: [],
      resultTexts: [],
      ids: served.map(String),
      after: range.after,
      through,
      count: to - from,
      textLength: served.length * 100,
      pageSize: size,
      askedSize: size,
      elapsedMs: 1 + served.length / 1000,
    };
    plan.learn(range, page);
  }
}

/** `count` ids from `from`, `step` apart. */
export const run = (from: number, count: number, step = 1): bigint[] =>
  Array.from({ length: count }, (_, i) => BigInt(from + i * step));

/** Dense ids with the gaps deleted strings (a few ids) and deleted components (thousands) leave. */
export function withDeletedComponents(seed: number, count: number): bigint[] {
  const rng = createRng(seed);
  const ids: bigint[] = [];
  for (let id = 0; ids.length < count; ids.push(BigInt(id))) {
    id += rng.chance(0.001) ? rng.int(1_000, 30_000) : rng.chance(0.01) ? rng.int(2, 4) : 1;
  }
  return ids;
}

/** One cluster whose ids run dense, then sparse for a stretch (every 3rd to 60th id), by turns. */
export function withSparseStretches(seed: number, count: number): bigint[] {
  const rng = createRng(seed);
  const ids: bigint[] = [];
  let id = 1_000;
  while (ids.length < count) {
    const step = rng.chance(0.4) ? rng.int(3, 60) : 1;
    for (let n = rng.int(200, 20_000); n > 0 && ids.length < count; n--)
      ids.push(BigInt((id += step)));
  }
  return ids;
}

/** The simulator's sparse-clustered layout (simulator/unit-ids.ts), from its lowest id or moved to start at 1. */
export function sparseClustered(
  seed: number,
  count: number,
  { fromOne }: { fromOne: boolean },
): bigint[] {
  const ids = [...sparseClusteredIds(seed, count)].slice(1).map((id) => BigInt(id));
  const shift = fromOne ? (ids[0] as bigint) - 1n : 0n;
  return ids.map((id) => id - shift);
}

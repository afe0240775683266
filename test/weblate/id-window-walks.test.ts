import { describe, expect, it } from 'vitest';

import { createRng } from '../../src/simulator/prng.ts';
import { IdHints } from '../../src/weblate/id-hints.ts';
import {
  run,
  sparseClustered,
  walkIds,
  withDeletedComponents,
  withSparseStretches,
} from '../helpers/id-walk.ts';

const PAGE = 10_000;

interface Case {
  name: string;
  ids: bigint[];
  /** The most rows the walk may count per row served. */
  ratio: number;
  /** The most requests it may take. */
  requests: number;
}

/**
 * Where ids are dense, have holes of thousands or sparse stretches, the windows count little
 * more than they serve. Across a gap of millions nothing tells where the next cluster starts:
 * the window that finds it spans about as much as the walk crossed, so it counts the cluster
 * (a page of it served) before the cluster is read, and a cluster larger than a page is
 * counted about twice; a first cluster millions of ids up makes the first window count every
 * row. Requests: about one a page, more in sparse stretches (a window spans at most two pages
 * of ids at the densest seen), and up to GAP_WINDOWS (16) empty ones per gap of millions.
 */
const CASES: Case[] = [
  { name: 'dense ids', ids: run(1, 200_000), ratio: 1.5, requests: 64 },
  {
    name: 'dense ids, a gap of millions, dense ids',
    ids: [...run(1, 100_000), ...run(5_000_000, 100_000)],
    ratio: 1.5,
    requests: 60,
  },
  {
    name: 'dense ids from id 5,000,000',
    ids: run(5_000_000, 150_000),
    ratio: 2,
    requests: 40,
  },
  {
    name: 'holes of deleted components',
    ids: withDeletedComponents(3, 200_000),
    ratio: 1.5,
    requests: 200,
  },
  {
    name: 'sparse stretches in a cluster',
    ids: withSparseStretches(5, 200_000),
    ratio: 1.5,
    requests: 560,
  },
  {
    name: 'dense, sparse stretches, dense (mixed)',
    ids: [
      ...run(1, 30_000),
      ...run(40_001, 5_000, 37),
      ...run(300_000, 5_000, 9),
      ...run(410_001, 60_000),
    ],
    ratio: 1.5,
    requests: 100,
  },
  {
    name: 'sparse-clustered ids moved to start at 1',
    ids: sparseClustered(7, 200_000, { fromOne: true }),
    ratio: 2,
    requests: 125,
  },
  {
    name: 'sparse-clustered ids (seed 2) moved to start at 1',
    ids: sparseClustered(2, 200_000, { fromOne: true }),
    ratio: 2,
    requests: 245,
  },
  {
    name: 'sparse-clustered ids past 2^31',
    ids: sparseClustered(7, 200_000, { fromOne: false }),
    ratio: 3,
    requests: 126,
  },
];

describe('a full unit walk by id windows against an id list in memory', () => {
  it.each(CASES)('$name: counts at most $ratio rows per row served', ({ ids, ratio }) => {
    const walk = walkIds(ids, { pageSize: PAGE });
    expect(walk.counted / walk.served).toBeLessThanOrEqual(ratio);
  });

  it.each(CASES)('$name: takes at most $requests requests', ({ ids, requests }) => {
    expect(walkIds(ids, { pageSize: PAGE }).requests).toBeLessThanOrEqual(requests);
  });

  it.each(CASES)(
    '$name: serves every id once, its pages covering the ids without gap or overlap',
    ({ ids }) => {
      const walk = walkIds(ids, { pageSize: PAGE });
      const served = BigInt64Array.from(walk.ids).sort();
      expect(served.length).toBe(ids.length);
      expect(served.every((id, i) => id === ids[i])).toBe(true);
      const ranges = [...walk.covered].sort((a, b) => (a.after < b.after ? -1 : 1));
      let end: bigint | null = 0n;
      for (const { after, through } of ranges) {
        expect(after).toBe(end);
        end = through;
      }
      // The last range reaches past every id.
      expect(end).toBeNull();
    },
  );
});

/**
 * With the unit ids a change history names as hints (a share of the ids, drawn at random), a
 * walk crossing a gap ends its next window a page past the next hinted id: the window that
 * finds a cluster holds about a page of it, not all of it.
 */
describe('a full unit walk told some of the ids ahead (IdHints)', () => {
  const hinted = (ids: readonly bigint[], share: number, seed = 11) => {
    const rng = createRng(seed);
    const hints = new IdHints();
    hints.add(ids.filter(() => rng.chance(share)));
    return hints;
  };
  const SHARES = [0.001, 0.01, 0.1];
  const WITH_HINTS = CASES.flatMap((c) => SHARES.map((share) => ({ ...c, share })));

  it.each(WITH_HINTS)(
    '$name, $share of the ids hinted: counts at most 1.5 rows per row served',
    ({ ids, share }) => {
      const walk = walkIds(ids, { pageSize: PAGE, hints: hinted(ids, share) });
      expect(walk.counted / walk.served).toBeLessThanOrEqual(1.5);
    },
  );

  it.each(WITH_HINTS)(
    '$name, $share of the ids hinted: takes at most 1.25 × the requests allowed unhinted',
    ({ ids, share, requests }) => {
      const walk = walkIds(ids, { pageSize: PAGE, hints: hinted(ids, share) });
      expect(walk.requests).toBeLessThanOrEqual(Math.ceil(1.25 * requests));
    },
  );

  it('hints where no id is (units deleted since they were named) cover every id still', () => {
    const ids = sparseClustered(7, 200_000, { fromOne: false });
    const hints = hinted(ids, 0.01);
    // Stale hints: in every gap, and below the first id.
    hints.add(ids.slice(1).map((id, i) => (id + (ids[i] as bigint)) / 2n));
    hints.add([1n, 1000n, 2n ** 31n]);
    const walk = walkIds(ids, { pageSize: PAGE, hints });
    const served = BigInt64Array.from(walk.ids).sort();
    expect(served.length).toBe(ids.length);
    expect(served.every((id, i) => id === ids[i])).toBe(true);
  });

  it('merges batches in any order into one sorted, distinct set, and caps its size', () => {
    const rng = createRng(5);
    const hints = new IdHints();
    const all = new Set<bigint>();
    for (let batch = 0; batch < 20; batch++) {
      const ids = Array.from({ length: 500 }, () => BigInt(rng.int(1, 20_000)));
      ids.forEach((id) => all.add(id));
      hints.add(ids);
      // Asked between batches, as the walk asks while change pages arrive.
      expect(hints.above(null)).toBe([...all].reduce((a, b) => (a < b ? a : b)));
    }
    const walked: bigint[] = [];
    for (let id = hints.above(null); id !== null; id = hints.above(id)) walked.push(id);
    expect(walked).toEqual([...all].sort((a, b) => (a < b ? -1 : 1)));
    const many = new IdHints();
    many.add(Array.from({ length: 1_500_000 }, (_, i) => i + 1));
    expect(many.size).toBeLessThanOrEqual(1_000_000);
    expect(many.above(null)).toBe(1n);
  });

  it('keeps hints sorted and distinct, and ignores what cannot be an id', () => {
    const hints = new IdHints();
    hints.add(['30', 10, 20n, '20', null, -5, 1.5, 'x', '99999999999999999999']);
    expect(hints.size).toBe(3);
    expect(hints.above(null)).toBe(10n);
    expect(hints.above(10n)).toBe(20n);
    expect(hints.above(20n)).toBe(30n);
    expect(hints.above(30n)).toBeNull();
  });
});

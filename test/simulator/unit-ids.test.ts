import { describe, expect, it } from 'vitest';

import { generateInstance, sparseClusteredIds } from '../../src/simulator/index.ts';

describe('the sparse-clustered unit id layout', () => {
  const ids = [...sparseClusteredIds(7, 200_000)].slice(1);
  const steps = ids.slice(1).map((id, i) => id - (ids[i] as number));
  /** Rows per cluster: runs of ids less than a million apart. */
  const clusters = steps.reduce(
    (sizes, step) =>
      step > 1_000_000 ? [...sizes, 1] : [...sizes.slice(0, -1), sizes.at(-1)! + 1],
    [1],
  );

  it('is the same for a seed, ascending, past 2^31 and below 2^53', () => {
    expect([...sparseClusteredIds(7, 200_000)].slice(1)).toEqual(ids);
    expect(steps.every((step) => step > 0)).toBe(true);
    expect(ids[0]).toBeGreaterThan(2 ** 31);
    expect(Number.isSafeInteger(ids.at(-1))).toBe(true);
  });

  it('has clusters of a few rows and of many pages, millions of ids apart, with sparse stretches', () => {
    expect(Math.min(...clusters)).toBeLessThan(50);
    expect(Math.max(...clusters)).toBeGreaterThan(50_000);
    expect(steps.filter((step) => step >= 1_000_000).length).toBeGreaterThan(10);
    // Inside clusters, mostly consecutive ids and some stretches every 3rd to 60th id.
    const inside = steps.filter((step) => step < 1_000_000);
    expect(inside.filter((step) => step === 1).length / inside.length).toBeGreaterThan(0.5);
    expect(inside.filter((step) => step >= 3 && step <= 60).length).toBeGreaterThan(1000);
  });

  it('renumbers the units of an instance and leaves everything else as the dense layout has it', () => {
    const size = {
      seed: 3,
      projects: 2,
      components: 4,
      languages: 3,
      units: 2000,
      changes: 300,
      users: 1,
    };
    const dense = generateInstance(size);
    const sparse = generateInstance({ ...size, unitIds: 'sparse-clustered' });
    // Removed units' changes stay in the log: every dense id has its place in the layout.
    const layout = sparseClusteredIds(size.seed, 10_000);
    const renumbered = (id: number | null) => (id === null ? null : layout[id]);
    expect(sparse.units.map((u) => ({ ...u, id: 0, sourceUnitId: 0 }))).toEqual(
      dense.units.map((u) => ({ ...u, id: 0, sourceUnitId: 0 })),
    );
    expect(sparse.units.map((u) => [u.id, u.sourceUnitId])).toEqual(
      dense.units.map((u) => [renumbered(u.id), renumbered(u.sourceUnitId)]),
    );
    expect(sparse.changes.map((c) => c.unitId)).toEqual(
      dense.changes.map((c) => renumbered(c.unitId)),
    );
    expect(sparse.history.moves.map((m) => m.unitId)).toEqual(
      dense.history.moves.map((m) => renumbered(m.unitId)),
    );
  });
});

/**
 * How unit ids are laid out over the id space. `dense`: ids count up from 1 with the odd gap
 * of a deleted unit (generate-units.ts). `sparse-clustered`: the same units renumbered as a
 * long-lived Weblate numbers them, in clusters (one per bulk import, from a few rows to many
 * pages) millions of ids apart, past 2^31, dense inside with some sparse stretches, so that
 * a walk by id windows meets what smooth ids never show it.
 */
import type { SimChange, SimStateMove, SimUnit } from './model.ts';
import { createRng, type Rng } from './prng.ts';

export type UnitIdLayout = 'dense' | 'sparse-clustered';

/** Where the first cluster starts: ids past 2^31, as on an instance with a long history. */
const FIRST_ID = 2 ** 31 + 1_000_000;

/** Cluster sizes in rows, by relative weight: a few strings, a component, a bulk import. */
const CLUSTER_SIZES: readonly (readonly [[number, number], number])[] = [
  [[1, 40], 4],
  [[200, 3_000], 4],
  [[5_000, 40_000], 2],
  [[60_000, 150_000], 0.5],
];

/**
 * The id each dense id (1..maxDenseId) gets in the sparse-clustered layout: strictly
 * ascending, seeded by `seed` alone (its own PRNG, so the rest of the instance is unchanged).
 */
export function sparseClusteredIds(seed: number, maxDenseId: number): Float64Array {
  const rng = createRng(seed ^ 0x5eed1d5);
  const ids = new Float64Array(maxDenseId + 1);
  let id = FIRST_ID;
  let clusterLeft = 0;
  let stretchLeft = 0;
  let stride = 1;
  for (let dense = 1; dense <= maxDenseId; dense += 1) {
    if (clusterLeft === 0) {
      clusterLeft = clusterSize(rng);
      stretchLeft = 0;
      id += rng.int(1_000_000, 40_000_000);
    }
    if (stretchLeft === 0) ({ stretchLeft, stride } = nextStretch(rng));
    id += stride;
    ids[dense] = id;
    clusterLeft -= 1;
    stretchLeft -= 1;
  }
  return ids;
}

function clusterSize(rng: Rng): number {
  const [low, high] = rng.weighted(CLUSTER_SIZES);
  return rng.int(low, high);
}

/** A run of consecutive ids inside a cluster, or now and then a sparse stretch. */
function nextStretch(rng: Rng): { stretchLeft: number; stride: number } {
  return rng.chance(0.2)
    ? { stretchLeft: rng.int(100, 3_000), stride: rng.int(3, 60) }
    : { stretchLeft: rng.int(500, 20_000), stride: rng.chance(0.1) ? 2 : 1 };
}

/** Renumbers the generated units (and what names them) by `layout`; `dense` leaves them be. */
export function layUnitIds(
  layout: UnitIdLayout,
  seed: number,
  data: { units: SimUnit[]; changes: SimChange[]; moves: SimStateMove[] },
): void {
  if (layout === 'dense') return;
  const maxDense = Math.max(
    data.units.reduce((max, u) => Math.max(max, u.id, u.sourceUnitId), 0),
    data.changes.reduce((max, c) => Math.max(max, c.unitId ?? 0), 0),
    data.moves.reduce((max, m) => Math.max(max, m.unitId), 0),
  );
  const ids = sparseClusteredIds(seed, maxDense);
  const to = (dense: number) => ids[dense] as number;
  for (const unit of data.units) {
    unit.id = to(unit.id);
    unit.sourceUnitId = to(unit.sourceUnitId);
  }
  for (const change of data.changes) if (change.unitId !== null) change.unitId = to(change.unitId);
  for (const move of data.moves) move.unitId = to(move.unitId);
}

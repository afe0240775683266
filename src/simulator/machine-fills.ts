import type { RunningSimulator } from './index.ts';

/** Strings filled in each translation chosen. */
const FILLS_PER_TRANSLATION = 6;

/**
 * Automatic translation in a simulated instance, and what people do with it: six empty
 * strings of a translation filled automatically, then two edited by a person, one approved
 * as it stands and three left alone; in the first `translations` translations that have six
 * empty strings (one: the demo's and the tests'; many: the benchmark's large shape). Returns
 * the units filled.
 */
export function fillAutomatically(
  sim: Pick<RunningSimulator, 'instance' | 'mutate'>,
  translations = 1,
): number[] {
  const { instance } = sim;
  const empty = new Map<number, number[]>();
  for (const unit of instance.units) {
    if (unit.state !== 0) continue;
    const ids = empty.get(unit.translationId) ?? [];
    ids.push(unit.id);
    empty.set(unit.translationId, ids);
  }
  // An instance without six empty strings in one translation (a tiny one) gets none.
  const chosen = instance.translations
    .filter((t) => !t.isSource && (empty.get(t.id)?.length ?? 0) >= FILLS_PER_TRANSLATION)
    .slice(0, translations)
    .map((t) => (empty.get(t.id) ?? []).slice(0, FILLS_PER_TRANSLATION));
  if (chosen.length === 0) return [];
  const pick = (from: number, to: number) => chosen.flatMap((units) => units.slice(from, to));
  sim.mutate.editUnits(chosen.flat(), {
    automatic: true,
    state: 10,
    target: 'Maschinelle Übersetzung',
  });
  sim.mutate.editUnits(pick(0, 2), { target: 'Übersetzung von Hand' });
  sim.mutate.editUnits(pick(2, 3), { target: 'Maschinelle Übersetzung', state: 30 });
  return chosen.flat();
}

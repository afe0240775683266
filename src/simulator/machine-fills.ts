import type { RunningSimulator } from './index.ts';

/**
 * Automatic translation in a simulated instance, and what people do with it: six empty
 * strings of one translation filled automatically, then two edited by a person, one
 * approved as it stands and three left alone (the demo's, and the tests'). Returns the units
 * filled.
 */
export function fillAutomatically(sim: RunningSimulator): number[] {
  const { instance } = sim;
  const translation = instance.translations.find(
    (t) =>
      !t.isSource &&
      instance.units.filter((u) => u.translationId === t.id && u.state === 0).length >= 6,
  );
  // An instance without six empty strings in one translation (a tiny one) gets none.
  if (translation === undefined) return [];
  const units = instance.units
    .filter((u) => u.translationId === translation.id && u.state === 0)
    .slice(0, 6)
    .map((u) => u.id);
  sim.mutate.editUnits(units, { automatic: true, state: 10, target: 'Maschinelle Übersetzung' });
  sim.mutate.editUnits(units.slice(0, 2), { target: 'Übersetzung von Hand' });
  sim.mutate.editUnits(units.slice(2, 3), { target: 'Maschinelle Übersetzung', state: 30 });
  return units;
}

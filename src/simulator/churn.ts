/**
 * Steady upstream activity for a running simulator: every tick, some translated strings are
 * edited (each edit records a change, as Weblate does) and one string is added to a
 * component, so a mirror syncing on a schedule always has something to pick up.
 */
import type { SimInstance } from './model.ts';
import type { Mutator } from './mutations.ts';
import { createRng } from './prng.ts';

export interface ChurnOptions {
  /** Strings edited per tick. */
  edits: number;
  /** Seconds between ticks. */
  everySeconds: number;
  /** Seed of the choices (default 1). */
  seed?: number;
}

export interface ChurnTick {
  edited: number;
  added: number;
}

/** Applies one tick now and returns a function that applies the next. */
export function churnTicker(
  instance: SimInstance,
  mutate: Mutator,
  options: Pick<ChurnOptions, 'edits' | 'seed'>,
): () => ChurnTick {
  const rng = createRng(options.seed ?? 1);
  return () => {
    const editable = instance.units.filter(
      (unit) => instance.index.translationById.get(unit.translationId)?.isSource === false,
    );
    const chosen = rng.shuffled(editable).slice(0, options.edits);
    if (chosen.length > 0) mutate.editUnits(chosen.map((unit) => unit.id));
    const component = instance.components.length > 0 ? rng.pick(instance.components) : null;
    if (component !== null) mutate.addUnits(component.id, 1);
    return { edited: chosen.length, added: component === null ? 0 : 1 };
  };
}

/** Runs a tick every `everySeconds` until stopped; `onTick` hears what each did. */
export function startChurn(
  instance: SimInstance,
  mutate: Mutator,
  options: ChurnOptions,
  onTick: (tick: ChurnTick) => void = () => undefined,
): { stop(): void } {
  const tick = churnTicker(instance, mutate, options);
  const timer = setInterval(() => onTick(tick()), options.everySeconds * 1000);
  return { stop: () => clearInterval(timer) };
}

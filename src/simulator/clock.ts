import type { Rng } from './prng.ts';
import { formatInstant, MICROS_PER_DAY } from './time.ts';

/** Changes happen between this instant and TIMELINE_DAYS later; strings are created before. */
export const TIMELINE_START_US = Date.UTC(2024, 0, 1) * 1000;
export const TIMELINE_DAYS = 540;
export const TIMELINE_SPAN_US = TIMELINE_DAYS * MICROS_PER_DAY;

/**
 * UTC offsets in minutes. A real server uses one TIME_ZONE, but a mirror must parse any
 * offset DRF can write, including half- and quarter-hour ones; null means `Z`.
 */
const OFFSETS: readonly number[] = [120, 60, -300, 330, -180, 540, -420, 345];

/** A fixed choice among `Z` and the offsets, for data made after generation (mutations). */
export function offsetFor(key: number): number | null {
  const index = ((key % (OFFSETS.length + 1)) + OFFSETS.length + 1) % (OFFSETS.length + 1);
  return index === OFFSETS.length ? null : (OFFSETS[index] ?? null);
}

/** About a third `Z`, the rest with an offset. */
export function pickOffset(rng: Rng): number | null {
  return rng.chance(1 / 3) ? null : rng.pick(OFFSETS);
}

export function formatRandomOffset(rng: Rng, micros: number): string {
  return formatInstant(micros, pickOffset(rng));
}

/** 40 lowercase hex digits, like a git commit id. */
export function randomRevision(rng: Rng): string {
  let text = '';
  for (let i = 0; i < 5; i += 1) text += rng.int(0, 0xffffffff).toString(16).padStart(8, '0');
  return text;
}

// The webhook ids accepted lately, so that a delivery seen twice is not queued again; each is
// kept until its timestamp runs out, and at most `maxIds` (docs/internals.md#replay-memory).

export const DEFAULT_MAX_REMEMBERED_IDS = 100_000;

export interface ReplayMemory {
  /** Whether `id` was remembered and its timestamp has not yet run out at `nowMs`. */
  has(id: string, nowMs: number): boolean;
  /** Remembers `id` until `expiresAtMs`; forgets what has run out and the oldest beyond the bound. */
  remember(id: string, expiresAtMs: number, nowMs: number): void;
  /** How many ids are held. */
  size(): number;
}

export function createReplayMemory(maxIds = DEFAULT_MAX_REMEMBERED_IDS): ReplayMemory {
  if (!Number.isInteger(maxIds) || maxIds < 1) throw new RangeError('maxIds must be at least 1');
  // Insertion order is about expiry order (timestamps stay within the tolerance of the clock),
  // so pruning from the front finds what ran out; an entry that lives longer delays the
  // pruning of those behind it by at most the tolerance, and the count bound holds regardless.
  const expiries = new Map<string, number>();
  return {
    has(id, nowMs) {
      const expiresAt = expiries.get(id);
      if (expiresAt === undefined) return false;
      if (expiresAt > nowMs) return true;
      expiries.delete(id);
      return false;
    },
    remember(id, expiresAtMs, nowMs) {
      expiries.delete(id);
      expiries.set(id, expiresAtMs);
      for (const [oldest, expiresAt] of expiries) {
        if (expiresAt > nowMs && expiries.size <= maxIds) break;
        expiries.delete(oldest);
      }
    },
    size: () => expiries.size,
  };
}

import pLimit, { type LimitFunction } from 'p-limit';

import { sleep } from '../lib/sleep.ts';

export interface RateGateOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Requests started per second; 0 for no limit of our own. */
  maxRps: number;
  now?: () => number;
}

/**
 * The one gate every request to Weblate passes: a concurrency cap, an optional request
 * rate, and a shared pause. A 429's Retry-After (or an exhausted X-RateLimit budget)
 * pauses every worker, not just the one that met it.
 */
export class RateGate {
  readonly concurrency: number;
  readonly #limit: LimitFunction;
  readonly #intervalMs: number;
  readonly #now: () => number;
  #nextStartAt = 0;
  #pausedUntil = 0;

  constructor(options: RateGateOptions) {
    this.concurrency = options.concurrency;
    this.#limit = pLimit(options.concurrency);
    this.#intervalMs = options.maxRps > 0 ? 1000 / options.maxRps : 0;
    this.#now = options.now ?? Date.now;
  }

  /** Runs `task` when a slot is free, the pause is over and the rate allows it. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.#limit(async () => {
      await this.#waitTurn(signal);
      return task();
    });
  }

  /** Holds every request back until `untilMs` (epoch milliseconds). */
  pauseUntil(untilMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, untilMs);
  }

  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  async #waitTurn(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.#now();
      const startAt = Math.max(this.#pausedUntil, this.#nextStartAt);
      if (startAt <= now) {
        this.#nextStartAt = now + this.#intervalMs;
        return;
      }
      await sleep(startAt - now, signal);
    }
  }
}

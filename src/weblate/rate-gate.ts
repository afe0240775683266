import pLimit, { type LimitFunction } from 'p-limit';

import { sleep } from '../lib/sleep.ts';

export interface RateGateOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Requests started per second; 0 for no limit of our own. */
  maxRps: number;
  /** Longest pause the gate accepts before giving up (the run ends; the next one resumes). */
  maxWaitMs?: number;
  now?: () => number;
}

/** The server's rate budget is spent and refilling it takes longer than the run may wait. */
export class BudgetExhaustedError extends Error {
  override name = 'BudgetExhaustedError';
  readonly waitMs: number;
  constructor(waitMs: number) {
    super(
      `the server's rate limit budget is spent and frees up only in ${Math.ceil(waitMs / 1000)} s, longer than ` +
        'WEBLATE_MAX_WAIT_SECONDS; what was synced is kept and the next run continues from there',
    );
    this.waitMs = waitMs;
  }
}

/**
 * The one gate every request to Weblate passes: a concurrency cap, an optional request
 * rate, a shared pause (a 429's Retry-After stops every worker, not just the one that met
 * it) and pacing by the server's advertised budget: X-RateLimit-Remaining minus the
 * requests still in flight, lowered as requests start. When it reaches zero, requests wait
 * for X-RateLimit-Reset and then send a single probe, so a sync that fits the budget never
 * meets a 429.
 */
export class RateGate {
  readonly concurrency: number;
  readonly #limit: LimitFunction;
  readonly #intervalMs: number;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  #nextStartAt = 0;
  #pausedUntil = 0;
  /** Requests started and finished so far: the difference is those in flight. */
  #started = 0;
  #finished = 0;
  /** The start order of the request whose answer set the budget (see noteBudget). */
  #notedAs = 0;
  /** Requests the server's budget still allows; null when the server sends no budget. */
  #budget: number | null = null;
  #budgetResetAt = 0;

  constructor(options: RateGateOptions) {
    this.concurrency = options.concurrency;
    this.#limit = pLimit(options.concurrency);
    this.#intervalMs = options.maxRps > 0 ? 1000 / options.maxRps : 0;
    this.#maxWaitMs = options.maxWaitMs ?? 15 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Runs `task` when a slot is free, no pause holds, the rate allows it and the budget has
   * room. The task receives its place in the order requests started (for noteBudget).
   */
  run<T>(task: (startedAs: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.#limit(async () => {
      await this.#waitTurn(signal);
      const startedAs = ++this.#started;
      try {
        return await task(startedAs);
      } finally {
        this.#finished++;
      }
    });
  }

  /** Holds every request back until `untilMs` (epoch milliseconds). */
  pauseUntil(untilMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, untilMs);
  }

  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  /**
   * Requests the server's advertised budget still allows until it resets (minus those in
   * flight), or null when the server sent no budget or its reset time has passed.
   */
  get budgetRemaining(): number | null {
    if (this.#budget === null || this.#budgetResetAt <= this.#now()) return null;
    return Math.max(0, this.#budget);
  }

  /**
   * Records the budget the answer to the request `startedAs` (see run) advertised; call it
   * while that request still counts as in flight. Weblate truncates X-RateLimit-Reset to whole seconds (DRF's window, int()), so a
   * whole number may mean up to a second more: the wait covers it. Fractional values are
   * taken as they come.
   */
  noteBudget(remaining: number, resetSeconds: number, startedAs: number): void {
    // Answers overtake each other: one to a request that started before the request of the
    // last budget noted was counted by the server earlier, and its budget is stale.
    if (startedAs < this.#notedAs) return;
    this.#notedAs = startedAs;
    const truncation = Number.isInteger(resetSeconds) ? 1 : 0;
    // The requests started after this one were not counted in its answer.
    this.#budget = remaining - (this.#started - startedAs);
    this.#budgetResetAt = this.#now() + (resetSeconds + truncation) * 1000;
  }

  async #waitTurn(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.#now();
      let startAt = Math.max(this.#pausedUntil, this.#nextStartAt);
      if (this.#budget !== null && this.#budget <= 0) {
        // Spent: wait for the reset, then let one request through to learn the new budget.
        if (this.#budgetResetAt <= now && this.#started === this.#finished) this.#budget = 1;
        else startAt = Math.max(startAt, this.#budgetResetAt, now + 50);
      }
      if (startAt <= now) {
        this.#nextStartAt = now + this.#intervalMs;
        if (this.#budget !== null) this.#budget--;
        return;
      }
      if (startAt - now > this.#maxWaitMs) throw new BudgetExhaustedError(startAt - now);
      await sleep(Math.min(startAt - now, 1000), signal);
    }
  }
}

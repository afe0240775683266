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

/** Where a request stands among those the gate let through (see RateGate.noteBudget). */
export interface GateTicket {
  /** Its place in the order requests started, from 1. */
  startedAs: number;
  /** No other request was in flight when it started. */
  startedAlone: boolean;
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
  #inFlight = 0;
  /** Requests started so far (see GateTicket). */
  #started = 0;
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
   * room. The task gets its ticket, for noteBudget.
   */
  run<T>(task: (ticket: GateTicket) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.#limit(async () => {
      await this.#waitTurn(signal);
      const ticket = { startedAs: ++this.#started, startedAlone: this.#inFlight === 0 };
      this.#inFlight++;
      try {
        return await task(ticket);
      } finally {
        this.#inFlight--;
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
   * Records the budget the answer to `ticket` (see run) advertised; call it while that request
   * still counts as in flight. Only some answers may raise it (docs/internals.md#rate-budget).
   */
  noteBudget(remaining: number, resetSeconds: number, ticket: GateTicket): void {
    const now = this.#now();
    const truncation = Number.isInteger(resetSeconds) ? 1 : 0;
    const resetAt = now + (resetSeconds + truncation) * 1000;
    const isExact = ticket.startedAlone && ticket.startedAs === this.#started;
    const budget = remaining - (this.#inFlight - 1);
    if (isExact || this.#budget === null || budget <= this.#budget) {
      // Of two resets for one budget, the later: waiting too long costs a moment, too little a 429.
      const keepsReset = !isExact && this.#budget !== null && this.#budgetResetAt > now;
      this.#budgetResetAt = keepsReset ? Math.max(this.#budgetResetAt, resetAt) : resetAt;
      this.#budget = budget;
    }
  }

  /** The server advertises no budget any more: requests go as concurrency and rate allow. */
  forgetBudget(): void {
    this.#budget = null;
  }

  async #waitTurn(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.#now();
      let startAt = Math.max(this.#pausedUntil, this.#nextStartAt);
      if (this.#budget !== null && this.#budget <= 0) {
        // Spent: wait for the reset, then let one request through to learn the new budget.
        if (this.#budgetResetAt <= now && this.#inFlight === 0) this.#budget = 1;
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

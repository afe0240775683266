import { logFailure, type Logger } from '../logger.ts';

/** What the coalescer needs of an accepted event (see event.ts). */
export interface CoalescedEvent {
  /** The project the event named (slug), or null: it named none. */
  project: string | null;
  /** When the change happened upstream (ISO 8601), for the freshness lag; null if not said. */
  timestamp: string | null;
  /** When the event arrived (epoch ms): the lag's start when the change's time is unknown. */
  receivedAt: number;
}

/** The events one sync covers. */
export interface Batch {
  events: number;
  /** Projects named; null when some event named none (every project in scope). */
  projects: ReadonlySet<string> | null;
}

/**
 * How a batch's sync ended: `succeeded` (committed), `failed` (tried again after a pause,
 * then left to the schedule), `skipped` with `retry` (it could not start, e.g. another
 * process holds its lock: tried again after the debounce) or without (nothing to do now:
 * no sync has succeeded yet, or the worker is stopping; the scheduled syncs cover it).
 */
export type BatchOutcome =
  { status: 'succeeded' } | { status: 'failed' } | { status: 'skipped'; retry: boolean };

export interface CoalescerMetrics {
  observeLag(seconds: number): void;
  setQueued(events: number): void;
  recordSync(status: BatchOutcome['status']): void;
}

export interface CoalescerOptions {
  /** How long after a batch's first event its sync starts (WEBHOOK_DEBOUNCE_SECONDS). */
  debounceMs: number;
  /** Events held at most; beyond, `accept` refuses (the receiver answers 429). */
  maxQueued: number;
  /** Runs one sync of a batch; never throws (a thrown error counts as `failed`). */
  sync(batch: Batch): Promise<BatchOutcome>;
  metrics: CoalescerMetrics;
  log: Logger;
  /** Epoch milliseconds (default Date.now). */
  now?: () => number;
}

/** Failed syncs in a row after which a batch is left to the scheduled syncs. */
const MAX_FAILURES = 3;
/** The longest pause after a failed sync. */
const MAX_BACKOFF_MS = 60_000;

/**
 * Turns webhook events into as few syncs as the debounce allows: a batch's sync starts
 * `debounceMs` after its first event (not after its last, so steady edits cannot postpone
 * it for ever), at most one runs at a time, and events arriving meanwhile form the next
 * batch. Memory is bounded by `maxQueued` events, each reduced to its project and time.
 */
export class Coalescer {
  readonly #options: CoalescerOptions;
  readonly #now: () => number;
  /** Upstream times (epoch ms) of the queued events, and the projects they named. */
  #times: number[] = [];
  #projects = new Set<string>();
  #namesAll = false;
  /** When the first queued event arrived (epoch ms), or null with none queued. */
  #firstArrival: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #failures = 0;
  #stopped = false;

  constructor(options: CoalescerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Events waiting for a sync (not those of a sync running). */
  get queued(): number {
    return this.#times.length;
  }

  /** Queues an event; false when the queue is full or the coalescer stopped. */
  accept(event: CoalescedEvent): boolean {
    if (this.#stopped || this.#times.length >= this.#options.maxQueued) return false;
    const upstream = event.timestamp === null ? NaN : Date.parse(event.timestamp);
    this.#firstArrival ??= this.#now();
    this.#times.push(Number.isFinite(upstream) ? upstream : event.receivedAt);
    if (event.project === null) this.#namesAll = true;
    else this.#projects.add(event.project);
    this.#options.metrics.setQueued(this.#times.length);
    this.#schedule(this.#options.debounceMs);
    return true;
  }

  /** No sync starts any more; resolves when the one running (if any) has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped || this.#timer !== null || this.#running !== null) return;
    if (this.#times.length === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#running = this.#flush().finally(() => {
        this.#running = null;
        // Events that came during the sync wait their debounce from the first of them.
        this.#schedule(this.#pause(this.#now() - (this.#firstArrival ?? this.#now())));
      });
    }, delayMs);
  }

  /** The wait before the next batch: the debounce still due, or a backoff after failures. */
  #pause(waitedMs: number): number {
    if (this.#failures > 0)
      return Math.min(this.#options.debounceMs * 2 ** this.#failures, MAX_BACKOFF_MS);
    return Math.max(0, this.#options.debounceMs - waitedMs);
  }

  async #flush(): Promise<void> {
    const times = this.#times;
    const batch: Batch = {
      events: times.length,
      projects: this.#namesAll ? null : this.#projects,
    };
    this.#times = [];
    this.#projects = new Set();
    this.#namesAll = false;
    this.#firstArrival = null;
    this.#options.metrics.setQueued(0);
    let outcome: BatchOutcome;
    try {
      outcome = await this.#options.sync(batch);
    } catch (err) {
      logFailure(this.#options.log, err, 'sync of webhook events failed');
      outcome = { status: 'failed' };
    }
    this.#options.metrics.recordSync(outcome.status);
    if (outcome.status === 'succeeded') {
      this.#failures = 0;
      const committed = this.#now();
      for (const time of times) this.#options.metrics.observeLag((committed - time) / 1000);
      return;
    }
    const retry =
      (outcome.status === 'failed' && ++this.#failures < MAX_FAILURES) ||
      (outcome.status === 'skipped' && outcome.retry);
    if (retry) {
      this.#requeue(times, batch.projects);
      return;
    }
    if (outcome.status === 'failed') {
      this.#options.log.warn(
        { events: times.length, failures: this.#failures },
        'webhook events left to the scheduled syncs after failed syncs',
      );
    }
    this.#failures = 0;
  }

  /** Puts a batch back in front of what came meanwhile, within the queue's bound. */
  #requeue(times: number[], projects: ReadonlySet<string> | null): void {
    const room = Math.max(0, this.#options.maxQueued - this.#times.length);
    this.#times = [...times.slice(0, room), ...this.#times];
    this.#firstArrival ??= this.#now();
    if (projects === null) this.#namesAll = true;
    else for (const slug of projects) this.#projects.add(slug);
    this.#options.metrics.setQueued(this.#times.length);
  }
}

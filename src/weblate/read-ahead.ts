/**
 * What a walk read in windows side by side decides (see readAhead): how many pages it may hold
 * at once, which range to ask next, and what it learns from each page.
 */
export interface ReadAheadPlan<Range, Page> {
  /** Pages the walk may hold at once, in flight or arrived and not yet taken (at least 1). */
  pagesInHand(): number;
  /** The next range to request while `inFlight` requests are out, or null: none now. */
  next(inFlight: number): Range | null;
  /** Learns from the page that answered `range` (may throw: the walk then fails). */
  learn(range: Range, page: Page): void;
  /**
   * Settles when the plan may hand out more than it does now (another walk beside it ended,
   * or what it waits for arrived): the walk then asks `next` again without waiting for an
   * answer. Null: only an answer can; with nothing in flight, the walk ends.
   */
  wake?(): Promise<void> | null;
}

/**
 * Reads the ranges a plan hands out, up to `pagesInHand()` at once, and yields each page as it
 * arrives, after the plan has learnt from it: the consumer sees pages out of range order and
 * must claim progress only over a gapless prefix (see sync/covered.ts). The walk ends when
 * nothing is in flight and the plan has nothing more to ask. The first failure ends it; the
 * requests still in flight are aborted and awaited, so none outlives the walk.
 */
export async function* readAhead<Range, Page>(
  plan: ReadAheadPlan<Range, Page>,
  fetch: (range: Range, signal: AbortSignal) => Promise<Page>,
  signal?: AbortSignal,
): AsyncGenerator<Page> {
  const abort = new AbortController();
  const stop = () => abort.abort(signal?.reason);
  if (signal?.aborted === true) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  const inFlight = new Set<Promise<void>>();
  const arrived: Page[] = [];
  const aborted = new Promise<void>((resolve) =>
    abort.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  let failed: { error: unknown } | null = null;
  const launch = (range: Range) => {
    const request = fetch(range, abort.signal)
      .then((page) => {
        plan.learn(range, page);
        arrived.push(page);
      })
      .catch((error: unknown) => {
        failed ??= { error };
      });
    inFlight.add(request);
    void request.then(() => inFlight.delete(request));
  };
  try {
    for (;;) {
      // Pages that arrived but were not yet taken count too, so memory holds at most
      // pagesInHand() pages beside the consumer's.
      while (failed === null && inFlight.size + arrived.length < plan.pagesInHand()) {
        const range = plan.next(inFlight.size);
        if (range === null) break;
        launch(range);
      }
      if (failed !== null) throw (failed as { error: unknown }).error;
      const page = arrived.shift();
      if (page !== undefined) {
        yield page;
        continue;
      }
      const wake = plan.wake?.() ?? null;
      if (inFlight.size === 0) {
        if (wake === null) return;
        // Holding back with nothing in flight: only an abort ends the wait early.
        await Promise.race([wake, aborted]);
        abort.signal.throwIfAborted();
      } else {
        // Requests in flight end on an abort themselves, and their failure ends the walk.
        await Promise.race(wake === null ? inFlight : [...inFlight, wake]);
      }
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    abort.abort();
    await Promise.allSettled(inFlight);
  }
}

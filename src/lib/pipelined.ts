/** Thrown into a commit whose predecessor failed: that commit must not make its own work final. */
export class PreviousCommitFailed extends Error {
  constructor() {
    super('an earlier page failed to commit');
    this.name = 'PreviousCommitFailed';
  }
}

/**
 * Stages over an async source: while `commit` handles item k (waiting on the database),
 * item k+1 is pulled from the source and `prepare`d, so CPU work in this process overlaps
 * the database's.
 *
 * With `depth` 2, the commit of item k+1 also starts before the commit of item k has
 * finished. Each commit receives `previous`, which settles when the commit before it has:
 * whatever must happen in order (a cursor that says "everything up to here is stored")
 * awaits it first, and it rejects with PreviousCommitFailed when that commit failed, so a
 * later item never records progress past an earlier one that was lost.
 *
 * At most `depth` commits and one prepared item are in hand at once. The first error of
 * any stage is thrown, after every commit still running has settled and the source has
 * been closed; nothing runs unobserved afterwards.
 */
export async function pipelined<T, P>(
  source: AsyncIterator<T>,
  prepare: (item: T) => P,
  commit: (prepared: P, previous: Promise<void>) => Promise<void>,
  depth = 1,
): Promise<void> {
  const pull = async (): Promise<{ value: P } | null> => {
    const next = await source.next();
    return next.done === true ? null : { value: prepare(next.value) };
  };
  const inflight: Array<Promise<void>> = [];
  let previous: Promise<void> = Promise.resolve();
  let upcoming = pull();
  try {
    for (;;) {
      const current = await upcoming;
      if (current === null) break;
      upcoming = pull();
      // Awaited on the next turn (or dropped below); never an unhandled rejection.
      upcoming.catch(() => undefined);
      const after = previous.catch(() => {
        throw new PreviousCommitFailed();
      });
      // A commit that never awaits `after` must not turn its rejection into a crash.
      after.catch(() => undefined);
      const done = commit(current.value, after);
      done.catch(() => undefined);
      previous = done;
      inflight.push(done);
      // Oldest first, so the error thrown is the first commit's that failed.
      while (inflight.length >= Math.max(1, depth)) await inflight.shift();
    }
    while (inflight.length > 0) await inflight.shift();
  } finally {
    await Promise.allSettled(inflight);
    await source.return?.(undefined);
  }
}

/** Thrown into a commit whose predecessor failed: that commit must not make its own work final. */
export class PreviousCommitFailed extends Error {
  constructor() {
    super('an earlier page failed to commit');
    this.name = 'PreviousCommitFailed';
  }
}

/**
 * Two items in hand over an async source: while item k commits (waiting on the database),
 * item k+1 is pulled from the source and `prepare`d, so CPU work in this process overlaps
 * the database's.
 *
 * With `overlap`, the commit of item k+1 starts as soon as it is prepared, while item k may
 * still be committing. Each commit receives `previous`, which settles when the commit before
 * it has: whatever must happen in order (a cursor that says "everything up to here is
 * stored") awaits it first. It rejects with PreviousCommitFailed when that commit failed,
 * so a later item never records progress past an earlier one that was lost. Without
 * `overlap`, `previous` has always settled already.
 *
 * The first error of any stage is thrown, after every commit still running has settled and
 * the source has been closed; nothing runs unobserved afterwards.
 */
export async function pipelined<T, P>(
  source: AsyncIterator<T>,
  prepare: (item: T) => P,
  commit: (prepared: P, previous: Promise<void>) => Promise<void>,
  overlap = false,
): Promise<void> {
  const pull = async (): Promise<{ value: P } | null> => {
    const next = await source.next();
    return next.done === true ? null : { value: prepare(next.value) };
  };
  const running = new Set<Promise<void>>();
  let previous: Promise<void> = Promise.resolve();
  let upcoming = pull();
  try {
    for (;;) {
      const current = await upcoming;
      if (current === null) break;
      if (!overlap) await previous;
      const after = previous.catch(() => {
        throw new PreviousCommitFailed();
      });
      // A commit that never awaits `after` must not turn its rejection into a crash.
      after.catch(() => undefined);
      const done = commit(current.value, after);
      running.add(done);
      void done.then(
        () => running.delete(done),
        () => running.delete(done),
      );
      // Two items in hand at most: the one committing and the next, pulled once the commit
      // before has finished. Oldest first, so the error thrown is the first commit's.
      await previous;
      previous = done;
      upcoming = pull();
      // Awaited on the next turn (or dropped below); never an unhandled rejection.
      upcoming.catch(() => undefined);
    }
    await previous;
  } finally {
    await Promise.allSettled(running);
    await source.return?.(undefined);
  }
}

/** Thrown into a commit whose predecessor failed: that commit must not make its own work final. */
export class PreviousCommitFailed extends Error {
  constructor() {
    super('an earlier page failed to commit');
    this.name = 'PreviousCommitFailed';
  }
}

/**
 * Prepares item k+1 while item k commits, so this process's CPU work overlaps the database's;
 * what must happen in order awaits `previous` (docs/internals.md#pipelined-commits).
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

/**
 * Two stages over an async source: while `commit` handles item k (waiting on the
 * database), item k+1 is pulled from the source and `prepare`d, so CPU work in this
 * process overlaps the database's. At most two items are in hand at once. The first error
 * of either stage stops the pipeline and is thrown; nothing runs unobserved afterwards.
 */
export async function pipelined<T, P>(
  source: AsyncIterator<T>,
  prepare: (item: T) => P,
  commit: (prepared: P) => Promise<void>,
): Promise<void> {
  const pull = async (): Promise<{ value: P } | null> => {
    const next = await source.next();
    return next.done === true ? null : { value: prepare(next.value) };
  };
  let upcoming = pull();
  try {
    for (;;) {
      const current = await upcoming;
      if (current === null) return;
      upcoming = pull();
      // Awaited on the next turn (or dropped below); never an unhandled rejection.
      upcoming.catch(() => undefined);
      await commit(current.value);
    }
  } finally {
    await source.return?.(undefined);
  }
}

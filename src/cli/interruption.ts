import type { Logger } from '../logger.ts';

export interface InterruptionOptions {
  /**
   * After the first signal, the longest the process may take to exit: past it, it exits
   * with code 1 and a message. Unset: no limit.
   */
  deadlineMs?: number;
}

/**
 * Runs `task` with a signal that the first SIGINT or SIGTERM aborts: work stops after the
 * statements in flight, runs are recorded, locks released and the database closed cleanly
 * (the embedded database must not be cut off mid-write). A second signal exits at once
 * (code 130).
 */
export async function withInterruption<T>(
  log: Logger,
  task: (signal: AbortSignal) => Promise<T>,
  options: InterruptionOptions = {},
): Promise<T> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      log.warn({ signal }, 'second signal: exiting at once');
      process.exit(130);
    }
    log.warn(
      { signal },
      'stopping after the work in flight; send the signal again to exit at once',
    );
    if (options.deadlineMs !== undefined) exitAfter(log, options.deadlineMs);
    controller.abort(new Error(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await task(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Exits with code 1 if the process still runs after `ms`. The timer outlives the task (a
 * handle left open after it would keep the process alive) but does not itself hold the
 * process open.
 */
function exitAfter(log: Logger, ms: number): void {
  const timer = setTimeout(() => {
    log.fatal({ deadlineMs: ms }, 'shutdown took too long: exiting without finishing');
    process.exit(1);
  }, ms);
  timer.unref();
}

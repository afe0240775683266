import { isStartedByPackageManager } from '../config.ts';
import { isProcessRunning } from '../lib/process-running.ts';
import type { Logger } from '../logger.ts';

export interface InterruptionOptions {
  /**
   * After the first signal, the longest the process may take to exit: past it, it exits
   * with code 1 and a message. Unset: no limit.
   */
  deadlineMs?: number;
}

/**
 * A repeat of the first signal this soon is the same request delivered twice: a terminal sends
 * Ctrl-C to the whole process group, and npm forwards to its script what it receives as well.
 */
export const REPEAT_MS = 1_000;

/** How often a process npm started looks for its parent (see watchParent). */
const PARENT_POLL_MS = 250;

/** The parent the process started with (`process.ppid` is set once, at start, in Node 20 and 24). */
const PARENT_PID = process.ppid;

/**
 * Runs `task` with a signal that the first SIGINT or SIGTERM aborts: work stops after the
 * statements in flight, runs are recorded, locks released and the database closed cleanly
 * (the embedded database must not be cut off mid-write). Another signal, other than a
 * repeat of the first within REPEAT_MS, exits at once (code 130). Under npm, the exit of the
 * parent process counts as SIGTERM (docs/architecture.md, "Stopping").
 */
export async function withInterruption<T>(
  log: Logger,
  task: (signal: AbortSignal) => Promise<T>,
  options: InterruptionOptions = {},
): Promise<T> {
  const controller = new AbortController();
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  const stop = (reason: string) => {
    if (options.deadlineMs !== undefined) exitAfter(log, options.deadlineMs);
    controller.abort(new Error(reason));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (first?.signal === signal && performance.now() - first.at < REPEAT_MS) return;
    if (controller.signal.aborted) {
      log.warn({ signal }, 'second signal: exiting at once');
      process.exit(130);
    }
    first = { signal, at: performance.now() };
    log.warn(
      { signal },
      'stopping after the work in flight; send the signal again to exit at once',
    );
    stop(signal);
  };
  const unwatch = isStartedByPackageManager()
    ? watchParent(() => {
        if (controller.signal.aborted) return;
        log.warn(
          { parentPid: PARENT_PID },
          'the process that started this one is gone: stopping after the work in flight',
        );
        stop('the exit of the process that started it');
      })
    : () => undefined;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await task(controller.signal);
  } finally {
    unwatch();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Calls `onGone` once the parent process has exited; returns what stops the watch. npm runs a
 * command through `sh -c`, and a shell that forks (dash, Debian's sh) dies of the SIGTERM npm
 * forwards to it without passing it on: the command's only sign of it is that its parent is gone.
 */
function watchParent(onGone: () => void): () => void {
  if (PARENT_PID <= 1) return () => undefined;
  const timer = setInterval(() => {
    if (isProcessRunning(PARENT_PID)) return;
    clearInterval(timer);
    onGone();
  }, PARENT_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
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

/**
 * Mid-walk triggers: run a test's action (delete units, insert changes, …) synchronously
 * just before the nth request matching a pattern is served, so the data changes between
 * two pages of one walk exactly where the test wants. The layer sits innermost, next to
 * `dispatch`: requests failed by a fault or refused by the rate budget are not served and
 * do not count.
 */
import type { RequestHandler } from './responses.ts';
import { requestTarget, testPattern } from './responses.ts';

export interface Trigger {
  /** Tested against the request's pathname + search, as received (percent-encoding kept). */
  match: RegExp;
  /** Fire on the nth matching request (default 1). */
  nth?: number;
}

export interface TriggerHandle {
  /** True once the action has run. */
  readonly fired: boolean;
  /** Matching requests seen so far (counting stops when the trigger fires or is cancelled). */
  readonly seen: number;
  /** What the action threw, if it threw; the request it preceded then answers 500. */
  readonly error: unknown;
  /** Disarms the trigger if it has not fired yet. */
  cancel(): void;
}

interface ArmedTrigger {
  match: RegExp;
  nth: number;
  action: () => void;
  seen: number;
  fired: boolean;
  cancelled: boolean;
  error: unknown;
}

export interface TriggerControl {
  handle: RequestHandler;
  at: (trigger: Trigger, action: () => void) => TriggerHandle;
}

function handleOf(armed: ArmedTrigger): TriggerHandle {
  return {
    get fired() {
      return armed.fired;
    },
    get seen() {
      return armed.seen;
    },
    get error() {
      return armed.error;
    },
    cancel() {
      armed.cancelled = true;
    },
  };
}

export function createTriggerLayer(inner: RequestHandler): TriggerControl {
  let armed: ArmedTrigger[] = [];
  const handle: RequestHandler = (request) => {
    const target = requestTarget(request);
    // Every trigger due on this request runs, in the order they were armed.
    const due = armed.filter((trigger) => {
      if (trigger.cancelled || !testPattern(trigger.match, target)) return false;
      trigger.seen += 1;
      return trigger.seen === trigger.nth;
    });
    armed = armed.filter((trigger) => !trigger.cancelled && !due.includes(trigger));
    let failure: { error: unknown } | null = null;
    for (const trigger of due) {
      trigger.fired = true;
      try {
        trigger.action();
      } catch (error) {
        trigger.error = error;
        failure ??= { error };
      }
    }
    if (failure !== null) throw failure.error;
    return inner(request);
  };
  const at = (trigger: Trigger, action: () => void): TriggerHandle => {
    const nth = trigger.nth ?? 1;
    if (!Number.isInteger(nth) || nth < 1) throw new Error(`nth must be a whole number >= 1`);
    const entry: ArmedTrigger = {
      match: trigger.match,
      nth,
      action,
      seen: 0,
      fired: false,
      cancelled: false,
      error: undefined,
    };
    armed.push(entry);
    return handleOf(entry);
  };
  return { handle, at };
}

import { sleep } from '../../lib/sleep.ts';
import type { Logger } from '../../logger.ts';
import type { SendResult } from '../model.ts';

/** What one try reports; a receiver may say when to come back (HTTP Retry-After). */
export type AttemptResult =
  { ok: true } | { ok: false; error: string; retryable: boolean; retryAfterMs?: number | null };

/** The longest pause between tries, whatever the backoff or a receiver's Retry-After says. */
export const MAX_RETRY_DELAY_MS = 60_000;

/**
 * The pause before try `attempt + 1`: the receiver's Retry-After when it gave one, else
 * `backoffMs` doubled per try with ±50 % jitter (so replicas do not retry in step); capped.
 */
export function retryDelayMs(
  attempt: number,
  backoffMs: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, MAX_RETRY_DELAY_MS);
  const base = Math.min(backoffMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
  return Math.min(Math.round(base * (0.5 + random())), MAX_RETRY_DELAY_MS);
}

/** A message as one line: a receiver's answer or a library's error may hold line breaks. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface RetryOptions {
  channel: string;
  attempts: number;
  backoffMs: number;
  signal?: AbortSignal;
  log?: Logger;
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or `attempts` tries are spent; never
 * throws. An aborted `signal` ends the pause and the tries (the outbox sends later).
 */
export async function withRetries(
  attempt: (n: number) => Promise<AttemptResult>,
  options: RetryOptions,
): Promise<SendResult> {
  const attempts = Math.max(1, Math.floor(options.attempts));
  for (let n = 1; ; n++) {
    let result: AttemptResult;
    try {
      result = await attempt(n);
    } catch (err) {
      // Each channel turns its failures into results; this is a bug's last line of defence.
      const message = err instanceof Error ? err.message : String(err);
      result = { ok: false, retryable: false, error: `channel ${options.channel}: ${message}` };
    }
    if (result.ok) return { ok: true };
    const error = oneLine(result.error);
    const tried = n > 1 ? ` (${n} attempts)` : '';
    if (!result.retryable || n >= attempts || options.signal?.aborted === true)
      return { ok: false, retryable: result.retryable, error: `${error}${tried}` };
    const delayMs = retryDelayMs(n, options.backoffMs, result.retryAfterMs ?? null, options.random);
    options.log?.warn(
      { channel: options.channel, attempt: n, attempts, delayMs, error },
      'channel send failed, retrying',
    );
    try {
      await sleep(delayMs, options.signal);
    } catch {
      return { ok: false, retryable: true, error: `${error}${tried}; stopped before retrying` };
    }
  }
}

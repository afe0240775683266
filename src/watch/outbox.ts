import { withLockSession } from '../db/advisory-lock.ts';
import type { DbHandle } from '../db/client.ts';
import {
  claimDigest,
  listPendingDeliveries,
  listUndeliveredDigests,
  markDelivered,
  markDigest,
  markFailed,
} from '../db/queries/watch-alerts.ts';
import type { Logger } from '../logger.ts';
import type { DigestSpec, RenderedDigest, SendResult, WatchMessage } from './model.ts';

// Sends what the evaluations recorded: each channel's pending events oldest first, stopping at
// the first that fails so that a channel that was down gets every event later, in order; and
// each digest once per channel and period. One process at a time sends for a channel (a lock
// per channel); a receiver dedupes on the message key should a process die between sending
// and recording (docs/watching.md, "Once").

export interface Sender {
  send(message: WatchMessage): Promise<SendResult>;
}

/** Seconds before a failed delivery is tried again: 15 s, doubling, at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(15 * 2 ** Math.max(0, attempts - 1), 3600);
}

export interface DeliveryResult {
  delivered: number;
  failed: number;
}

const BATCH = 100;

/**
 * Sends each channel's pending events, in order; channels side by side. One lock session holds
 * every channel's lock (one connection), the reads and writes go through the pool.
 */
export async function deliverPending(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  senders: ReadonlyMap<string, Sender>,
  options: { log: Logger; signal?: AbortSignal },
): Promise<DeliveryResult> {
  const totals: DeliveryResult = { delivered: 0, failed: 0 };
  if (senders.size === 0) return totals;
  await withLockSession(handle, async (session) => {
    const mine: Array<[string, Sender]> = [];
    for (const [channel, sender] of senders)
      if (await session.tryLock(`watch:deliver:${channel}`)) mine.push([channel, sender]);
    await Promise.all(
      mine.map(async ([channel, sender]) => {
        const r = await deliverChannel(handle, channel, sender, options);
        totals.delivered += r.delivered;
        totals.failed += r.failed;
      }),
    );
  });
  return totals;
}

/** A channel's pending events, oldest first, until one fails; its lock is held by the caller. */
async function deliverChannel(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  channel: string,
  sender: Sender,
  options: { log: Logger; signal?: AbortSignal },
): Promise<DeliveryResult> {
  const result: DeliveryResult = { delivered: 0, failed: 0 };
  for (;;) {
    const pending = await listPendingDeliveries(handle.db, channel, BATCH);
    for (const delivery of pending) {
      if (!delivery.due || options.signal?.aborted === true) return result;
      const sent = await sender.send({ kind: 'event', event: delivery.event });
      if (sent.ok) {
        await markDelivered(handle.db, channel, delivery.event_id);
        result.delivered += 1;
        continue;
      }
      const retryIn = retryDelaySeconds(delivery.attempts + 1);
      await markFailed(handle.db, channel, delivery.event_id, sent.error, retryIn);
      result.failed += 1;
      options.log.warn(
        { channel, event: delivery.event.key, retry_in_seconds: retryIn },
        `watch channel ${channel}: ${sent.error}`,
      );
      return result;
    }
    if (pending.length < BATCH) return result;
  }
}

/** What a digest needs from src/watch/digest/: its period, and the message for it. */
export interface DigestSource {
  period(every: 'day' | 'week', now: Date): { from: string; to: string; key: string };
  build(spec: DigestSpec, period: { from: string; to: string }): Promise<RenderedDigest>;
}

/**
 * Sends each digest of the file for its last complete period, once per channel and period:
 * the period is claimed in the warehouse first; a claimed digest that failed is sent again.
 */
export async function sendDigests(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  digests: readonly DigestSpec[],
  senders: ReadonlyMap<string, Sender>,
  source: DigestSource,
  options: { log: Logger; now?: () => Date },
): Promise<DeliveryResult> {
  const result: DeliveryResult = { delivered: 0, failed: 0 };
  const now = options.now?.() ?? new Date();
  if (digests.length === 0) return result;
  await withLockSession(handle, async (session) => {
    for (const spec of digests) {
      const sender = senders.get(spec.channel);
      const lock = `watch:digest:${spec.channel}:${spec.every}`;
      if (sender === undefined || !(await session.tryLock(lock))) continue;
      const period = source.period(spec.every, now);
      await claimDigest(handle.db, {
        channel: spec.channel,
        key: period.key,
        every: spec.every,
        from: period.from,
        to: period.to,
      });
      for (const due of await listUndeliveredDigests(handle.db, spec.channel)) {
        if (due.every !== spec.every) continue;
        const digest = await source.build(spec, { from: due.from, to: due.to });
        const sent = await sender.send({ kind: 'digest', digest });
        await markDigest(handle.db, spec.channel, due.key, sent.ok ? null : sent.error);
        if (sent.ok) result.delivered += 1;
        else {
          result.failed += 1;
          options.log.warn(
            { channel: spec.channel, digest: due.key },
            `watch channel ${spec.channel}: ${sent.error}`,
          );
          break;
        }
      }
    }
  });
  return result;
}

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Prefix of every webhook metric name. */
const PREFIX = 'weblate_mirror_webhook_';

/**
 * Why a request to the webhook endpoint was not queued. `replayed` is answered 200 (the event
 * was queued before) and `queue_full` 429 (Weblate retries it later); the others are refused.
 */
export const WEBHOOK_REJECT_REASONS = [
  'missing_headers',
  'bad_signature',
  'bad_timestamp',
  'replayed',
  'not_json',
  'too_large',
  'queue_full',
  'method',
] as const;
export type WebhookRejectReason = (typeof WEBHOOK_REJECT_REASONS)[number];

/** How a sync of webhook events ended; `skipped`: it did not start (lock, no first sync yet). */
export const WEBHOOK_SYNC_STATUSES = ['succeeded', 'failed', 'skipped'] as const;
export type WebhookSyncStatus = (typeof WEBHOOK_SYNC_STATUSES)[number];

/** From 0.1 s (a debounce of 0 and a small sync) to 15 minutes (a sync waiting for a long run). */
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900];

export interface WebhookMetrics {
  /** Every request the webhook endpoint handled: accepted + rejected, plus bodies cut short. */
  recordReceived(): void;
  /** An event queued for a coalesced sync. */
  recordAccepted(): void;
  /** An accepted event whose body was not recognised (see parseWebhookEvent). */
  recordUnrecognised(): void;
  recordRejected(reason: WebhookRejectReason): void;
  /** One coalesced sync (any number of events) ended with `status`. */
  recordSync(status: WebhookSyncStatus): void;
  /**
   * Seconds from a change (its time in the webhook, else the event's arrival) to the commit of
   * the sync that mirrored it.
   */
  observeLag(seconds: number): void;
  /** Events waiting for the next coalesced sync. */
  setQueued(count: number): void;
}

/** Registers the `weblate_mirror_webhook_*` metrics in `registry` (the worker's own). */
export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  const registers = [registry];
  const received = new Counter({
    name: `${PREFIX}events_received_total`,
    help: 'Requests to the webhook endpoint: accepted plus rejected, plus any whose body never fully arrived.',
    registers,
  });
  const accepted = new Counter({
    name: `${PREFIX}events_accepted_total`,
    help: 'Webhook events queued for a coalesced sync.',
    registers,
  });
  const unrecognised = new Counter({
    name: `${PREFIX}unrecognised_bodies_total`,
    help: 'Accepted webhook events whose signed body did not have the expected shape; each was synced as a change anywhere. Above 0: Weblate sends a payload this version does not understand.',
    registers,
  });
  const rejected = new Counter({
    name: `${PREFIX}events_rejected_total`,
    help: 'Webhook requests not queued, by reason: missing_headers, bad_signature, bad_timestamp (401); replayed (200, queued before); not_json (400); too_large (413); queue_full (429); method (405).',
    labelNames: ['reason'] as const,
    registers,
  });
  const syncs = new Counter({
    name: `${PREFIX}syncs_total`,
    help: 'Coalesced syncs of webhook events, by status: succeeded, failed, skipped (did not start, e.g. another process held the lock).',
    labelNames: ['status'] as const,
    registers,
  });
  const lag = new Histogram({
    name: `${PREFIX}freshness_lag_seconds`,
    help: "Seconds from a change in Weblate (its time in the webhook, else the event's arrival) to the commit of the sync that mirrored it.",
    buckets: LAG_BUCKETS,
    registers,
  });
  const queued = new Gauge({
    name: `${PREFIX}queued_events`,
    help: 'Webhook events waiting for the next coalesced sync.',
    registers,
  });
  // Every series exists from the start, so rates and alerts work before the first event.
  for (const reason of WEBHOOK_REJECT_REASONS) rejected.labels({ reason }).inc(0);
  for (const status of WEBHOOK_SYNC_STATUSES) syncs.labels({ status }).inc(0);
  queued.set(0);
  return {
    recordReceived: () => received.inc(),
    recordAccepted: () => accepted.inc(),
    recordUnrecognised: () => unrecognised.inc(),
    recordRejected: (reason) => rejected.labels({ reason }).inc(),
    recordSync: (status) => syncs.labels({ status }).inc(),
    observeLag: (seconds) => lag.observe(Math.max(0, seconds)),
    setQueued: (count) => queued.set(count),
  };
}

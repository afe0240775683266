import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';

import type { Database } from '../db/database.ts';
import type { JobRunReport, RunnableJob } from '../job.ts';
import type { Logger } from '../logger.ts';
import { batchSync } from './batch-sync.ts';
import { Coalescer } from './coalescer.ts';
import { createWebhookMetrics } from './metrics.ts';
import { createWebhookReceiver, type WebhookReceiver } from './receiver.ts';

/** Events waiting for a sync at most; beyond, the endpoint answers 429 and Weblate retries. */
export const MAX_QUEUED_EVENTS = 10_000;

export interface WebhooksOptions {
  /** WEBLATE_WEBHOOK_SECRET. */
  secret: string;
  /** WEBHOOK_DEBOUNCE_SECONDS, in milliseconds. */
  debounceMs: number;
  db: Kysely<Database>;
  /** Where the mirror is (DbHandle.location), named when its database fails. */
  location: string;
  log: Logger;
  /** The worker's registry: the webhook metrics join /metrics. */
  registry: Registry;
  /** Runs a job under its lock and the writer lock (JobRunner.run). */
  run(job: RunnableJob): Promise<JobRunReport>;
  maxQueued?: number;
}

export interface RunningWebhooks {
  /** Serves POST /webhooks/weblate. */
  receiver: WebhookReceiver;
  coalescer: Coalescer;
}

/**
 * The worker's webhooks: the endpoint that verifies and queues events (receiver.ts) and the
 * coalescer that turns them into targeted syncs (batch-sync.ts), sharing one bounded queue.
 */
export function startWebhooks(options: WebhooksOptions): RunningWebhooks {
  const { log } = options;
  const metrics = createWebhookMetrics(options.registry);
  const coalescer = new Coalescer({
    debounceMs: options.debounceMs,
    maxQueued: options.maxQueued ?? MAX_QUEUED_EVENTS,
    sync: batchSync({
      db: options.db,
      location: options.location,
      log,
      run: (job) => options.run(job),
    }),
    metrics,
    log,
  });
  const receiver = createWebhookReceiver({
    secret: options.secret,
    log,
    metrics,
    accept: (event) => coalescer.accept(event),
  });
  return { receiver, coalescer };
}

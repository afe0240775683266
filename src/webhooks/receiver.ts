import type { IncomingMessage, ServerResponse } from 'node:http';

import { logFailure, type Logger } from '../logger.ts';
import { parseWebhookEvent, type WebhookEvent } from './event.ts';
import type { WebhookMetrics, WebhookRejectReason } from './metrics.ts';
import { createReplayMemory, DEFAULT_MAX_REMEMBERED_IDS } from './replay.ts';
import { createWebhookVerifier, WEBHOOK_TOLERANCE_SECONDS } from './verify.ts';

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
export const DEFAULT_RETRY_AFTER_SECONDS = 10;

export interface WebhookReceiverOptions {
  /** The add-on's secret (WEBLATE_WEBHOOK_SECRET): base64, with or without `whsec_`. */
  secret: string;
  log: Logger;
  metrics: WebhookMetrics;
  /**
   * Queues the event for a coalesced sync and returns at once; false when its bounded queue is
   * full (answered 429, and the id is not remembered, so that Weblate's retry is accepted).
   */
  accept(event: WebhookEvent): boolean;
  /** Largest body read; more is answered 413 (default 256 KiB; Weblate's are a few KiB). */
  maxBodyBytes?: number;
  /** Milliseconds since the epoch, for the timestamp tolerance, replay memory and receivedAt. */
  now?: () => number;
  /** The Retry-After of a 429 (default 10). */
  retryAfterSeconds?: number;
  /** Bound of the replay memory (default 100,000 ids). */
  maxRememberedIds?: number;
}

export interface WebhookReceiver {
  /** Answers one request at once (never waits for a sync); it does not throw. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** How many webhook ids replay protection holds. */
  rememberedIds(): number;
}

/** Who sent a request, as logged with each rejection. */
interface RequestContext {
  webhookId: string | null;
  remote: string | null;
}

/**
 * The endpoint Weblate's webhook add-on posts to (POST /webhooks/weblate). Steps, in order:
 * method (405), size (413), signature and timestamp (401), replay (200, nothing queued),
 * JSON (400), queue (202, or 429 when full). Each rejection is counted and logged once at
 * warn with the reason, the webhook id and the remote address; never the secret or signature.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const now = options.now ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const retryAfter = String(options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
  const verifier = createWebhookVerifier(options.secret, { now });
  const replay = createReplayMemory(options.maxRememberedIds ?? DEFAULT_MAX_REMEMBERED_IDS);
  const { log, metrics } = options;

  const reject = (
    res: ServerResponse,
    context: RequestContext,
    reason: WebhookRejectReason,
    headers: Record<string, string> = {},
  ) => {
    metrics.recordRejected(reason);
    log.warn({ reason, ...context }, 'webhook rejected');
    const status = STATUS_OF_REASON[reason];
    answer(res, status, { status: status === 200 ? 'ignored' : 'rejected', reason }, headers);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const receivedAt = now();
    metrics.recordReceived();
    const context: RequestContext = {
      webhookId: shortHeader(req.headers['webhook-id']),
      remote: req.socket.remoteAddress ?? null,
    };
    if (req.method !== 'POST') return reject(res, context, 'method', { allow: 'POST' });
    // `connection: close` so that Node does not read the rest of a large body to reuse the socket.
    const tooLarge = { connection: 'close' };
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes)
      return reject(res, context, 'too_large', tooLarge);
    const body = await readBody(req, maxBodyBytes);
    if (body === 'too_large') return reject(res, context, 'too_large', tooLarge);
    if (body === null) {
      log.debug(context, 'webhook body cut short');
      res.destroy();
      return;
    }
    const text = body.toString('utf8');
    const verified = verifier.verify(text, req.headers);
    if (!verified.ok) return reject(res, context, verified.reason);
    // From here to remember() nothing awaits, so two deliveries of one id cannot both pass.
    if (replay.has(verified.id, now())) return reject(res, context, 'replayed');
    const parsed = parseWebhookEvent(text, { id: verified.id, receivedAt });
    if (parsed.kind === 'not_json') return reject(res, context, 'not_json');
    if (!options.accept(parsed.event)) {
      return reject(res, context, 'queue_full', { 'retry-after': retryAfter });
    }
    // Remembered until its timestamp leaves the tolerance (then verification refuses it).
    const expiresAt = (verified.timestampSeconds + WEBHOOK_TOLERANCE_SECONDS + 1) * 1000;
    replay.remember(verified.id, expiresAt, now());
    metrics.recordAccepted();
    if (parsed.kind === 'unrecognised') {
      metrics.recordUnrecognised();
      log.warn(
        { ...context, problems: parsed.problems },
        'webhook body not recognised; syncing every change',
      );
    } else {
      const { changeId, action, project, component, language } = parsed.event;
      log.debug(
        { ...context, changeId, action, project, component, language },
        'webhook event queued',
      );
    }
    answer(res, 202, { status: 'accepted' });
  };

  return {
    async handle(req, res) {
      try {
        await handle(req, res);
      } catch (err) {
        logFailure(log, err, 'webhook failed', { remote: req.socket.remoteAddress });
        if (!res.headersSent) answer(res, 500, { status: 'error' });
        else res.destroy();
      }
    },
    rememberedIds: () => replay.size(),
  };
}

/** A header for the log: attacker-chosen, so shortened. */
function shortHeader(value: string | string[] | undefined): string | null {
  return typeof value === 'string' ? value.slice(0, 100) : null;
}

const STATUS_OF_REASON: Record<WebhookRejectReason, number> = {
  method: 405,
  too_large: 413,
  missing_headers: 401,
  bad_signature: 401,
  bad_timestamp: 401,
  replayed: 200,
  not_json: 400,
  queue_full: 429,
};

function answer(
  res: ServerResponse,
  status: number,
  body: { status: string; reason?: string },
  headers: Record<string, string> = {},
): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * The whole body; `too_large` as soon as it passes `maxBytes` (what came is dropped and the
 * rest is not buffered); null when the client went away first.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large' | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: Buffer | 'too_large' | null) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else settle('too_large');
    };
    const onEnd = () => settle(Buffer.concat(chunks, size));
    const onGone = () => settle(null);
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
  });
}

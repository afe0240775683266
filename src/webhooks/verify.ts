import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

import type { Webhook } from 'standardwebhooks';

import { ConfigError } from '../errors.ts';
import { webhookOf } from '../lib/webhook-secret.ts';

// Checks the Standard Webhooks signature of a request from Weblate's webhook add-on, with the
// `standardwebhooks` package's rules but not its `verify()`, which takes no clock and tells
// failures apart only by message text (docs/internals.md#webhook-signatures).

/** The package's (and the specification's) tolerance: 5 minutes either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export const VERIFY_FAILURES = ['missing_headers', 'bad_signature', 'bad_timestamp'] as const;
export type VerifyFailure = (typeof VERIFY_FAILURES)[number];

export type VerifyResult =
  | {
      ok: true;
      /** The `webhook-id` header. */
      id: string;
      /** The signed timestamp, in whole seconds since the epoch. */
      timestampSeconds: number;
    }
  | { ok: false; reason: VerifyFailure };

export interface WebhookVerifier {
  /** `body` exactly as received; `headers` as Node parsed them (lower-case names). */
  verify(body: Buffer | string, headers: IncomingHttpHeaders): VerifyResult;
}

export interface VerifierOptions {
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
}

/** A float or whole number of seconds; `parseInt` alone would also take `12abc` or `1e9`. */
const TIMESTAMP_PATTERN = /^\d{1,15}(?:\.\d*)?$/;

/** Throws ConfigError when the secret is unusable (config.ts checks it first). */
export function createWebhookVerifier(
  secret: string,
  options: VerifierOptions = {},
): WebhookVerifier {
  let webhook: Webhook;
  try {
    webhook = webhookOf(secret);
  } catch (err) {
    throw new ConfigError([`WEBLATE_WEBHOOK_SECRET: ${(err as Error).message}`]);
  }
  const now = options.now ?? Date.now;
  return {
    verify(body, headers) {
      const id = headerOf(headers, 'webhook-id');
      const timestampHeader = headerOf(headers, 'webhook-timestamp');
      const signatures = headerOf(headers, 'webhook-signature');
      if (id === null || timestampHeader === null || signatures === null) {
        return { ok: false, reason: 'missing_headers' };
      }
      const timestampSeconds = parseTimestamp(timestampHeader, now());
      if (timestampSeconds === null) return { ok: false, reason: 'bad_timestamp' };
      const expected = webhook.sign(id, new Date(timestampSeconds * 1000), body);
      return hasSignature(signatures, expected)
        ? { ok: true, id, timestampSeconds }
        : { ok: false, reason: 'bad_signature' };
    },
  };
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  // Node joins repeated headers of these names with ", ", so a string[] does not occur.
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Whole seconds of the header, or null when unparsable or outside the tolerance. */
function parseTimestamp(header: string, nowMs: number): number | null {
  if (!TIMESTAMP_PATTERN.test(header)) return null;
  const seconds = Number.parseInt(header, 10);
  const nowSeconds = Math.floor(nowMs / 1000);
  if (Math.abs(nowSeconds - seconds) > WEBHOOK_TOLERANCE_SECONDS) return null;
  return seconds;
}

/** Whether any `v1,<base64>` entry of the space-separated header equals `expected`. */
function hasSignature(header: string, expected: string): boolean {
  const wanted = Buffer.from(expected, 'utf8');
  return header.split(' ').some((entry) => {
    if (!entry.startsWith('v1,')) return false;
    const given = Buffer.from(entry, 'utf8');
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  });
}

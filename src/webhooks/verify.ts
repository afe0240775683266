import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

import type { Webhook } from 'standardwebhooks';

import { ConfigError } from '../errors.ts';
import { webhookOf } from '../lib/webhook-secret.ts';

/**
 * Checks the Standard Webhooks signature of a request from Weblate's webhook add-on
 * (https://docs.weblate.org/en/latest/admin/addons.html#webhooks).
 *
 * The `standardwebhooks` package does the part that matters: it strips `whsec_`, base64-decodes
 * the secret and computes the HMAC-SHA256 of `<id>.<seconds>.<body>`.
 * Its `verify()` is not called, for two reasons: it reads `Date.now()` with no way to pass a
 * clock (the receiver's tests pass one), and it tells failures apart only by message text. So
 * the checks before the HMAC are done here with the package's own rules: the timestamp header
 * is cut to whole seconds (Weblate sends `str(datetime.timestamp())`, a float such as
 * `1764030000.123456`, and signs the floor of it, as the package's `parseInt` does), and more
 * than 5 minutes off the clock either way is refused; then each space-separated `v1,<base64>`
 * signature is compared, in constant time, with the package's `sign()`. The tests check this
 * against the package's `verify()` on the real clock.
 */

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

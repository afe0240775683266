import { Webhook } from 'standardwebhooks';

/*
 * The webhook add-on's secret, checked by the package that verifies the signatures, so what
 * the configuration accepts also verifies (webhooks/verify.ts).
 */

/**
 * Throws an Error (whose message never contains the secret) unless `secret` is what the add-on
 * takes: standard, padded base64 of at least one byte, with or without a `whsec_` prefix.
 */
export function checkWebhookSecret(secret: string): void {
  webhookOf(secret);
}

/**
 * Standard base64 with its `=` padding, as Python's `base64.b64decode` (which Weblate decodes the
 * secret with) requires. The package alone is laxer: it takes `hunter2` or `abcde` (no valid
 * padding, the last bits dropped), so a mistyped secret would pass and only ever fail to verify.
 */
const BASE64_PATTERN =
  /^(?:[A-Za-z0-9+/]{4})+$|^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$/;

/** The package's signer for `secret`; throws as checkWebhookSecret does. */
export function webhookOf(secret: string): Webhook {
  try {
    if (!BASE64_PATTERN.test(secret.replace(/^whsec_/, ''))) throw new Error('not base64');
    return new Webhook(secret);
  } catch {
    // The package's messages do not quote the secret, but they do not say what is expected.
    throw new Error(
      "must be the webhook add-on's secret: base64 (standard alphabet, with = padding) of at least one byte, optionally prefixed with whsec_",
    );
  }
}

import { createHmac } from 'node:crypto';

import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

import { ConfigError } from '../../src/errors.ts';
import { checkWebhookSecret } from '../../src/lib/webhook-secret.ts';
import { createWebhookVerifier } from '../../src/webhooks/verify.ts';
import { signWebhook, TEST_SECRET } from '../helpers/webhooks.ts';

// The reference example of the Standard Webhooks specification.
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const specHeaders = (overrides: Record<string, string> = {}) => ({
  'webhook-id': SPEC.id,
  'webhook-timestamp': String(SPEC.timestamp),
  'webhook-signature': SPEC.signature,
  ...overrides,
});

/** A verifier whose clock stands at `offsetSeconds` after the example's timestamp. */
const specVerifier = (offsetSeconds = 0, secret = SPEC.secret) =>
  createWebhookVerifier(secret, { now: () => (SPEC.timestamp + offsetSeconds) * 1000 });

describe('createWebhookVerifier', () => {
  it("accepts the specification's example, whose signature node:crypto computes the same", () => {
    const key = Buffer.from(SPEC.secret.slice('whsec_'.length), 'base64');
    const digest = createHmac('sha256', key)
      .update(`${SPEC.id}.${SPEC.timestamp}.${SPEC.body}`)
      .digest('base64');
    expect(`v1,${digest}`).toBe(SPEC.signature);
    expect(specVerifier().verify(SPEC.body, specHeaders())).toEqual({
      ok: true,
      id: SPEC.id,
      timestampSeconds: SPEC.timestamp,
    });
    expect(specVerifier().verify(Buffer.from(SPEC.body), specHeaders())).toMatchObject({
      ok: true,
    });
  });

  it('takes the secret with or without the whsec_ prefix', () => {
    const bare = SPEC.secret.slice('whsec_'.length);
    expect(specVerifier(0, bare).verify(SPEC.body, specHeaders())).toMatchObject({ ok: true });
  });

  it("accepts Weblate's float timestamp, signed with its whole seconds", () => {
    const headers = specHeaders({ 'webhook-timestamp': `${SPEC.timestamp}.654321` });
    expect(specVerifier(0.9).verify(SPEC.body, headers)).toEqual({
      ok: true,
      id: SPEC.id,
      timestampSeconds: SPEC.timestamp,
    });
    // Python's str() of a whole float.
    const whole = specHeaders({ 'webhook-timestamp': `${SPEC.timestamp}.0` });
    expect(specVerifier().verify(SPEC.body, whole)).toMatchObject({ ok: true });
    // A signature over the fractional text is not what Weblate (or the specification) signs.
    const keyOverFraction = createHmac(
      'sha256',
      Buffer.from(SPEC.secret.slice('whsec_'.length), 'base64'),
    )
      .update(`${SPEC.id}.${SPEC.timestamp}.654321.${SPEC.body}`)
      .digest('base64');
    expect(
      specVerifier().verify(SPEC.body, {
        ...headers,
        'webhook-signature': `v1,${keyOverFraction}`,
      }),
    ).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('accepts when any of several space-separated v1 signatures matches', () => {
    const other = signWebhook(TEST_SECRET, SPEC.id, SPEC.timestamp, SPEC.body);
    const bare = SPEC.signature.slice('v1,'.length);
    for (const [signatures, ok] of [
      [`${other} ${SPEC.signature}`, true],
      [`v2,${bare} ${SPEC.signature} v1,AAAA`, true],
      [`v1a,${bare} ${other}`, false],
      // The same bytes under another version do not count.
      [`v2,${bare}`, false],
      [bare, false],
      [`${SPEC.signature.slice(0, -2)}A=`, false],
    ] as const) {
      const result = specVerifier().verify(
        SPEC.body,
        specHeaders({ 'webhook-signature': signatures }),
      );
      expect(result.ok, signatures).toBe(ok);
    }
  });

  it('refuses a wrong secret, a changed body and a changed id as bad_signature', () => {
    const bad = { ok: false, reason: 'bad_signature' };
    expect(specVerifier(0, TEST_SECRET).verify(SPEC.body, specHeaders())).toEqual(bad);
    expect(specVerifier().verify('{"test": 2432232315}', specHeaders())).toEqual(bad);
    expect(specVerifier().verify(`${SPEC.body} `, specHeaders())).toEqual(bad);
    expect(specVerifier().verify(SPEC.body, specHeaders({ 'webhook-id': 'msg_other' }))).toEqual(
      bad,
    );
  });

  it('refuses a request without any one of the three headers as missing_headers', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const headers: Record<string, string> = specHeaders();
      delete headers[name];
      expect(specVerifier().verify(SPEC.body, headers), name).toEqual({
        ok: false,
        reason: 'missing_headers',
      });
      expect(specVerifier().verify(SPEC.body, { ...specHeaders(), [name]: '' })).toEqual({
        ok: false,
        reason: 'missing_headers',
      });
    }
  });

  it('refuses timestamps more than 5 minutes old or ahead, and unparsable ones, as bad_timestamp', () => {
    const badTimestamp = { ok: false, reason: 'bad_timestamp' };
    expect(specVerifier(300).verify(SPEC.body, specHeaders())).toMatchObject({ ok: true });
    expect(specVerifier(301).verify(SPEC.body, specHeaders())).toEqual(badTimestamp);
    expect(specVerifier(-300).verify(SPEC.body, specHeaders())).toMatchObject({ ok: true });
    expect(specVerifier(-301).verify(SPEC.body, specHeaders())).toEqual(badTimestamp);
    expect(specVerifier(86_400).verify(SPEC.body, specHeaders())).toEqual(badTimestamp);
    for (const timestamp of ['abc', '1e9', '-1614265330', `${SPEC.timestamp}abc`, ' 1614265330']) {
      const headers = specHeaders({ 'webhook-timestamp': timestamp });
      expect(specVerifier().verify(SPEC.body, headers), timestamp).toEqual(badTimestamp);
    }
  });

  it("agrees with the package's own verify() on the real clock", () => {
    const webhook = new Webhook(TEST_SECRET);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const body = '{"change_id": 1}';
    const cases = [
      { timestamp: `${nowSeconds}.25`, signedAt: nowSeconds, secret: TEST_SECRET },
      { timestamp: String(nowSeconds - 200), signedAt: nowSeconds - 200, secret: TEST_SECRET },
      { timestamp: String(nowSeconds - 400), signedAt: nowSeconds - 400, secret: TEST_SECRET },
      { timestamp: String(nowSeconds + 400), signedAt: nowSeconds + 400, secret: TEST_SECRET },
      { timestamp: String(nowSeconds), signedAt: nowSeconds, secret: SPEC.secret },
      { timestamp: String(nowSeconds), signedAt: nowSeconds - 1, secret: TEST_SECRET },
    ];
    const ours = createWebhookVerifier(TEST_SECRET);
    for (const { timestamp, signedAt, secret } of cases) {
      const headers = {
        'webhook-id': 'abc',
        'webhook-timestamp': timestamp,
        'webhook-signature': signWebhook(secret, 'abc', signedAt, body),
      };
      let isValid = true;
      try {
        webhook.verify(body, headers);
      } catch {
        isValid = false;
      }
      expect(ours.verify(body, headers).ok, JSON.stringify({ timestamp, signedAt })).toBe(isValid);
    }
  });
});

describe('checkWebhookSecret', () => {
  it('takes base64 with or without whsec_, and refuses anything else without quoting it', () => {
    for (const secret of [SPEC.secret, SPEC.secret.slice(6), TEST_SECRET, 'YQ==']) {
      expect(() => checkWebhookSecret(secret)).not.toThrow();
    }
    // 'hunter2', 'abcde' and the unpadded 'bm90IHBhZGRlZA' pass the package alone; Python's
    // b64decode (Weblate's) refuses them.
    const refused = ['whsec_', 'hunter2', 'abcde', 'bm90IHBhZGRlZA', 'abcd=', 'url-safe_chars__'];
    for (const secret of [...refused, 'with space=', 'whsec_whsec_YQ==']) {
      expect(() => checkWebhookSecret(secret), secret).toThrow(/^must be the webhook add-on/);
      try {
        checkWebhookSecret(secret);
      } catch (err) {
        expect((err as Error).message).not.toContain(secret.replace('whsec_', '') || '\0');
      }
    }
  });

  it('makes an unusable secret a ConfigError when the verifier is created', () => {
    expect(() => createWebhookVerifier('hunter2')).toThrow(ConfigError);
  });
});

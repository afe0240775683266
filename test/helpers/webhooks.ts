import { createHmac } from 'node:crypto';
import { request } from 'node:http';

/**
 * Sends webhooks the way Weblate's add-on does (weblate/addons/webhooks.py), independently of
 * the `standardwebhooks` package the receiver uses: node:crypto's HMAC, Python's `json.dumps`
 * formatting and a float `webhook-timestamp`.
 */

/** A secret as the add-on's form takes it: base64 of 32 bytes, with the whsec_ prefix. */
export const TEST_SECRET = `whsec_${Buffer.from('weblate-mirror webhook test key!').toString('base64')}`;

/** Python's `json.dumps(value)`, as the simulator's webhooks write it. */
export { pythonJson as pythonJsonDumps } from '../../src/simulator/webhooks.ts';

/** `v1,<base64 HMAC-SHA256(key, "<id>.<whole seconds>.<body>")>`, key = base64 of the secret. */
export function signWebhook(secret: string, id: string, seconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const digest = createHmac('sha256', key).update(`${id}.${Math.floor(seconds)}.${body}`);
  return `v1,${digest.digest('base64')}`;
}

/** Headers of one delivery; `timestamp` in (fractional) seconds, as Weblate sends it. */
export function webhookHeaders(options: {
  secret?: string;
  id: string;
  timestamp: number;
  body: string;
}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': options.id,
    // Python's str() of a float; a whole number still gets its ".0".
    'webhook-timestamp': Number.isInteger(options.timestamp)
      ? `${options.timestamp}.0`
      : String(options.timestamp),
    'webhook-signature': signWebhook(
      options.secret ?? TEST_SECRET,
      options.id,
      options.timestamp,
      options.body,
    ),
  };
}

/** A change as Weblate 5.14 posts it; `overrides` replace or add keys. */
export function weblateChange(
  changeId: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    change_id: changeId,
    action: 'Translation changed',
    timestamp: '2026-11-25T10:00:00.123456+00:00',
    target: ['Příliš žluťoučký kůň'],
    old: ['Prilis zlutoucky kun'],
    source: ['Too yellow a horse'],
    url: `https://weblate.example/translate/demo/app/cs/?checksum=${changeId}`,
    author: 'translator',
    user: 'translator',
    project: 'demo',
    component: 'app',
    translation: 'cs',
    ...overrides,
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A request through node:http, whose body is written chunk by chunk until the server answers
 * (what fetch cannot do: it sends the whole body before reading the answer).
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; chunks?: Iterable<Buffer> },
): Promise<RawResponse & { bytesSent: number }> {
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let hasAnswer = false;
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers });
    req.on('response', (res) => {
      hasAnswer = true;
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(parts).toString('utf8'),
          bytesSent,
        }),
      );
    });
    req.on('error', (err) => {
      if (!hasAnswer) reject(err);
    });
    const chunks = (options.chunks ?? [])[Symbol.iterator]();
    const writeNext = () => {
      if (hasAnswer || req.destroyed) return;
      const next = chunks.next();
      if (next.done === true) {
        req.end();
        return;
      }
      bytesSent += next.value.length;
      // One chunk at a time, so that an early answer stops the writing.
      req.write(next.value, () => setTimeout(writeNext, 1));
    };
    writeNext();
  });
}

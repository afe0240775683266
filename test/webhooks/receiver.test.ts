import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';

import type { WebhookEvent } from '../../src/webhooks/event.ts';
import { createWebhookMetrics } from '../../src/webhooks/metrics.ts';
import { createWebhookReceiver, type WebhookReceiver } from '../../src/webhooks/receiver.ts';
import type { HealthReport } from '../../src/worker/health.ts';
import { startHttpServer } from '../../src/worker/http-server.ts';
import { captureLogger } from '../helpers/logs.ts';
import {
  pythonJsonDumps,
  rawRequest,
  signWebhook,
  TEST_SECRET,
  webhookHeaders,
  weblateChange,
} from '../helpers/webhooks.ts';

/** The receiver's clock: Weblate's timestamps are set against it, not against the real one. */
const START = Date.parse('2026-11-25T10:00:00Z');

const HEALTHY: HealthReport = {
  healthy: true,
  reason: null,
  database: 'ok',
  lastSuccessfulSync: null,
  ageSeconds: null,
  maxAgeSeconds: 3600,
  lastRun: null,
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface ServeOptions {
  /** Events accept() holds before it answers false (default: no limit). */
  capacity?: number;
  /** False: the server has no webhook receiver. */
  hasReceiver?: boolean;
  maxRememberedIds?: number;
}

/** The worker's HTTP server with a receiver whose accept() collects events, on a loopback port. */
async function serve(options: ServeOptions = {}) {
  const registry = new Registry();
  const metrics = createWebhookMetrics(registry);
  const { log, lines } = captureLogger('trace');
  const accepted: WebhookEvent[] = [];
  const state = { capacity: options.capacity ?? Infinity, clock: START };
  const receiver: WebhookReceiver = createWebhookReceiver({
    secret: TEST_SECRET,
    log,
    metrics,
    now: () => state.clock,
    maxRememberedIds: options.maxRememberedIds,
    accept: (event) => {
      if (accepted.length >= state.capacity) return false;
      accepted.push(event);
      return true;
    },
  });
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    health: () => Promise.resolve(HEALTHY),
    registry,
    log,
    webhook: options.hasReceiver === false ? null : receiver,
  });
  closers.push(() => server.close());
  const endpoint = new URL('webhooks/weblate', server.url).href;

  const post = async (body: string, headers: Record<string, string>, method = 'POST') => {
    const response = await fetch(endpoint, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  };
  /** One delivery of change `changeId` as Weblate sends it, `timestamp` seconds from the clock. */
  const deliver = (
    changeId: number,
    options: { id?: string; offsetSeconds?: number; body?: string; secret?: string } = {},
  ) => {
    const body = options.body ?? pythonJsonDumps(weblateChange(changeId));
    const timestamp = state.clock / 1000 + (options.offsetSeconds ?? 0) + 0.123456;
    const id = options.id ?? idOf(changeId);
    return post(body, webhookHeaders({ id, timestamp, body, secret: options.secret }));
  };
  const metric = async (series: string) => {
    const text = await (await fetch(new URL('metrics', server.url))).text();
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  return { server, endpoint, receiver, accepted, lines, state, post, deliver, metric };
}

/** A change's UUID in hex, as Weblate's `webhook-id`. */
const idOf = (changeId: number) => changeId.toString(16).padStart(32, '0');

const warnings = (lines: string[]) =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 40);

describe('POST /webhooks/weblate', () => {
  it('queues a signed change at once: 202, and accept() gets the parsed event', async () => {
    const { deliver, accepted } = await serve();
    const response = await deliver(4711);
    expect(response.status).toBe(202);
    expect(JSON.parse(response.text)).toEqual({ status: 'accepted' });
    expect(accepted).toEqual([
      {
        id: idOf(4711),
        changeId: 4711,
        action: 'Translation changed',
        timestamp: '2026-11-25T10:00:00.123456+00:00',
        receivedAt: START,
        project: 'demo',
        component: 'app',
        language: 'cs',
        isRecognised: true,
      },
    ]);
  });

  it('verifies the bytes sent: a compact UTF-8 body (Weblate 2026) is accepted, a re-encoding is not', async () => {
    const { deliver, accepted } = await serve();
    const change = { ...weblateChange(4712), target: ['Öffnen — „Menü“ 🚪'], context: 'menu.open' };
    const compact = JSON.stringify(change);
    expect((await deliver(4712, { body: compact })).status).toBe(202);
    expect(accepted).toMatchObject([{ changeId: 4712, isRecognised: true }]);
    // The same payload as 5.14 writes it, under the signature of the compact bytes.
    const { post } = await serve();
    const timestamp = START / 1000 + 0.5;
    const headers = webhookHeaders({ id: idOf(4712), timestamp, body: compact });
    expect((await post(pythonJsonDumps(change), headers)).status).toBe(401);
  });

  it('accepts a signed body of another shape as an event that names nothing, with a warning', async () => {
    const { deliver, accepted, lines, metric } = await serve();
    const body = pythonJsonDumps({ change_id: 'x', project: 'demo' });
    expect((await deliver(1, { body })).status).toBe(202);
    expect(accepted).toMatchObject([{ changeId: null, project: null, isRecognised: false }]);
    expect(warnings(lines)).toMatchObject([
      {
        msg: 'webhook body not recognised; syncing every change',
        webhookId: idOf(1),
        problems: ['change_id: invalid_type', 'action: invalid_type', 'timestamp: invalid_type'],
      },
    ]);
    expect(await metric('weblate_mirror_webhook_unrecognised_bodies_total')).toBe(1);
    expect(await metric('weblate_mirror_webhook_events_accepted_total')).toBe(1);
  });

  it('answers 401 to a missing or wrong signature and to a timestamp outside 5 minutes', async () => {
    const { deliver, post, accepted } = await serve();
    const body = pythonJsonDumps(weblateChange(1));
    const headers = webhookHeaders({ id: idOf(1), timestamp: START / 1000, body });
    const unsigned = { ...headers };
    delete unsigned['webhook-signature'];
    const refusals = [
      [await post(body, unsigned), 'missing_headers'],
      [
        await deliver(1, { secret: `whsec_${Buffer.from('another key').toString('base64')}` }),
        'bad_signature',
      ],
      [await post(body.replace('"cs"', '"de"'), headers), 'bad_signature'],
      [await deliver(1, { offsetSeconds: -302 }), 'bad_timestamp'],
      [await deliver(1, { offsetSeconds: 301 }), 'bad_timestamp'],
      [await post(body, { ...headers, 'webhook-timestamp': 'now' }), 'bad_timestamp'],
    ] as const;
    for (const [response, reason] of refusals) {
      expect(response.status, reason).toBe(401);
      expect(JSON.parse(response.text)).toEqual({ status: 'rejected', reason });
    }
    expect(accepted).toEqual([]);
    // Within the tolerance either way.
    expect((await deliver(2, { offsetSeconds: -299 })).status).toBe(202);
    expect((await deliver(3, { offsetSeconds: 299 })).status).toBe(202);
  });

  it('answers 200 to a replayed id without queueing it again, until its timestamp runs out', async () => {
    const { deliver, accepted, state, receiver } = await serve();
    expect((await deliver(7)).status).toBe(202);
    const replayed = await deliver(7);
    expect(replayed.status).toBe(200);
    expect(JSON.parse(replayed.text)).toEqual({ status: 'ignored', reason: 'replayed' });
    // Weblate's retry signs the same id anew, later.
    state.clock += 200_000;
    expect((await deliver(7)).status).toBe(200);
    expect(accepted).toHaveLength(1);
    expect(receiver.rememberedIds()).toBe(1);
    // Once the first timestamp is out of the tolerance, the id is forgotten: a new delivery of
    // it (which must carry a fresh timestamp) is queued again.
    state.clock += 101_000;
    expect((await deliver(7)).status).toBe(202);
    expect(accepted).toHaveLength(2);
  });

  it('answers 400 to a signed body that is not JSON', async () => {
    const { deliver, accepted } = await serve();
    const response = await deliver(1, { body: 'change_id=1&project=demo' });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toEqual({ status: 'rejected', reason: 'not_json' });
    expect(accepted).toEqual([]);
  });

  it('answers 413 at once to a Content-Length over the limit, reading none of the body', async () => {
    const { endpoint, accepted } = await serve();
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const response = await rawRequest(endpoint, {
      headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
      chunks: Array.from({ length: 160 }, () => chunk),
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text)).toEqual({ status: 'rejected', reason: 'too_large' });
    // The answer came before the body: what was on its way meanwhile (a busy machine lets
    // the sender write on a while) is far from the 10 MiB announced.
    expect(response.bytesSent).toBeLessThan(2 * 1024 * 1024);
    expect(accepted).toEqual([]);
  });

  it('answers 413 to a chunked body as soon as it passes the limit', async () => {
    const { endpoint } = await serve();
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const response = await rawRequest(endpoint, {
      headers: { 'content-type': 'application/json' },
      chunks: Array.from({ length: 640 }, () => chunk),
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text)).toEqual({ status: 'rejected', reason: 'too_large' });
    // 256 KiB, plus what was in flight when the answer came: far from the 10 MiB offered.
    expect(response.bytesSent).toBeGreaterThan(256 * 1024);
    expect(response.bytesSent).toBeLessThan(2 * 1024 * 1024);
  });

  it('answers 429 with Retry-After when the queue is full, and takes the same id once there is room', async () => {
    const { deliver, accepted, state } = await serve({ capacity: 1 });
    expect((await deliver(1)).status).toBe(202);
    const full = await deliver(2);
    expect(full.status).toBe(429);
    expect(full.headers.get('retry-after')).toBe('10');
    expect(JSON.parse(full.text)).toEqual({ status: 'rejected', reason: 'queue_full' });
    state.capacity = 2;
    state.clock += 10_000;
    expect((await deliver(2)).status).toBe(202);
    expect(accepted.map((e) => e.changeId)).toEqual([1, 2]);
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const { endpoint } = await serve();
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(endpoint, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('does not exist without a receiver: 404 for every method; /healthz and /metrics unchanged', async () => {
    const { server, endpoint, deliver } = await serve({ hasReceiver: false });
    const response = await deliver(1);
    expect(response.status).toBe(404);
    expect(response.text).toBe('not found: try /healthz or /metrics\n');
    expect((await fetch(endpoint)).status).toBe(404);
    expect((await fetch(new URL('healthz', server.url))).status).toBe(200);
    expect((await fetch(new URL('metrics', server.url), { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(new URL('healthz', server.url), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('names the endpoint in its 404 when it has one', async () => {
    const { server } = await serve();
    const response = await fetch(new URL('nope', server.url));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(
      'not found: try /healthz, /metrics or POST /webhooks/weblate\n',
    );
  });

  it('counts each rejection reason in /metrics and logs each once at warn, never the secret', async () => {
    const { deliver, post, endpoint, metric, lines } = await serve({ capacity: 1 });
    const body = pythonJsonDumps(weblateChange(1));
    const headers = webhookHeaders({ id: idOf(1), timestamp: START / 1000, body });
    const sent = headers['webhook-signature'] ?? '';
    await deliver(1); // accepted
    await deliver(1); // replayed
    await post(body, { 'webhook-id': idOf(9) }); // missing_headers
    await deliver(2, { secret: `whsec_${Buffer.from('wrong').toString('base64')}` }); // bad_signature
    await deliver(3, { offsetSeconds: -3600 }); // bad_timestamp
    await deliver(4, { body: '<xml/>' }); // not_json
    await deliver(5); // queue_full
    await fetch(endpoint); // method
    await rawRequest(endpoint, {
      headers: { 'content-length': String(1024 * 1024) },
      chunks: [Buffer.alloc(1024)],
    }); // too_large
    for (const reason of [
      'replayed',
      'missing_headers',
      'bad_signature',
      'bad_timestamp',
      'not_json',
      'queue_full',
      'method',
      'too_large',
    ]) {
      expect(
        await metric(`weblate_mirror_webhook_events_rejected_total{reason="${reason}"}`),
        reason,
      ).toBe(1);
    }
    expect(await metric('weblate_mirror_webhook_events_received_total')).toBe(9);
    expect(await metric('weblate_mirror_webhook_events_accepted_total')).toBe(1);
    expect(await metric('weblate_mirror_webhook_syncs_total{status="skipped"}')).toBe(0);
    expect(await metric('weblate_mirror_webhook_queued_events')).toBe(0);
    expect(await metric('weblate_mirror_webhook_freshness_lag_seconds_count')).toBe(0);

    const rejections = warnings(lines);
    expect(rejections.map((l) => l.reason)).toEqual([
      'replayed',
      'missing_headers',
      'bad_signature',
      'bad_timestamp',
      'not_json',
      'queue_full',
      'method',
      'too_large',
    ]);
    for (const line of rejections) {
      expect(line.msg).toBe('webhook rejected');
      expect(line.remote).toMatch(/127\.0\.0\.1/);
      expect(line).toHaveProperty('webhookId');
    }
    expect(rejections[0]).toMatchObject({ webhookId: idOf(1) });
    expect(rejections.find((l) => l.reason === 'method')).toMatchObject({ webhookId: null });
    const log = lines.join('\n');
    const bareSecret = TEST_SECRET.slice('whsec_'.length);
    expect(log).not.toContain(bareSecret);
    expect(log).not.toContain(Buffer.from(bareSecret, 'base64').toString('utf8'));
    expect(log).not.toContain(sent.slice(3));
    expect(log).not.toContain(signWebhook(TEST_SECRET, idOf(5), START / 1000, body).slice(3));
  });

  it('stays bounded under a flood: exactly as many accepted as the queue holds, the rest 429', async () => {
    const capacity = 150;
    const total = 4 * capacity;
    const { deliver, accepted, receiver } = await serve({ capacity });
    // A bound on time only against a hang: a busy machine may take minutes for the flood.
    const deadline = Date.now() + 240_000;
    const statuses = new Map<number, number>();
    let sent = 0;
    const sender = async () => {
      while (sent < total && Date.now() < deadline) {
        const { status } = await deliver(++sent);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 16 }, sender));
    expect(sent).toBe(total);
    expect(Object.fromEntries(statuses)).toEqual({ 202: capacity, 429: total - capacity });
    expect(accepted).toHaveLength(capacity);
    expect(new Set(accepted.map((e) => e.id)).size).toBe(capacity);
    // Only queued ids are remembered.
    expect(receiver.rememberedIds()).toBe(capacity);
  });

  it('remembers at most maxRememberedIds ids', async () => {
    const { deliver, accepted, receiver } = await serve({ maxRememberedIds: 50 });
    for (let changeId = 1; changeId <= 300; changeId++) await deliver(changeId);
    expect(accepted).toHaveLength(300);
    expect(receiver.rememberedIds()).toBe(50);
    // The newest are still known; the oldest were let go (their retry would be queued again).
    expect((await deliver(300)).status).toBe(200);
    expect((await deliver(1)).status).toBe(202);
  });
});

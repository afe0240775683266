import { afterEach, describe, expect, it } from 'vitest';

import { createChannel } from '../../../src/watch/channels/index.ts';
import type { ChannelSpec } from '../../../src/watch/model.ts';
import { createWebhookVerifier } from '../../../src/webhooks/verify.ts';
import { captureLogger } from '../../helpers/logs.ts';
import { freePort } from '../../helpers/ports.ts';
import { TEST_SECRET } from '../../helpers/webhooks.ts';
import { digestMessage, eventMessage, hostileEvent } from './fixtures.ts';
import { type HttpReceiver, startHttpReceiver } from './receivers.ts';

const NOW = Date.parse('2026-11-25T10:00:05.000Z');
const OTHER_SECRET = `whsec_${Buffer.from('another secret, not the channel').toString('base64')}`;

let receiver: HttpReceiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

async function receive(statuses: Array<[number, string, Record<string, string>?]>) {
  receiver = await startHttpReceiver((n, _request, response) => {
    const [status, body, headers] = statuses[Math.min(n, statuses.length) - 1]!;
    response.writeHead(status, { 'content-type': 'text/plain', ...headers });
    response.end(body);
  });
  return receiver;
}

const fast = { attempts: 3, backoffMs: 0, timeoutMs: 5_000, now: () => NOW };

describe('the generic webhook', () => {
  it('posts the versioned body, signed so that Weblate-style verification accepts it', async () => {
    const r = await receive([[204, '']]);
    const spec: ChannelSpec = { name: 'ops', type: 'webhook', url: r.url, secret: TEST_SECRET };
    const result = await createChannel(spec, fast).send(eventMessage());
    expect(result).toEqual({ ok: true });
    expect(r.requests).toHaveLength(1);
    const [request] = r.requests;
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/^weblate-mirror\//);
    const event = hostileEvent();
    expect(JSON.parse(request!.body)).toEqual({
      version: 1,
      type: 'alert.fired',
      key: event.key,
      sent_at: '2026-11-25T10:00:05.000Z',
      event: {
        key: event.key,
        alert_key: event.alertKey,
        type: 'fired',
        rule: 'ready-90',
        rule_type: 'readiness',
        occurred_at: event.occurredAt,
        title: event.title,
        project: event.project,
        language: 'de',
        figures: event.figures,
        url: event.url,
        data_as_of: event.dataAsOf,
      },
    });
    expect(request!.headers['webhook-id']).toBe(event.key);
    expect(request!.headers['webhook-timestamp']).toBe(String(NOW / 1000));
    const verified = createWebhookVerifier(TEST_SECRET, { now: () => NOW }).verify(
      request!.body,
      request!.headers,
    );
    expect(verified).toEqual({ ok: true, id: event.key, timestampSeconds: NOW / 1000 });
    const forged = createWebhookVerifier(OTHER_SECRET, { now: () => NOW }).verify(
      request!.body,
      request!.headers,
    );
    expect(forged).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('posts a digest with its document, subject and text, keyed by the digest', async () => {
    const r = await receive([[200, 'ok']]);
    const spec: ChannelSpec = { name: 'ops', type: 'webhook', url: r.url, secret: null };
    expect(await createChannel(spec, fast).send(digestMessage())).toEqual({ ok: true });
    const { digest } = digestMessage() as Extract<
      ReturnType<typeof digestMessage>,
      { kind: 'digest' }
    >;
    expect(JSON.parse(r.requests[0]!.body)).toEqual({
      version: 1,
      type: 'digest',
      key: digest.key,
      sent_at: '2026-11-25T10:00:05.000Z',
      subject: digest.subject,
      text: digest.text,
      digest: digest.document,
    });
    expect(r.requests[0]!.headers['webhook-signature']).toBeUndefined();
  });

  it('tries again after HTTP 500 and delivers', async () => {
    const r = await receive([
      [500, 'database down'],
      [200, 'ok'],
    ]);
    const { log, lines } = captureLogger();
    const spec: ChannelSpec = { name: 'ops', type: 'webhook', url: r.url, secret: TEST_SECRET };
    expect(await createChannel(spec, { ...fast, log }).send(eventMessage())).toEqual({ ok: true });
    expect(r.requests).toHaveLength(2);
    // Both tries carry the same id: the receiver dedupes a retry that did arrive.
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([
      hostileEvent().key,
      hostileEvent().key,
    ]);
    expect(lines.join('\n')).toContain('channel send failed, retrying');
  });

  it('honours Retry-After and reports the last answer after every try', async () => {
    const r = await receive([[503, 'busy', { 'retry-after': '0' }]]);
    const spec: ChannelSpec = { name: 'ops', type: 'webhook', url: r.url, secret: null };
    const result = await createChannel(spec, fast).send(eventMessage());
    expect(result).toEqual({
      ok: false,
      retryable: true,
      error:
        'channel ops: the receiver at 127.0.0.1:' +
        new URL(r.url).port +
        " answered HTTP 503 (busy): check the receiver's state and logs (3 attempts)",
    });
    expect(r.requests).toHaveLength(3);
  });

  it('does not try again after HTTP 404, and names the host but not the token in the path', async () => {
    const r = await receive([[404, 'no_service']]);
    const spec: ChannelSpec = { name: 'ops', type: 'webhook', url: r.url, secret: null };
    const result = await createChannel(spec, fast).send(eventMessage());
    expect(result.ok).toBe(false);
    expect(r.requests).toHaveLength(1);
    if (result.ok) return;
    expect(result.retryable).toBe(false);
    expect(result.error).toContain(
      `channel ops: the receiver at ${new URL(r.url).host} answered HTTP 404 (no_service)`,
    );
    expect(result.error).not.toContain('secret-token');
    expect(result.error).not.toContain('\n');
  });

  it('gives up after every try times out, retryable', async () => {
    receiver = await startHttpReceiver(() => undefined);
    const spec: ChannelSpec = { name: 'ops', type: 'webhook', url: receiver.url, secret: null };
    const result = await createChannel(spec, { ...fast, attempts: 2, timeoutMs: 200 }).send(
      eventMessage(),
    );
    expect(result).toEqual({
      ok: false,
      retryable: true,
      error: `channel ops: no answer from the receiver at ${new URL(receiver.url).host} within 0.2 s: check that it is up and answers in time (2 attempts)`,
    });
    expect(receiver.requests).toHaveLength(2);
  });

  it('reports an unreachable receiver in one retryable line', async () => {
    const port = await freePort();
    const spec: ChannelSpec = {
      name: 'ops',
      type: 'webhook',
      url: `http://127.0.0.1:${port}/hook`,
      secret: null,
    };
    const result = await createChannel(spec, { ...fast, attempts: 1 }).send(eventMessage());
    expect(result).toEqual({
      ok: false,
      retryable: true,
      error: `channel ops: cannot connect to the receiver at 127.0.0.1:${port} (connection refused): check the URL's host and port, and that the receiver is up`,
    });
  });

  it('stops trying when its signal aborts', async () => {
    const r = await receive([[500, 'down']]);
    const controller = new AbortController();
    const spec: ChannelSpec = { name: 'ops', type: 'webhook', url: r.url, secret: null };
    const channel = createChannel(spec, {
      ...fast,
      attempts: 5,
      backoffMs: 60_000,
      signal: controller.signal,
    });
    const sending = channel.send(eventMessage());
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const result = await sending;
    expect(result.ok).toBe(false);
    expect(r.requests.length).toBeLessThan(5);
  });
});

describe('Slack and Mattermost', () => {
  it('posts Slack blocks with the title, fields and a button, names escaped', async () => {
    const r = await receive([[200, 'ok']]);
    const spec: ChannelSpec = { name: 'team', type: 'slack', url: r.url };
    expect(await createChannel(spec, fast).send(eventMessage())).toEqual({ ok: true });
    const body = JSON.parse(r.requests[0]!.body) as {
      text: string;
      blocks: Array<Record<string, unknown>>;
    };
    expect(body.blocks.map((b) => b.type)).toEqual(['section', 'section', 'actions', 'context']);
    const json = JSON.stringify(body);
    expect(body.text).toContain('evil&lt;b&gt;&amp;co');
    expect(body.text).toContain('&lt;!channel&gt; &lt;https://evil.example|click&gt;');
    expect(body.text).toContain('Příliš žluťoučký 🐎');
    expect(json).not.toMatch(/<!channel>|<https:\/\/evil|<b>/);
    expect(JSON.stringify(body.blocks[1])).toContain('*translated percent*\\n90.1');
    expect(JSON.stringify(body.blocks[1])).toContain('12345678901234567890');
    expect(body.blocks[2]).toEqual({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Open in Weblate' },
          url: 'https://weblate.example/projects/evil/-/de/',
        },
      ],
    });
    expect(JSON.stringify(body.blocks[3])).toContain('data as of 2026-11-25T09:58:00.000001Z');
  });

  it('posts a digest to Slack as its blocks, with the subject as text', async () => {
    const r = await receive([[200, 'ok']]);
    const spec: ChannelSpec = { name: 'team', type: 'slack', url: r.url };
    expect(await createChannel(spec, fast).send(digestMessage())).toEqual({ ok: true });
    const message = digestMessage() as Extract<
      ReturnType<typeof digestMessage>,
      { kind: 'digest' }
    >;
    expect(JSON.parse(r.requests[0]!.body)).toEqual({
      text: message.digest.subject,
      blocks: message.digest.blocks,
    });
  });

  it.each([
    [403, 'invalid_token', 'check the webhook URL: its token was refused'],
    [400, 'invalid_payload', 'check that the URL is the right kind of hook and takes this format'],
    [404, 'no_service', 'check the URL: there is no hook there'],
  ])('does not retry Slack answering %i %s', async (status, answer, hint) => {
    const r = await receive([[status, answer]]);
    const spec: ChannelSpec = { name: 'team', type: 'slack', url: r.url };
    const result = await createChannel(spec, fast).send(eventMessage());
    expect(r.requests).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, retryable: false });
    if (result.ok) return;
    expect(result.error).toContain(
      `channel team: Slack at ${new URL(r.url).host} answered HTTP ${status} (${answer}): ${hint}`,
    );
  });

  it('posts Mattermost Markdown, names escaped and no blocks', async () => {
    const r = await receive([[200, 'ok']]);
    const spec: ChannelSpec = { name: 'mm', type: 'mattermost', url: r.url };
    expect(await createChannel(spec, fast).send(eventMessage())).toEqual({ ok: true });
    const body = JSON.parse(r.requests[0]!.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['text']);
    const text = body.text as string;
    expect(text).toContain('**Fired:**');
    expect(text).toContain('\\[x\\]\\(https://evil.example)');
    expect(text).toContain('evil\\<b\\>&co');
    expect(text).toContain('[Open in Weblate](https://weblate.example/projects/evil/-/de/)');
    expect(text).toContain('Příliš žluťoučký 🐎');
  });

  it('posts a digest to Mattermost as Markdown: the subject in bold, then the text', async () => {
    const r = await receive([[200, 'ok']]);
    const spec: ChannelSpec = { name: 'mm', type: 'mattermost', url: r.url };
    expect(await createChannel(spec, fast).send(digestMessage())).toEqual({ ok: true });
    expect(JSON.parse(r.requests[0]!.body)).toEqual({
      text: '**Weblate week 2026\\-11\\-23 – 2026\\-11\\-29: 3 languages moved**\n\nMoved\n\\- de: \\+12 strings\n',
    });
  });
});

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, describe, expect, it } from 'vitest';

import { parseWebhookFlags } from '../../src/cli/commands/simulate.ts';
import { UsageError } from '../../src/errors.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { parseWebhookEvent } from '../../src/webhooks/event.ts';
import { createWebhookVerifier } from '../../src/webhooks/verify.ts';

const SECRET = 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver that keeps what it is sent and answers `status`. */
async function receiver(status = 202) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${port}/webhooks/weblate`, received };
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function simulator(): Promise<RunningSimulator> {
  const sim = await startSimulator({ seed: 5, projects: 1, components: 2, languages: 2, users: 1 });
  cleanups.push(() => sim.close());
  return sim;
}

function translatedUnit(sim: RunningSimulator) {
  const { index } = sim.instance;
  return sim.instance.units.find(
    (u) => u.state === 20 && index.translationById.get(u.translationId)?.isSource === false,
  )!;
}

describe("the simulator's webhooks", () => {
  it('posts each change as Weblate 5.14 does: signed, Python-formatted, naming its scope', async () => {
    const sim = await simulator();
    const { url, received } = await receiver();
    sim.setWebhook({ url, secret: SECRET });
    const unit = translatedUnit(sim);
    const { changeIds } = sim.mutate.editUnits([unit.id], { target: ['Grüße ✓'] });
    await sim.webhooksIdle();
    expect(received).toHaveLength(changeIds.length);
    const [first] = received;
    const { headers, body } = first!;
    expect(headers['webhook-id']).toMatch(/^[0-9a-f]{32}$/);
    // Python's str() of a float.
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}\.\d{1,6}$/);
    expect(createWebhookVerifier(SECRET).verify(body, headers)).toMatchObject({ ok: true });
    // json.dumps: ", " and ": " separators, non-ASCII escaped.
    expect(body).toMatch(/^\{"change_id": \d+, "action": "/);
    expect(body).toContain('"Gr\\u00fc\\u00dfe \\u2713"');
    expect(/^[\x20-\x7e]*$/.test(body)).toBe(true);
    const { index } = sim.instance;
    const translation = index.translationById.get(unit.translationId)!;
    const component = index.componentById.get(translation.componentId)!;
    const parsed = parseWebhookEvent(body, { id: 'x', receivedAt: 0 });
    expect(parsed.kind).toBe('recognised');
    expect(parsed.kind === 'not_json' ? null : parsed.event).toMatchObject({
      changeId: changeIds[0],
      project: index.projectById.get(component.projectId)!.slug,
      component: component.slug,
      language: index.languageById.get(translation.languageId)!.code,
    });
    const payload = JSON.parse(body) as Record<string, unknown>;
    expect(payload.target).toEqual(['Grüße ✓']);
    expect(payload.timestamp).toMatch(/\+00:00$/);
    const deliveries = sim.webhookDeliveries();
    expect(deliveries).toMatchObject({ delivered: changeIds.length, failed: 0, dropped: 0 });
    expect(deliveries.answerMs).toHaveLength(changeIds.length);
  });

  it('sends only the events asked for, and counts deliveries that fail', async () => {
    const sim = await simulator();
    const quiet = await receiver();
    // 71: a string added; an edit (2 or 5) is not sent.
    sim.setWebhook({ url: quiet.url, secret: SECRET, events: [71] });
    sim.mutate.editUnits([translatedUnit(sim).id]);
    await sim.webhooksIdle();
    expect(quiet.received).toEqual([]);
    const failing = await receiver(500);
    sim.setWebhook({ url: failing.url, secret: SECRET });
    sim.mutate.editUnits([translatedUnit(sim).id]);
    await sim.webhooksIdle();
    expect(failing.received.length).toBeGreaterThan(0);
    expect(sim.webhookDeliveries().failed).toBe(failing.received.length);
    sim.setWebhook(null);
    const before = sim.webhookDeliveries();
    sim.mutate.editUnits([translatedUnit(sim).id]);
    await sim.webhooksIdle();
    expect(sim.webhookDeliveries()).toEqual(before);
  });

  it('takes its URL and secret from `simulate` flags, both or neither', () => {
    expect(parseWebhookFlags({})).toEqual({});
    expect(
      parseWebhookFlags({
        'webhook-url': 'http://127.0.0.1:9464/webhooks/weblate',
        'webhook-secret': SECRET,
      }),
    ).toEqual({ webhook: { url: 'http://127.0.0.1:9464/webhooks/weblate', secret: SECRET } });
    expect(() => parseWebhookFlags({ 'webhook-url': 'http://127.0.0.1/' })).toThrow(UsageError);
    expect(() =>
      parseWebhookFlags({ 'webhook-url': 'ftp://example/', 'webhook-secret': SECRET }),
    ).toThrow(/http\(s\) URL/);
    expect(() =>
      parseWebhookFlags({ 'webhook-url': 'http://127.0.0.1/', 'webhook-secret': 'not base64!' }),
    ).toThrow(/--webhook-secret/);
  });
});

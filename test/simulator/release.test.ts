import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { parseRelease, type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 12, units: 600, changes: 900, users: 3 });
});
afterAll(async () => {
  await sim.close();
});
afterEach(() => {
  sim.setCompat({});
  sim.setWebhook(null);
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${sim.url}api/${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface Listed {
  results: Array<Record<string, unknown>>;
}

/** A user with a subscription of `scope` (30 project, 40 component). */
function subscriber(scope: number) {
  for (const user of sim.instance.users) {
    const subscription = user.subscriptions.find((s) => s.scope === scope);
    if (subscription !== undefined) return { user, subscription };
  }
  throw new Error(`no subscription of scope ${scope} in the generated data`);
}

describe('the release the simulator answers as', () => {
  it('is read from a release number', () => {
    expect(['5.14.3', '5.15', '2026.10.1', '2026', '6.0'].map(parseRelease)).toEqual([
      '5.14',
      '5.15',
      '2026',
      '2026',
      null,
    ]);
  });

  it('links a subscription’s project or component from 5.15, and nests it before', async () => {
    for (const scope of [30, 40]) {
      const { user, subscription } = subscriber(scope);
      const field = scope === 30 ? 'project' : 'component';
      const find = async () =>
        (
          (await get(`users/${user.username}/notifications/`)).body as unknown as Listed
        ).results.find((r) => r.id === subscription.id)!;
      const nested = (await find())[field] as Record<string, unknown>;
      expect(typeof nested.url).toBe('string');
      sim.setCompat({ release: '5.15' });
      const linked = await find();
      expect(linked[field]).toBe(nested.url);
      expect(linked[scope === 30 ? 'component' : 'project']).toBeNull();
      sim.setCompat({});
    }
  });

  it('sends the unit fields of 2026, and whether a unit was translated automatically', async () => {
    const [automatic, edited] = sim.instance.units.filter(
      (u) => u.state === 20 && !sim.instance.index.translationById.get(u.translationId)!.isSource,
    );
    sim.mutate.editUnits([automatic!.id], { automatic: true });
    sim.mutate.editUnits([edited!.id]);
    const before = (await get(`units/${automatic!.id}/`)).body;
    expect(before).not.toHaveProperty('automatically_translated');
    sim.setCompat({ release: '2026' });
    const unit = (await get(`units/${automatic!.id}/`)).body;
    expect(unit).toMatchObject({
      ...before,
      tbx_terms: {},
      translation_parent: null,
      effective_source: before.source,
      effective_previous_source: [before.previous_source],
      automatically_translated: true,
    });
    expect(unit.screenshots_url).toBe(`${sim.url}api/units/${automatic!.id}/screenshots/`);
    expect((await get(`units/${edited!.id}/`)).body.automatically_translated).toBe(false);
    // A person's edit after the automatic one.
    sim.mutate.editUnits([automatic!.id]);
    expect((await get(`units/${automatic!.id}/`)).body.automatically_translated).toBe(false);
  });

  it('sends the change and project fields of 2026', async () => {
    const change = sim.instance.changes[0]!;
    const project = sim.instance.projects[0]!;
    const before = (await get(`projects/${project.slug}/`)).body;
    expect(before).toHaveProperty('set_language_team');
    expect(before).toHaveProperty('credits_url');
    sim.setCompat({ release: '2026' });
    expect((await get(`changes/${change.id}/`)).body).toMatchObject({ addon: null, alert: null });
    const after = (await get(`projects/${project.slug}/`)).body;
    expect(after).not.toHaveProperty('set_language_team');
    expect(after).not.toHaveProperty('credits_url');
    expect(after.workspace).toBeNull();
    expect(after.reports_url).toBe(`${sim.url}api/projects/${project.slug}/reports/`);
  });

  it('refuses an Authorization header of another scheme from 2026, and serves it before', async () => {
    const basic = { authorization: 'Basic dXNlcjpwYXNz' };
    expect((await get('projects/', basic)).status).toBe(200);
    sim.setCompat({ release: '2026' });
    expect(await get('projects/', basic)).toEqual({
      status: 401,
      body: {
        type: 'client_error',
        errors: [
          {
            code: 'authentication_failed',
            detail: 'Unsupported authentication scheme. Use Token or Bearer.',
            attr: null,
          },
        ],
      },
    });
    expect((await get('projects/', { authorization: 'Token anything' })).status).toBe(200);
    expect((await get('projects/')).status).toBe(200);
  });
});

describe('webhooks of the release', () => {
  const SECRET = Buffer.alloc(32, 7).toString('base64');

  /** A receiver that keeps each body as bytes with its headers. */
  async function receiver() {
    const received: Array<{ body: Buffer; headers: IncomingMessage['headers'] }> = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ body: Buffer.concat(chunks), headers: request.headers });
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  /** Edits a unit to a text outside ASCII and returns the body its webhook carried. */
  async function editAndReceive(release: '5.14' | '2026') {
    const hook = await receiver();
    try {
      sim.setCompat({ release });
      sim.setWebhook({ url: hook.url, secret: SECRET, events: [2, 5] });
      const unit = sim.instance.units.find(
        (u) => u.state === 20 && !sim.instance.index.translationById.get(u.translationId)!.isSource,
      )!;
      sim.mutate.editUnits([unit.id], { target: 'Öffnen — „Menü“ 🚪' });
      await sim.webhooksIdle();
      expect(hook.received.length).toBeGreaterThan(0);
      return { unit, ...hook.received.at(-1)! };
    } finally {
      await hook.close();
    }
  }

  function signatureOf(id: string, timestamp: string, body: Buffer): string {
    const key = Buffer.from(SECRET, 'base64');
    const signed = Buffer.concat([Buffer.from(`${id}.${Math.floor(Number(timestamp))}.`), body]);
    return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  }

  it('are compact UTF-8 with the unit’s context from 2026, signed over the bytes sent', async () => {
    const { unit, body, headers } = await editAndReceive('2026');
    const text = body.toString('utf8');
    expect(text).toContain('Öffnen — „Menü“ 🚪');
    expect(text).not.toContain(', "');
    const payload = JSON.parse(text) as Record<string, unknown>;
    expect(JSON.stringify(payload)).toBe(text);
    expect(payload.context).toBe(unit.context);
    const id = String(headers['webhook-id']);
    expect(headers['webhook-signature']).toBe(
      signatureOf(id, String(headers['webhook-timestamp']), body),
    );
  });

  it('are Python’s json.dumps, ASCII only, before', async () => {
    const { body } = await editAndReceive('5.14');
    const text = body.toString('utf8');
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(text).toContain('\\u00d6ffnen');
    expect(text).toContain('", "');
    expect(JSON.parse(text)).not.toHaveProperty('context');
  });
});

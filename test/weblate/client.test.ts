import { afterEach, describe, expect, it } from 'vitest';

import { AuthError, HttpError, ResponseError } from '../../src/errors.ts';
import type { WeblateClient } from '../../src/weblate/client.ts';
import { createTestClient, readList } from '../helpers/client.ts';
import { captureLogger } from '../helpers/logs.ts';
import {
  type Handler,
  type ScriptedServer,
  sendJson,
  startScriptedServer,
} from '../helpers/scripted-server.ts';

const TOKEN = 'wlu_TopSecretToken123';
const servers: ScriptedServer[] = [];

async function serve(handler: Handler): Promise<ScriptedServer> {
  const server = await startScriptedServer(handler);
  servers.push(server);
  return server;
}

function clientFor(
  server: ScriptedServer,
  log = captureLogger().log,
  maxAttempts = 4,
): WeblateClient {
  return createTestClient(server.url, {
    token: TOKEN,
    log,
    maxAttempts,
    timeoutMs: 5000,
    retryBaseMs: 5,
  });
}

async function collect(client: WeblateClient, path: string, pageSize = 1000): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const page of readList(client, path, { resource: 'things', pageSize }))
    items.push(...page.results);
  return items;
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('WeblateClient', () => {
  it('sends the token and asks for JSON, dropping format=api', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const client = clientFor(server);
    const response = await client.getJson('projects/?format=api', 'projects');
    expect(response.value).toEqual({ ok: true });
    expect(server.requests[0]?.url).toBe('/api/projects/');
    expect(server.requests[0]?.headers.authorization).toBe(`Token ${TOKEN}`);
    expect(server.requests[0]?.headers.accept).toBe('application/json');
    await client.close();
  });

  it('retries server errors and broken bodies, then succeeds', async () => {
    const answers: Array<(res: Parameters<Handler>[1]) => void> = [
      (res) =>
        sendJson(res, 500, {
          type: 'server_error',
          errors: [{ code: 'error', detail: 'boom', attr: null }],
        }),
      (res) => sendJson(res, 502, '<html>Bad gateway</html>', { 'content-type': 'text/html' }),
      (res) => sendJson(res, 200, '{"count": 1, "results": [{"id": 1}'),
      (res) => sendJson(res, 200, { value: 1 }),
    ];
    const server = await serve((_req, res) => answers.shift()!(res));
    const client = clientFor(server);
    expect((await client.getJson('x/', 'things')).value).toEqual({ value: 1 });
    expect(client.stats.get('things')).toMatchObject({ requests: 4, retries: 3 });
    await client.close();
  });

  it('honours Retry-After of a 429 before trying again', async () => {
    let calls = 0;
    const server = await serve((_req, res) => {
      calls++;
      if (calls === 1) {
        sendJson(
          res,
          429,
          {
            type: 'client_error',
            errors: [{ code: 'throttled', detail: 'slow down', attr: null }],
          },
          { 'retry-after': '0.3' },
        );
      } else {
        sendJson(res, 200, { ok: true });
      }
    });
    const client = clientFor(server);
    const started = Date.now();
    await client.getJson('x/', 'things');
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(calls).toBe(2);
    await client.close();
  });

  it('gives up after the configured attempts with a message naming the URL and the error', async () => {
    const server = await serve((_req, res) => sendJson(res, 503, { detail: 'maintenance' }));
    const client = clientFor(server, undefined, 3);
    const error = await client.getJson('units/?q=x', 'units').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toMatch(
      /^units: GET http:\/\/127\.0\.0\.1:\d+\/api\/units\/\?q=x failed after 3 attempts: answered 503 \(maintenance\); Weblate, or a proxy in front of it, kept failing: see its logs, then sync again \(it resumes where this run stopped\)$/,
    );
    expect(server.requests).toHaveLength(3);
    await client.close();
  });

  it('stops at once on 401 and 403, reading both error shapes', async () => {
    const server = await serve((req, res) => {
      if (req.url.startsWith('/api/a/')) {
        sendJson(res, 401, {
          type: 'client_error',
          errors: [{ code: 'authentication_failed', detail: 'Invalid token.', attr: null }],
        });
      } else {
        sendJson(res, 403, { detail: 'You do not have permission to perform this action.' });
      }
    });
    const client = clientFor(server);
    const unauthorized = await client.getJson('a/', 'projects').catch((err: unknown) => err);
    expect(unauthorized).toBeInstanceOf(AuthError);
    expect((unauthorized as Error).message).toContain('authentication_failed: Invalid token.');
    expect((unauthorized as Error).message).toContain('check WEBLATE_TOKEN');
    const forbidden = await client.getJson('b/', 'projects').catch((err: unknown) => err);
    expect((forbidden as AuthError).status).toBe(403);
    expect((forbidden as Error).message).toContain('You do not have permission');
    expect(server.requests).toHaveLength(2);
    await client.close();
  });

  it('refuses redirects instead of following them with the token', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(301, { location: 'https://elsewhere.example/api/x/' });
      res.end();
    });
    const client = clientFor(server);
    await expect(client.getJson('x/', 'things')).rejects.toThrow(
      /redirect to https:\/\/elsewhere\.example/,
    );
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('asks each next attempt at the URL the caller chooses, counting every attempt', async () => {
    const server = await serve((req, res) =>
      req.url.includes('size=25')
        ? sendJson(res, 200, { ok: true })
        : sendJson(res, 504, '<html>504 Gateway Time-out</html>', { 'content-type': 'text/html' }),
    );
    const { log, lines } = captureLogger('warn');
    const client = clientFor(server, log);
    const halve = ({ url, error }: { url: URL; error: Error }) => {
      expect(error).toBeInstanceOf(HttpError);
      const next = new URL(url);
      next.searchParams.set('size', String(Number(url.searchParams.get('size')) / 2));
      return next;
    };
    const response = await client.getJson('x/?size=100', 'things', undefined, {
      nextAttemptUrl: halve,
    });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/x/?size=100',
      '/api/x/?size=50',
      '/api/x/?size=25',
    ]);
    expect(response.url).toMatch(/\/api\/x\/\?size=25$/);
    expect(client.stats.get('things')).toMatchObject({ requests: 3, retries: 2 });
    expect(
      lines.map((l) => (JSON.parse(l) as { nextUrl?: string }).nextUrl?.replace(/^.*\?/, '')),
    ).toEqual(['size=50', 'size=25']);
    // Attempts at a changed URL still count: the request ends after maxAttempts.
    const error = (await client
      .getJson('x/?size=800', 'things', undefined, { nextAttemptUrl: halve })
      .catch((err: unknown) => err)) as Error;
    expect(error.message).toMatch(
      /^things: GET http:\/\/127\.0\.0\.1:\d+\/api\/x\/\?size=800 failed after 4 attempts: answered 504 .*\(the last attempt asked http:\/\/127\.0\.0\.1:\d+\/api\/x\/\?size=100\); Weblate, or a proxy in front of it, kept failing: see its logs, then sync again \(it resumes where this run stopped\)$/,
    );
    await client.close();
  });

  it('never writes the token into logs or error messages', async () => {
    const server = await serve((_req, res) => sendJson(res, 500, { detail: 'nope' }));
    const { log, lines } = captureLogger('trace');
    const client = clientFor(server, log, 2);
    const error = (await client.getJson('x/', 'things').catch((err: unknown) => err)) as Error;
    log.info(
      { headers: { authorization: `Token ${TOKEN}` }, token: TOKEN },
      'explicit attempt to log secrets',
    );
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).not.toContain(TOKEN);
    expect(`${error.message} ${String(error.stack)}`).not.toContain(TOKEN);
    await client.close();
  });
});

describe('WeblateClient.resolve', () => {
  const resolving = (base: string) => {
    const { log, lines } = captureLogger('warn');
    const client = createTestClient(base, { log });
    return { client, lines };
  };

  it('follows http links of an https instance over https when host and port match, warning once', async () => {
    const { client, lines } = resolving('https://weblate.example:8443/');
    for (const page of [2, 3]) {
      expect(
        client.resolve(`http://weblate.example:8443/api/units/?format=api&page=${page}`).href,
      ).toBe(`https://weblate.example:8443/api/units/?page=${page}`);
    }
    expect(client.warnings).toEqual([
      expect.stringMatching(
        /^the server writes http:\/\/ links although WEBLATE_URL is https:\/\/weblate\.example:8443; weblate-mirror follows them over https\./,
      ),
    ]);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([
      'server links say http for an https instance: following them over https',
    ]);
    await client.close();
    // Default ports: http://host/ is the same host as https://host/.
    const defaults = resolving('https://weblate.example/');
    expect(defaults.client.resolve('http://weblate.example/api/x/').href).toBe(
      'https://weblate.example/api/x/',
    );
    expect(defaults.client.warnings).toHaveLength(1);
    await defaults.client.close();
  });

  it('refuses another port or host, and leaves an http instance as it is', async () => {
    const { client, lines } = resolving('https://weblate.example/');
    for (const link of [
      'http://weblate.example:8080/api/units/',
      'http://weblate.example:443/api/units/',
      'http://other.example/api/units/',
      'https://other.example/api/units/',
    ]) {
      expect(() => client.resolve(link), link).toThrow(ResponseError);
      expect(() => client.resolve(link), link).toThrow(
        /^refusing .*: it is not on https:\/\/weblate\.example/,
      );
    }
    expect([client.warnings, lines]).toEqual([[], []]);
    await client.close();
    const plain = resolving('http://weblate.example/');
    expect(plain.client.resolve('http://weblate.example/api/x/?page=2').href).toBe(
      'http://weblate.example/api/x/?page=2',
    );
    expect(() => plain.client.resolve('https://weblate.example/api/x/')).toThrow(
      /^refusing https:\/\/weblate\.example\/api\/x\/: it is not on http:\/\/weblate\.example/,
    );
    expect([plain.client.warnings, plain.lines]).toEqual([[], []]);
    await plain.client.close();
  });
});

describe('a list read by its next links', () => {
  it('follows next links, setting page_size on the first request only', async () => {
    const server = await serve((req, res) => {
      const url = new URL(req.url, server.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const next =
        page < 3 ? `${server.url}api/things/?format=api&page=${page + 1}&page_size=2` : null;
      sendJson(res, 200, {
        count: 5,
        next,
        previous: null,
        results: [{ id: page * 10 }, { id: page * 10 + 1 }].slice(0, page < 3 ? 2 : 1),
      });
    });
    const client = clientFor(server);
    expect(await collect(client, 'things/', 2)).toEqual([
      { id: 10 },
      { id: 11 },
      { id: 20 },
      { id: 21 },
      { id: 30 },
    ]);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/things/?page_size=2',
      '/api/things/?page=2&page_size=2',
      '/api/things/?page=3&page_size=2',
    ]);
    await client.close();
  });

  it('stops with an error when next leads back to a page already read', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, {
        count: 1,
        next: `${server.url}api/things/?page_size=1000`,
        previous: null,
        results: [{ id: 1 }],
      }),
    );
    const client = clientFor(server);
    await expect(collect(client, 'things/')).rejects.toThrow(
      /leads back to .* a page already read/,
    );
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('refuses a next link to another origin without contacting it', async () => {
    const foreign = await serve((_req, res) =>
      sendJson(res, 200, { count: 0, next: null, results: [] }),
    );
    const server = await serve((_req, res) =>
      sendJson(res, 200, {
        count: 2,
        next: `${foreign.url}api/things/?page=2`,
        previous: null,
        results: [{ id: 1 }],
      }),
    );
    const client = clientFor(server);
    const error = await collect(client, 'things/').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as Error).message).toMatch(
      /next link .* was refused: refusing http:\/\/127\.0\.0\.1:\d+\/api\/things\/: it is not on/,
    );
    expect(foreign.requests).toHaveLength(0);
    await client.close();
  });

  it('rejects an answer that is not a paginated list', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, [{ id: 1 }]));
    const client = clientFor(server);
    await expect(collect(client, 'things/')).rejects.toThrow(
      /did not answer a paginated list .*: got a JSON array/,
    );
    await client.close();
  });
});

import { afterEach, describe, expect, it } from 'vitest';

import { UnreachableError } from '../../src/errors.ts';
import { createTestClient } from '../helpers/client.ts';
import { captureLogger, parseLogLines } from '../helpers/logs.ts';
import { type ScriptedServer, sendJson, startScriptedServer } from '../helpers/scripted-server.ts';

// Nothing listens on port 1 (it needs privileges): every connection is refused.
const CLOSED = 'http://127.0.0.1:1/';

const servers: ScriptedServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function retryLines(lines: string[]) {
  return parseLogLines(lines.join('\n')).filter((l) => l.msg === 'request failed, retrying');
}

describe('a Weblate that cannot be reached', () => {
  it('fails with WEBLATE_URL named, after every attempt', async () => {
    const client = createTestClient(CLOSED, { maxAttempts: 3 });
    const error = await client.getJson('languages/', 'languages').catch((err: unknown) => err);
    await client.close();
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe(
      'cannot reach Weblate at http://127.0.0.1:1/ (connection refused, 3 attempts): ' +
        'is it running, and is WEBLATE_URL right?',
    );
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect(client.stats.get('languages')).toMatchObject({ requests: 3, retries: 2 });
  });

  it('warns once per request that fails the same way again, and logs the repeats at debug', async () => {
    const { log, lines } = captureLogger('debug');
    const client = createTestClient(CLOSED, { maxAttempts: 4, log });
    await expect(client.getJson('languages/', 'languages')).rejects.toThrow(UnreachableError);
    await client.close();
    expect(retryLines(lines).map((l) => [l.level, l.attempt])).toEqual([
      [40, 1],
      [20, 2],
      [20, 3],
    ]);
  });

  it('still warns for each new failure of a request', async () => {
    const answers = [503, 503, 502, 200];
    const server = await startScriptedServer((_req, res) => {
      const status = answers.shift()!;
      sendJson(res, status, status === 200 ? { ok: true } : { detail: `down ${status}` });
    });
    servers.push(server);
    const { log, lines } = captureLogger('debug');
    const client = createTestClient(server.url, { maxAttempts: 4, log });
    expect((await client.getJson('x/', 'things')).value).toEqual({ ok: true });
    await client.close();
    expect(retryLines(lines).map((l) => [l.level, l.error])).toEqual([
      [40, 'answered 503 (down 503)'],
      [20, 'answered 503 (down 503)'],
      [40, 'answered 502 (down 502)'],
    ]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';

import { createTestClient } from '../helpers/client.ts';
import { type Handler, sendJson, startScriptedServer } from '../helpers/scripted-server.ts';

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The message of the error a GET ends with when the server answers every attempt by `handler`. */
async function failureOf(handler: Handler, timeoutMs = 10_000): Promise<string> {
  const server = await startScriptedServer(handler);
  closers.push(() => server.close());
  const client = createTestClient(server.url, { maxAttempts: 2, timeoutMs });
  closers.push(() => client.close());
  const error = await client.getJson('languages/', 'languages').catch((err: unknown) => err);
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe('a request that fails for good', () => {
  it('says what to check when Weblate keeps failing', async () => {
    const message = await failureOf((_req, res) => sendJson(res, 502, { detail: 'Bad gateway' }));
    expect(message).toMatch(/^languages: GET http:\/\/127\.0\.0\.1:\d+\/api\/languages\/ failed/);
    expect(message).toMatch(
      /answered 502 \(Bad gateway\); Weblate, or a proxy in front of it, kept failing: see its logs, then sync again/,
    );
  });

  it('says what to check when Weblate keeps rate limiting', async () => {
    const message = await failureOf((_req, res) => sendJson(res, 429, { detail: 'Throttled' }));
    expect(message).toMatch(
      /Weblate is rate limiting \(429 Throttled\); Weblate kept rate limiting: lower WEBLATE_CONCURRENCY, or set WEBLATE_MAX_RPS$/,
    );
  });

  it('says what to check when no answer comes in time', async () => {
    // The server never answers: the timeout decides, however busy the machine.
    const message = await failureOf(() => undefined, 200);
    expect(message).toMatch(
      /; no answer within WEBLATE_TIMEOUT_SECONDS: raise it, or lower WEBLATE_MAX_PAGE_SIZE/,
    );
  });

  it('says what to check when the answer is a page, not JSON', async () => {
    const message = await failureOf((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Sign in</title>');
    });
    expect(message).toMatch(
      /answered an HTML page \(text\/html\): .*; is WEBLATE_URL the address of Weblate, not of a login page\?$/,
    );
  });

  it('says what to check when the list is not there', async () => {
    const message = await failureOf((_req, res) => sendJson(res, 404, { detail: 'Not found.' }));
    expect(message).toMatch(
      /answered 404 \(Not found\.\); is WEBLATE_URL the address of Weblate\?$/,
    );
  });
});

import { afterEach, describe, expect, it } from 'vitest';

import { createTestClient } from '../helpers/client.ts';
import { sendJson, startScriptedServer } from '../helpers/scripted-server.ts';

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('a server that stops advertising a rate budget', () => {
  it('is no longer paced by the budget it advertised before', async () => {
    // The first answer spends the budget for an hour; then the server stops counting this
    // token (Weblate 2026's per-user override of None) and sends no budget headers.
    let answered = 0;
    const server = await startScriptedServer((_req, res) => {
      answered += 1;
      const budget: Record<string, string> =
        answered === 1 ? { 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '3600' } : {};
      sendJson(res, 200, { ok: answered }, budget);
    });
    closers.push(() => server.close());
    // Waiting for that reset would stop the run: it is longer than the client may wait.
    const client = createTestClient(server.url, { concurrency: 1, maxWaitMs: 1000 });
    closers.push(() => client.close());
    for (let i = 1; i <= 4; i++) {
      expect((await client.getJson(`x/${i}/`, 'things')).value).toEqual({ ok: i });
    }
    expect(client.gate.budgetRemaining).toBeNull();
  });
});

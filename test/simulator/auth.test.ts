import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';

const TOKEN = 'wlu_simulator_test_token';
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 3,
    projects: 1,
    components: 1,
    languages: 2,
    units: 20,
    changes: 10,
    users: 1,
    token: TOKEN,
    rateLimit: { limit: 100, windowSeconds: 3600, headers: true },
  });
});
afterAll(async () => {
  await sim.close();
});

async function ask(path: string, authorization?: string) {
  const response = await fetch(`${sim.url}api/${path}`, {
    headers: authorization === undefined ? {} : { authorization },
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('a simulator with a token', () => {
  it('refuses another token with 401 before the rate budget, as Weblate 5.14.3 does', async () => {
    const before = Number(
      (await ask('projects/', `Token ${TOKEN}`)).headers.get('x-ratelimit-remaining'),
    );
    const refused = await ask('projects/', 'Token wlu_wrong');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      type: 'client_error',
      errors: [{ code: 'authentication_failed', detail: 'Invalid token.', attr: null }],
    });
    expect(refused.headers.get('www-authenticate')).toBe('Token');
    expect(refused.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
    // Authentication fails before throttling: the refused request used none of the budget.
    const after = Number(
      (await ask('projects/', `Token ${TOKEN}`)).headers.get('x-ratelimit-remaining'),
    );
    expect(after).toBe(before - 1);
  });

  it('gives DRF’s detail for a token header without a key or with spaces, Bearer alike', async () => {
    const detail = async (authorization: string) => {
      const answer = await ask('units/', authorization);
      expect(answer.status, authorization).toBe(401);
      return (answer.body as { errors: Array<{ detail: string }> }).errors[0]!.detail;
    };
    expect(await detail('Token')).toBe('Invalid token header. No credentials provided.');
    expect(await detail('token a b')).toBe(
      'Invalid token header. Token string should not contain spaces.',
    );
    expect(await detail('Bearer wlu_wrong')).toBe('Invalid token.');
  });

  it('serves its own token, Bearer too, and anonymous requests', async () => {
    expect((await ask('projects/', `Token ${TOKEN}`)).status).toBe(200);
    expect((await ask('projects/', `Bearer ${TOKEN}`)).status).toBe(200);
    expect((await ask('projects/')).status).toBe(200);
    expect((await ask('projects/', 'Basic dXNlcjpwYXNz')).status).toBe(200);
  });

  it('answers 404 where no API view is, whatever the token', async () => {
    expect((await ask('no-such-view/', 'Token wlu_wrong')).status).toBe(404);
  });
});

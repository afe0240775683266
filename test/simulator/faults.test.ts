import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  FAULT_KINDS,
  type FaultKind,
  parseFaultSpec,
  type RunningSimulator,
  startSimulator,
} from '../../src/simulator/index.ts';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 2, units: 600, changes: 300 });
});
afterAll(async () => {
  await sim.close();
});

type Outcome =
  | { kind: 'response'; status: number; headers: Headers; text: string }
  | { kind: 'error'; name: string; ms: number };

/** Fetches `path`; only a hang should reach the timeout, which a busy machine must not. */
async function attempt(path: string, timeoutMs = 60_000): Promise<Outcome> {
  const started = performance.now();
  try {
    const response = await fetch(`${sim.url}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    return { kind: 'response', status: response.status, headers: response.headers, text };
  } catch (error) {
    const name = error instanceof Error ? error.name : 'unknown';
    return { kind: 'error', name, ms: performance.now() - started };
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('random faults', () => {
  const options = {
    rate: 0.3,
    seed: 7,
    hangMs: 20,
    retryAfterSeconds: 0.05,
    match: /^\/api\/units\//,
  };

  async function walk(count: number): Promise<(FaultKind | null)[]> {
    sim.requests.reset();
    for (let i = 0; i < count; i += 1) await attempt(`api/units/?page_size=5&page=${(i % 3) + 1}`);
    return sim.requests.entries.map((entry) => entry.fault);
  }

  it('injects every kind at about the rate, the same faults for the same seed', async () => {
    sim.setFaults(options);
    const first = await walk(240);
    sim.setFaults(options);
    const second = await walk(240);
    sim.setFaults(null);
    expect(second).toEqual(first);
    const failed = first.filter((kind) => kind !== null);
    expect(failed.length).toBeGreaterThan(240 * 0.2);
    expect(failed.length).toBeLessThan(240 * 0.4);
    expect(new Set(failed)).toEqual(new Set(FAULT_KINDS));
    expect(sim.requests.faults).toBe(failed.length);
    expect(sim.requests.total).toBe(240);
  });

  it('lets failed requests reach neither the rate budget nor the data', async () => {
    sim.setFaults({ ...options, kinds: ['500', '429', 'truncate', 'reset'] });
    sim.setRateLimit({ limit: 10_000, windowSeconds: 60, headers: true });
    const trigger = sim.at({ match: /^\/api\/units\//, nth: 10_000 }, () => undefined);
    let lastRemaining = 0;
    sim.requests.reset();
    for (let i = 0; i < 60; i += 1) {
      const outcome = await attempt('api/units/?page_size=5');
      if (outcome.kind === 'response' && outcome.status === 200 && isJson(outcome.text)) {
        lastRemaining = Number(outcome.headers.get('x-ratelimit-remaining'));
      }
    }
    sim.setFaults(null);
    sim.setRateLimit(null);
    trigger.cancel();
    const served = 60 - sim.requests.faults;
    expect(sim.requests.faults).toBeGreaterThan(5);
    expect(trigger.seen).toBe(served);
    expect(lastRemaining).toBe(10_000 - served);
  });

  it('leaves paths the match does not cover alone', async () => {
    sim.setFaults({ rate: 1, match: /^\/api\/changes\// });
    expect((await attempt('api/projects/')).kind).toBe('response');
    const outcome = await attempt('api/changes/', 200);
    expect(outcome.kind === 'error' || outcome.status !== 200 || !isJson(outcome.text)).toBe(true);
    sim.setFaults(null);
  });
});

describe('failNext', () => {
  it('answers 500 and 503 with server_error bodies, 503 and 429 with Retry-After', async () => {
    sim.failNext(1, '500');
    const error = await attempt('api/projects/');
    expect(error).toMatchObject({ kind: 'response', status: 500 });
    if (error.kind !== 'response') return;
    expect(JSON.parse(error.text)).toMatchObject({
      type: 'server_error',
      errors: [{ code: 'error' }],
    });
    sim.setFaults({ rate: 0, retryAfterSeconds: 0.05 });
    sim.failNext(1, '503');
    sim.failNext(1, '429');
    const unavailable = await attempt('api/projects/');
    const throttled = await attempt('api/projects/');
    sim.setFaults(null);
    if (unavailable.kind !== 'response' || throttled.kind !== 'response')
      throw new Error('no reply');
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('0.05');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('0.05');
    expect(JSON.parse(throttled.text)).toEqual({
      type: 'client_error',
      errors: [
        {
          code: 'throttled',
          detail: 'Request was throttled. Expected available in 1 second.',
          attr: null,
        },
      ],
    });
  });

  it('answers 502 with a proxy page and html with a 200 page that is not JSON', async () => {
    sim.failNext(1, '502');
    sim.failNext(1, 'html');
    for (const status of [502, 200]) {
      const outcome = await attempt('api/projects/');
      expect(outcome).toMatchObject({ kind: 'response', status });
      if (outcome.kind !== 'response') return;
      expect(outcome.headers.get('content-type')).toMatch(/^text\/html/);
      expect(outcome.text).toMatch(/<html/);
      expect(isJson(outcome.text)).toBe(false);
    }
  });

  it('resets the connection, or leaves it hanging past the client timeout', async () => {
    sim.failNext(1, 'reset');
    expect(await attempt('api/projects/')).toMatchObject({ kind: 'error', name: 'TypeError' });
    sim.failNext(1, 'hang');
    const hang = await attempt('api/projects/', 150);
    expect(hang).toMatchObject({ kind: 'error', name: 'TimeoutError' });
    if (hang.kind === 'error') expect(hang.ms).toBeGreaterThanOrEqual(140);
    expect(sim.requests.entries.at(-1)).toMatchObject({ status: null, fault: 'hang' });
  });

  it('truncates a 200 so that the body fails JSON.parse', async () => {
    const whole = await attempt('api/projects/');
    sim.failNext(1, 'truncate');
    const cut = await attempt('api/projects/');
    if (whole.kind !== 'response' || cut.kind !== 'response') throw new Error('no reply');
    expect(cut.status).toBe(200);
    expect(cut.headers.get('content-length')).toBeNull();
    expect(whole.text.startsWith(cut.text)).toBe(true);
    expect(cut.text.length).toBeLessThan(whole.text.length);
    expect(() => JSON.parse(cut.text) as unknown).toThrow();
  });

  it('fails exactly the next matching requests, then lets them through', async () => {
    sim.requests.reset();
    const handle = sim.failNext(2, '500', /page=2/);
    const statuses: number[] = [];
    for (const page of [1, 2, 1, 2, 2]) {
      const outcome = await attempt(`api/changes/?page=${page}`);
      statuses.push(outcome.kind === 'response' ? outcome.status : 0);
    }
    expect(statuses).toEqual([200, 500, 200, 500, 200]);
    expect(handle).toMatchObject({ failed: 2, remaining: 0 });
    expect(sim.requests.faults).toBe(2);
    expect(sim.requests.count(/page=2/)).toBe(3);
  });
});

describe('closing', () => {
  it('closes promptly while a request hangs', async () => {
    const other = await startSimulator({ units: 50, changes: 10 });
    // A hang far longer than the test may take: if closing waited for it, the test would
    // time out.
    other.setFaults({ rate: 0, hangMs: 600_000 });
    other.failNext(1, 'hang');
    const pending = fetch(`${other.url}api/projects/`).catch((error: unknown) => error);
    await vi.waitFor(() => expect(other.requests.total).toBe(1), { timeout: 60_000 });
    await other.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('parseFaultSpec', () => {
  it('reads a rate alone or kinds and a rate', () => {
    expect(parseFaultSpec('0.1')).toEqual({ rate: 0.1 });
    expect(parseFaultSpec('500,429:0.25')).toEqual({ rate: 0.25, kinds: ['500', '429'] });
    for (const bad of ['', 'x', '500:', 'boom:0.1', '2']) {
      expect(() => parseFaultSpec(bad), bad).toThrow();
    }
  });
});

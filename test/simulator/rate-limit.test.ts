import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createRateLimiter,
  type RunningSimulator,
  startSimulator,
} from '../../src/simulator/index.ts';

describe('createRateLimiter', () => {
  it('keeps a sliding window like DRF: X-RateLimit-Reset truncated, Retry-After rounded up', () => {
    // As Weblate 5.14.3 answers (docs/weblate-compatibility.md): int() of the seconds until
    // the oldest request leaves the window, which can be 0; Retry-After is math.ceil().
    let now = 1_000_000;
    const limiter = createRateLimiter({ limit: 3, windowSeconds: 10, headers: true }, () => now);
    expect(limiter.check()).toMatchObject({ isAllowed: true, remaining: 2, resetSeconds: 10 });
    now += 2_500;
    expect(limiter.check()).toMatchObject({ isAllowed: true, remaining: 1, resetSeconds: 7 });
    now += 1_000;
    expect(limiter.check()).toMatchObject({ isAllowed: true, remaining: 0, resetSeconds: 6 });
    now += 100;
    expect(limiter.check()).toEqual({
      isAllowed: false,
      limit: 3,
      remaining: 0,
      resetSeconds: 6,
      retryAfterSeconds: 7,
    });
    // The oldest request expires exactly at +10 s: one slot frees up, not three.
    now = 1_010_000;
    expect(limiter.check()).toMatchObject({ isAllowed: true, remaining: 0, resetSeconds: 2 });
    expect(limiter.check()).toMatchObject({ isAllowed: false, retryAfterSeconds: 3 });
    now = 1_012_400;
    // 0.1 s before a slot frees, the header says 0.
    expect(limiter.check()).toMatchObject({
      isAllowed: false,
      resetSeconds: 0,
      retryAfterSeconds: 1,
    });
    now = 1_020_000;
    expect(limiter.check()).toMatchObject({ isAllowed: true, remaining: 2 });
  });

  it('uses fractional seconds for windows under a second, and never less than a millisecond', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 1, windowSeconds: 0.2, headers: true }, () => now);
    expect(limiter.check()).toMatchObject({ isAllowed: true, resetSeconds: 0.2 });
    now = 150;
    expect(limiter.check()).toMatchObject({ isAllowed: false, retryAfterSeconds: 0.05 });
    now = 199.9;
    expect(limiter.check()).toMatchObject({ isAllowed: false, retryAfterSeconds: 0.001 });
  });

  it('refuses invalid budgets', () => {
    expect(() => createRateLimiter({ limit: -1, windowSeconds: 1, headers: true })).toThrow();
    expect(() => createRateLimiter({ limit: 1, windowSeconds: 0, headers: true })).toThrow();
  });
});

describe('the rate budget on the server', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator({ units: 200, changes: 50 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('counts down X-RateLimit-Remaining, then answers 429 until the window frees a slot', async () => {
    sim.requests.reset();
    sim.setRateLimit({ limit: 3, windowSeconds: 0.4, headers: true });
    const replies: Response[] = [];
    for (let i = 0; i < 4; i += 1) replies.push(await fetch(`${sim.url}api/projects/`));
    const header = (i: number, name: string): string | null =>
      replies[i]!.headers.get(`x-ratelimit-${name}`);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect([0, 1, 2, 3].map((i) => header(i, 'remaining'))).toEqual(['2', '1', '0', '0']);
    expect([0, 1, 2, 3].map((i) => header(i, 'limit'))).toEqual(['3', '3', '3', '3']);
    for (let i = 0; i < 4; i += 1) {
      const reset = Number(header(i, 'reset'));
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(0.4);
    }
    const retryAfter = Number(replies[3]!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(0.4);
    expect(await replies[3]!.json()).toMatchObject({
      type: 'client_error',
      errors: [{ code: 'throttled', attr: null }],
    });
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 20));
    const again = await fetch(`${sim.url}api/projects/`);
    expect(again.status).toBe(200);
    expect(sim.requests.throttled).toBe(1);
    expect(sim.requests.entries.filter((e) => e.isThrottled)).toHaveLength(1);
    sim.setRateLimit(null);
  });

  it('sends whole seconds and no X-RateLimit headers when headers are off', async () => {
    sim.setRateLimit({ limit: 1, windowSeconds: 30, headers: false });
    const first = await fetch(`${sim.url}api/languages/`);
    const second = await fetch(`${sim.url}api/languages/`);
    sim.setRateLimit(null);
    expect([first.status, second.status]).toEqual([200, 429]);
    for (const reply of [first, second]) {
      const names = [...reply.headers.keys()].filter((name) => name.startsWith('x-ratelimit'));
      expect(names).toEqual([]);
    }
    expect(second.headers.get('retry-after')).toMatch(/^(29|30)$/);
    const body = (await second.json()) as { errors: { detail: string }[] };
    expect(body.errors[0]!.detail).toMatch(
      /^Request was throttled\. Expected available in 3\d seconds\.$/,
    );
  });

  it('only budgets API paths, and stops when turned off', async () => {
    sim.setRateLimit({ limit: 0, windowSeconds: 10, headers: true });
    expect((await fetch(`${sim.url}favicon.ico`)).headers.get('x-ratelimit-limit')).toBeNull();
    expect((await fetch(`${sim.url}api/`)).status).toBe(429);
    sim.setRateLimit(null);
    const free = await fetch(`${sim.url}api/`);
    expect(free.status).toBe(200);
    expect(free.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

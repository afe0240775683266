import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0) + 0.123456;

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 3, units: 2000, changes: 500, now: () => NOW });
});
afterAll(async () => {
  await sim.close();
});

interface Page {
  count: number;
  next: string | null;
  results: { id: number }[];
}

async function page(url: string): Promise<Page> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}

describe('latency', () => {
  it('delays every answer without holding up the others', async () => {
    // Long enough that what a busy machine adds to six local requests is small beside it.
    sim.setLatency(1000);
    const started = performance.now();
    await fetch(`${sim.url}api/projects/`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(995);
    const parallel = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => fetch(`${sim.url}api/languages/`)));
    const elapsed = performance.now() - parallel;
    expect(elapsed).toBeGreaterThanOrEqual(995);
    // Six answers one after another would take at least 6 s.
    expect(elapsed).toBeLessThan(4000);
    sim.setLatency(0);
    expect(() => sim.setLatency(-1)).toThrow();
  });
});

describe('headers and the request log', () => {
  it('sends the server clock in a Date header on every answer', async () => {
    sim.failNext(1, '502');
    for (const path of ['api/projects/', 'api/nothing/', 'api/projects/']) {
      const date = (await fetch(`${sim.url}${path}`)).headers.get('date');
      expect(date, path).toBe('Sun, 22 Nov 2026 10:00:00 GMT');
    }
  });

  it('counts requests whose path and query match', async () => {
    sim.requests.reset();
    await fetch(`${sim.url}api/units/?page=2`);
    await fetch(`${sim.url}api/units/?page=3`);
    await fetch(`${sim.url}api/changes/?page=2`);
    expect(sim.requests.count(/^\/api\/units\//)).toBe(2);
    expect(sim.requests.count(/page=2/g)).toBe(2);
    expect(sim.requests.count(/page=2/g)).toBe(2);
    expect(sim.requests.entries.map((e) => e.status)).toEqual([200, 200, 200]);
  });
});

describe('mid-walk triggers', () => {
  it('runs the action just before the nth matching request is served', async () => {
    const { index } = sim.instance;
    const [key, translation] = [...index.translationByPath.entries()].find(
      ([, t]) => !t.isSource && (index.unitsByTranslation.get(t.id)?.length ?? 0) > 12,
    )!;
    const units = index.unitsByTranslation.get(translation.id)!;
    const path = `${sim.url}api/translations/${key}/units/?page_size=4`;
    const victim = units[9]!;
    const handle = sim.at({ match: /\/units\/\?.*page=2/, nth: 2 }, () => {
      sim.mutate.deleteUnits([victim.id]);
    });
    const first = await page(`${path}&page=2`);
    expect(handle).toMatchObject({ fired: false, seen: 1 });
    expect(first.results.map((u) => u.id)).toEqual(units.slice(4, 8).map((u) => u.id));
    // The failed attempt is not served, so it does not count towards the trigger either.
    sim.failNext(1, '500', /page=2/);
    expect((await fetch(`${path}&page=2`)).status).toBe(500);
    expect(handle).toMatchObject({ fired: false, seen: 1 });
    const third = await page(`${path}&page=3`);
    expect(third.results.map((u) => u.id)).toContain(victim.id);
    const again = await page(`${path}&page=2`);
    expect(handle).toMatchObject({ fired: true, seen: 2 });
    expect(again.count).toBe(first.count - 1);
    const after = await page(`${path}&page=3`);
    expect(after.results.map((u) => u.id)).not.toContain(victim.id);
    expect(after.results.map((u) => u.id)).toEqual(
      units
        .filter((u) => u !== victim)
        .slice(8, 12)
        .map((u) => u.id),
    );
  });

  it('arms several triggers at once and reports a failing action as a 500', async () => {
    const order: string[] = [];
    const a = sim.at({ match: /languages/ }, () => order.push('a'));
    const b = sim.at({ match: /languages/ }, () => order.push('b'));
    const c = sim.at({ match: /projects/ }, () => {
      throw new Error('boom');
    });
    const cancelled = sim.at({ match: /languages/ }, () => order.push('never'));
    cancelled.cancel();
    await fetch(`${sim.url}api/languages/`);
    await fetch(`${sim.url}api/languages/`);
    expect(order).toEqual(['a', 'b']);
    expect([a.fired, b.fired, cancelled.fired]).toEqual([true, true, false]);
    const reply = await fetch(`${sim.url}api/projects/`);
    expect(reply.status).toBe(500);
    expect(c.error).toBeInstanceOf(Error);
    expect((await fetch(`${sim.url}api/projects/`)).status).toBe(200);
  });
});

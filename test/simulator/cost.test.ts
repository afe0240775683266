import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type CostModel,
  type RunningSimulator,
  scaledCosts,
  serviceMs,
  startSimulator,
  WEBLATE_5_14_COSTS,
} from '../../src/simulator/index.ts';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 12, units: 1500, changes: 400 });
});
afterAll(async () => {
  await sim.close();
});

async function get(path: string): Promise<number> {
  const response = await fetch(`${sim.url}api/${path}`);
  await response.arrayBuffer();
  return response.status;
}

/** The work the server logged for the one request `path`. */
async function workOf(path: string) {
  sim.requests.reset();
  await get(path);
  expect(sim.requests.entries).toHaveLength(1);
  return sim.requests.entries[0]!.work;
}

describe('the work of an answer', () => {
  it('counts the whole filtered list, skips the earlier pages and serializes the page', async () => {
    const units = sim.instance.units;
    expect(await workOf('units/?page_size=100')).toEqual({
      counted: units.length,
      skipped: 0,
      units: 100,
      records: 0,
    });
    expect(await workOf('units/?page_size=100&page=3')).toEqual({
      counted: units.length,
      skipped: 200,
      units: 100,
      records: 0,
    });
    // A keyset page counts everything after its id, a bounded window only the window.
    const k = units[999]!.id;
    const after = units.filter((u) => u.id > k).length;
    expect(await workOf(`units/?q=${encodeURIComponent(`id:>${k}`)}&page_size=100`)).toEqual({
      counted: after,
      skipped: 0,
      units: 100,
      records: 0,
    });
    const b = units[1099]!.id;
    const bounded = encodeURIComponent(`id:>${k} AND id:<=${b}`);
    expect(await workOf(`units/?q=${bounded}&page_size=1000`)).toEqual({
      counted: 100,
      skipped: 0,
      units: 100,
      records: 0,
    });
  });

  it('counts changes and catalog objects as records, a single object as one, an error as none', async () => {
    const changes = sim.instance.changes.length;
    expect(await workOf('changes/?page_size=50&page=2')).toEqual({
      counted: changes,
      skipped: 50,
      units: 0,
      records: 50,
    });
    const projects = sim.instance.projects.length;
    expect(await workOf('projects/')).toEqual({
      counted: projects,
      skipped: 0,
      units: 0,
      records: projects,
    });
    const slug = sim.instance.projects[0]!.slug;
    expect(await workOf(`projects/${slug}/`)).toEqual({
      counted: 0,
      skipped: 0,
      units: 0,
      records: 1,
    });
    expect(await workOf('projects/no-such-project/')).toEqual({
      counted: 0,
      skipped: 0,
      units: 0,
      records: 0,
    });
    expect(await workOf('units/?page=999')).toMatchObject({ units: 0, records: 0 });
  });

  it('sums the work of every request until reset', async () => {
    sim.requests.reset();
    await Promise.all([
      get('units/?page_size=10'),
      get('changes/?page_size=20'),
      get('languages/'),
    ]);
    const sum = sim.requests.entries.reduce(
      (total, e) => ({
        counted: total.counted + e.work.counted,
        skipped: total.skipped + e.work.skipped,
        units: total.units + e.work.units,
        records: total.records + e.work.records,
      }),
      { counted: 0, skipped: 0, units: 0, records: 0 },
    );
    expect(sim.requests.work).toEqual(sum);
    expect(sum.units).toBe(10);
    sim.requests.reset();
    expect(sim.requests.work).toEqual({ counted: 0, skipped: 0, units: 0, records: 0 });
  });
});

describe('the cost model', () => {
  it('gives each answer the service time of its work, and the answer waits for it', async () => {
    const model: CostModel = { requestMs: 40, unitMs: 0.5, recordMs: 0.25, rowMs: 0.01 };
    sim.setCostModel(model);
    try {
      sim.requests.reset();
      const started = performance.now();
      await get('units/?page_size=200');
      const elapsed = performance.now() - started;
      const [entry] = sim.requests.entries;
      const expected = 40 + 200 * 0.5 + sim.instance.units.length * 0.01;
      expect(entry!.serviceMs).toBeCloseTo(expected, 6);
      expect(sim.requests.serviceMs).toBeCloseTo(expected, 6);
      // Timers may fire up to a millisecond early.
      expect(elapsed).toBeGreaterThanOrEqual(expected - 2);
    } finally {
      sim.setCostModel(null);
    }
    sim.requests.reset();
    await get('projects/');
    expect(sim.requests.serviceMs).toBe(0);
  });

  it('is calibrated on Weblate 5.14.3 and scales', () => {
    const page = { counted: 10_000, skipped: 0, units: 10_000, records: 0 };
    // The measured 10,000-unit page took 12.7 to 13.1 s (docs/performance.md).
    expect(serviceMs(WEBLATE_5_14_COSTS, page)).toBeGreaterThan(12_000);
    expect(serviceMs(WEBLATE_5_14_COSTS, page)).toBeLessThan(13_500);
    const tenth = scaledCosts(WEBLATE_5_14_COSTS, 0.1);
    expect(serviceMs(tenth, page)).toBeCloseTo(serviceMs(WEBLATE_5_14_COSTS, page) / 10, 6);
    expect(() => scaledCosts(WEBLATE_5_14_COSTS, 0)).toThrow(/positive/);
    expect(() => sim.setCostModel({ ...WEBLATE_5_14_COSTS, rowMs: -1 })).toThrow(/rowMs/);
  });
});

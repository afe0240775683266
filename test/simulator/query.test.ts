import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type RunningSimulator,
  type SimInstance,
  type SimUnit,
  startSimulator,
} from '../../src/simulator/index.ts';

let sim: RunningSimulator;
let clock = Date.UTC(2026, 10, 22, 11, 0, 0);

beforeAll(async () => {
  // Enough units for ids above 41,000, as in the mirror's own query.
  sim = await startSimulator({ seed: 4, units: 45_000, changes: 2_000, now: () => clock });
});
afterAll(async () => {
  await sim.close();
});

function projectOf(instance: SimInstance, unit: SimUnit): string {
  const translation = instance.index.translationById.get(unit.translationId)!;
  const component = instance.index.componentById.get(translation.componentId)!;
  return instance.index.projectById.get(component.projectId)!.slug;
}

/** Ids of every unit the query returns, following `next`. */
async function query(q: string, pageSize = 100): Promise<number[]> {
  const ids: number[] = [];
  let next: string | null = `${sim.url}api/units/?page_size=${pageSize}&q=${encodeURIComponent(q)}`;
  while (next !== null) {
    const response = await fetch(next);
    expect(response.status, q).toBe(200);
    const page = (await response.json()) as { next: string | null; results: { id: number }[] };
    ids.push(...page.results.map((unit) => unit.id));
    next = page.next;
  }
  return ids;
}

describe('the mirror query on /api/units/', () => {
  it('returns exactly the matching ids in ascending order', async () => {
    const { instance } = sim;
    const sources = new Set(instance.translations.filter((t) => t.isSource).map((t) => t.id));
    const editable = (u: SimUnit): boolean => !sources.has(u.translationId);
    const inHello = instance.units.filter((u) => editable(u) && projectOf(instance, u) === 'hello');
    const elsewhere = instance.units.filter(
      (u) => editable(u) && projectOf(instance, u) !== 'hello',
    );
    const edited = [
      ...inHello.filter((u) => u.id > 40_500 && u.id <= 41_000).slice(0, 3),
      ...inHello.filter((u) => u.id <= 40_500).slice(-2),
      ...elsewhere.slice(-2),
    ];
    expect(edited).toHaveLength(7);
    sim.mutate.editUnits(edited.map((u) => u.id));
    // New strings elsewhere have high ids and fresh timestamps: only the project term stops them.
    const other = instance.components.find((c) => c.projectId !== 1)!;
    const foreign = sim.mutate.addUnits(other.id, 2).unitIds;
    const hello = instance.components.find((c) => c.projectId === 1)!;
    const own = sim.mutate.addUnits(hello.id, 1).unitIds;
    const since = Date.UTC(2026, 10, 22, 10, 0, 0) * 1000;
    const expected = instance.units
      .filter(
        (u) =>
          (u.lastUpdatedUs >= since || u.id > 41_000) &&
          u.id > 40_500 &&
          projectOf(instance, u) === 'hello',
      )
      .map((u) => u.id);
    const ids = await query(
      '(last_changed:>=2026-11-22T10:00:00.000000Z OR id:>41000) AND id:>40500 AND project:hello',
    );
    expect(ids).toEqual(expected);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toEqual(expect.arrayContaining(edited.slice(0, 3).map((u) => u.id)));
    expect(ids.some((id) => id <= 41_000)).toBe(true);
    expect(ids.some((id) => id > 41_000)).toBe(true);
    expect(ids).toEqual(expect.arrayContaining(own));
    expect(ids.some((id) => foreign.includes(id))).toBe(false);
    expect(
      await query(
        '(last_changed:>="2026-11-22 10:00:00Z" or id:>41000) and id:>40500 and project:hello',
      ),
    ).toEqual(expected);
  });

  it('serves sets, NOT and precedence', async () => {
    const { units } = sim.instance;
    const [a, b, c] = [units[30]!.id, units[10]!.id, units[20]!.id];
    expect(await query(`id:${a},${b},${c}`)).toEqual([b, c, a]);
    expect(await query(`id:${a},${b},${c} AND NOT id:${c}`)).toEqual([b, a]);
    const low = units.slice(0, 5).map((u) => u.id);
    const last = units.at(-1)!.id;
    expect(await query(`id:<=${low[4]!} OR id:>=${last} AND id:>0`)).toEqual([...low, last]);
    expect(await query(`(id:<=${low[4]!} OR id:>=${last}) AND id:>${low[0]!}`)).toEqual([
      ...low.slice(1),
      last,
    ]);
    const notHello = await query(`NOT project:hello AND id:<=${units[2000]!.id}`, 1000);
    const expected = units
      .slice(0, 2001)
      .filter((u) => projectOf(sim.instance, u) !== 'hello')
      .map((u) => u.id);
    expect(notHello).toEqual(expected);
  });

  it('rejects unknown fields and broken syntax with the validation body on q', async () => {
    for (const q of ['state:>=20 OR id:1', '(id:1', 'id:1 OR', 'NOT', 'id:1,a']) {
      const response = await fetch(`${sim.url}api/units/?q=${encodeURIComponent(q)}`);
      expect(response.status, q).toBe(400);
      expect(await response.json()).toMatchObject({
        type: 'validation_error',
        errors: [{ code: 'invalid', attr: 'q' }],
      });
    }
  });
});

describe('sim.mutate over HTTP', () => {
  it('shows new strings and hides deleted ones in lists and details', async () => {
    const { instance } = sim;
    const component = instance.components[0]!;
    clock += 60_000;
    const added = sim.mutate.addUnits(component.id, 1);
    const newest = added.unitIds.at(-1)!;
    const page = await fetch(
      `${sim.url}api/units/?q=${encodeURIComponent(`id:>=${added.unitIds[0]!}`)}`,
    );
    const body = (await page.json()) as { count: number; results: { id: number }[] };
    expect(body.results.map((u) => u.id)).toEqual(added.unitIds);
    sim.mutate.deleteUnits([newest]);
    expect((await fetch(`${sim.url}api/units/${newest}/`)).status).toBe(404);
    expect((await fetch(`${sim.url}api/units/${added.sourceUnitIds[0]!}/`)).status).toBe(404);
    const changes = (await (await fetch(`${sim.url}api/changes/?page_size=5`)).json()) as {
      results: { action: number; unit: string | null }[];
    };
    expect(changes.results[0]).toMatchObject({ action: 63, unit: null });
  });
});

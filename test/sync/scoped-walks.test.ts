import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import {
  applyTransitions,
  type ChangeCursor,
  readCursor,
  transition,
  type UnitCursor,
} from '../../src/db/queries/sync-state.ts';
import { shiftSeconds } from '../../src/lib/timestamps.ts';
import type { SimProject } from '../../src/simulator/index.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

const mirror = useSimulatorMirror({
  seed: 8,
  projects: 3,
  components: 6,
  languages: 3,
  units: 1800,
  changes: 600,
  users: 1,
});

/** Translated, editable units of a project (bulk edits skip empty and read-only ones). */
function translatedUnits(project: SimProject, count: number): number[] {
  const { instance } = mirror.sim;
  return instance.units
    .filter((unit) => {
      const translation = instance.index.translationById.get(unit.translationId)!;
      const component = instance.index.componentById.get(translation.componentId)!;
      return component.projectId === project.id && !translation.isSource && unit.state === 20;
    })
    .slice(0, count)
    .map((unit) => unit.id);
}

async function mirroredStates(ids: number[]): Promise<Map<string, number>> {
  const rows = await mirror.handle.db
    .selectFrom('weblate.units')
    .select(['id', 'state'])
    .where('id', 'in', ids.map(String))
    .execute();
  return new Map(rows.map((r) => [String(r.id), r.state]));
}

describe('unit walks by project', () => {
  it('keeps units named by changes in one project while another project is walked in full', async () => {
    const [first, second] = mirror.sim.instance.projects as [SimProject, SimProject];
    const initial = await syncSimulator(mirror.sim, mirror.handle, { projects: [first.slug] });
    expect([initial.mode, initial.status]).toEqual(['full', 'succeeded']);

    // A bulk edit leaves last_changed alone: only its changes name the units.
    const edited = mirror.sim.mutate.bulkEditStates(translatedUnits(first, 5), 30).unitIds;
    expect(edited.length).toBe(5);
    // The second project is new to the scope, so its units are walked in full.
    const result = await syncSimulator(mirror.sim, mirror.handle, {
      projects: [first.slug, second.slug],
    });
    expect([result.mode, result.status]).toEqual(['incremental', 'succeeded']);
    expect(await readCursor(mirror.handle.db, 'units', second.slug)).toMatchObject({
      walk: null,
    });
    const states = await mirroredStates(edited);
    expect([...states.values()]).toEqual(edited.map(() => 30));
  });

  it('asks a project-scoped walk only for changed units of that project', async () => {
    const [first, second] = mirror.sim.instance.projects as [SimProject, SimProject];
    // Edits in a project outside the scope must not be read at all.
    const outside = translatedUnits(second, 4);
    mirror.sim.mutate.editUnits(outside, { target: 'Upraveno mimo rozsah' });
    const inside = translatedUnits(first, 2);
    mirror.sim.mutate.editUnits(inside, { target: 'Upraveno v rozsahu' });
    mirror.sim.requests.reset();
    // A short look-back (the server's clock is known to a second, from its Date header), so
    // the walk reads little beyond these edits.
    const result = await syncSimulator(mirror.sim, mirror.handle, {
      projects: [first.slug],
      lookbackSeconds: 2,
    });
    expect(result.status).toBe('succeeded');
    expect(result.summary.warnings.filter((w) => w.includes('did not mirror'))).toEqual([]);
    // Units of the other project would have been read and skipped with that warning; a
    // walk of the whole project would read hundreds.
    const units = result.summary.resources.find((r) => r.resource === 'units')!;
    expect(units.records).toBeGreaterThanOrEqual(inside.length);
    expect(units.records).toBeLessThan(50);
    const targets = await mirror.handle.db
      .selectFrom('weblate.units')
      .select(['id', 'target'])
      .where('id', 'in', inside.map(String))
      .execute();
    expect(targets.map((t) => t.target)).toEqual(inside.map(() => ['Upraveno v rozsahu']));
  });
});

describe('sync --full after an interrupted incremental run', () => {
  it('reads everything instead of resuming the incremental walk', async () => {
    const { instance } = mirror.sim;
    const projects = instance.projects.map((p) => p.slug);
    const before = await syncSimulator(mirror.sim, mirror.handle, { projects });
    expect(before.status).toBe('succeeded');

    // Upstream: a unit deleted, and a change that committed long after its timestamp.
    const [first] = instance.projects as [SimProject];
    const [gone] = translatedUnits(first, 1) as [number];
    mirror.sim.mutate.deleteUnits([gone]);
    const translation = instance.translations.find((t) => !t.isSource)!;
    const late = mirror.sim.mutate.addChanges(translation.id, 1, {
      backdate: 30 * 86_400,
    }).changeIds;

    // An incremental run stopped halfway through both walks, past the deleted unit.
    const now = new Date().toISOString();
    const slug = first.slug;
    const unitCursor = (await readCursor(mirror.handle.db, 'units', slug))!;
    await applyTransitions(mirror.handle.db, [
      transition.cursor('units', slug, {
        ...unitCursor,
        walk: {
          full: false,
          since: shiftSeconds(now, -60),
          maxIdBefore: unitCursor.maxId,
          after: String(gone + 1),
          end: now,
        },
      } satisfies UnitCursor),
    ]);
    const changeCursor = (await readCursor(mirror.handle.db, 'changes', slug))!;
    await applyTransitions(mirror.handle.db, [
      transition.cursor('changes', slug, {
        ...changeCursor,
        window: { after: shiftSeconds(now, -600), end: now, before: now },
      } satisfies ChangeCursor),
    ]);

    const full = await syncSimulator(mirror.sim, mirror.handle, { projects, full: true });
    expect([full.mode, full.status]).toEqual(['full', 'succeeded']);
    const unit = await mirror.handle.db
      .selectFrom('weblate.units')
      .select('deleted_at')
      .where('id', '=', String(gone))
      .executeTakeFirstOrThrow();
    expect(unit.deleted_at).not.toBeNull();
    const changes = await sql<{ n: number }>`
      select count(*)::int as n from weblate.changes where id = any(${late.map(String)}::bigint[])
    `.execute(mirror.handle.db);
    expect(changes.rows[0]!.n).toBe(late.length);
  });
});

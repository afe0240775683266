import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { reconcileJob } from '../../jobs/reconcile.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, type SimUnit, startSimulator } from '../../src/simulator/index.ts';
import { createTestClient } from '../helpers/client.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { asWriter, subscribedUsers, syncSimulator } from '../helpers/sync.ts';

let sim: RunningSimulator;
const databases = useTestDatabases();
let kept: DbHandle;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 33,
    projects: 2,
    components: 5,
    languages: 3,
    units: 2500,
    changes: 800,
    users: 1,
  });
  kept = await databases.migrated();
  const first = await syncSimulator(sim, kept);
  expect([first.mode, first.status]).toEqual(['full', 'succeeded']);
});

afterAll(async () => {
  await sim.close();
});

/** Live mirrored units whose state or position differs from the server's now, by id. */
async function laggingUnits(): Promise<Map<number, { mirrored: string; upstream: string }>> {
  const rows = await sql<{ id: string; state: number; position: number }>`
    select id, state, position from weblate.units where deleted_at is null`.execute(kept.db);
  const lagging = new Map<number, { mirrored: string; upstream: string }>();
  for (const row of rows.rows) {
    const unit = sim.instance.index.unitById.get(Number(row.id));
    const upstream = unit === undefined ? 'gone' : `${unit.state}@${unit.position}`;
    const mirrored = `${row.state}@${row.position}`;
    if (mirrored !== upstream) lagging.set(Number(row.id), { mirrored, upstream });
  }
  return lagging;
}

describe('unit changes Weblate makes without a trace (QuerySet.update)', () => {
  it('are missed by an incremental sync unless a unit count moved, and repaired by the reconcile job', async () => {
    const { instance, mutate } = sim;
    const unitsOf = (translationId: number): SimUnit[] =>
      instance.index.unitsByTranslation.get(translationId) ?? [];
    // A template rename: the fuzzy strings of a monolingual component turn translated.
    const renamed = instance.components.find(
      (c) =>
        c.template !== '' &&
        instance.index.translationsByComponent
          .get(c.id)!
          .some((t) => unitsOf(t.id).some((u) => u.state === 10)),
    )!;
    const reset = mutate.renameTemplate(renamed.id, `renamed/${renamed.template}`).unitIds;
    expect(reset.length).toBeGreaterThan(0);
    // A string removed from another component: later positions are renumbered silently in
    // every translation, as Weblate's delete_unit does after removing it from each file.
    const other = instance.components.find((c) => c.id !== renamed.id)!;
    const translations = instance.index.translationsByComponent.get(other.id)!;
    const source = translations.find((t) => t.isSource)!;
    const removed = unitsOf(source.id)[1]!;
    const positions = new Map(
      translations.map((t) => [t.id, unitsOf(t.id).find((u) => u.sourceUnitId === removed.id)!]),
    );
    mutate.deleteUnits([removed.id]);
    const renumbered = new Map<number, { position: number }>();
    for (const translation of translations) {
      const gone = positions.get(translation.id)!.position;
      for (const unit of unitsOf(translation.id))
        if (unit.position > gone) renumbered.set(unit.id, { position: unit.position - 1 });
    }
    expect(mutate.updateUnitsSilently(renumbered).unitIds.length).toBe(renumbered.size);
    expect(renumbered.size).toBeGreaterThan(0);

    const incremental = await syncSimulator(sim, kept);
    expect([incremental.mode, incremental.status, incremental.error]).toEqual([
      'incremental',
      'succeeded',
      null,
    ]);
    // Exactly the reset strings lag: still fuzzy in the mirror, translated upstream. The
    // renumbered ones were read again, because their translations' unit counts moved.
    const lagging = await laggingUnits();
    expect([...lagging.keys()].sort((a, b) => a - b)).toEqual(reset);
    for (const id of reset) {
      const unit = instance.index.unitById.get(id)!;
      expect(lagging.get(id)).toEqual({
        mirrored: `10@${unit.position}`,
        upstream: `20@${unit.position}`,
      });
    }
    // The translations themselves are current: their records show the new counts.
    const fresh = await databases.migrated();
    expect((await syncSimulator(sim, fresh)).status).toBe('succeeded');
    const differences = compareMirrors(
      await snapshotMirror(kept.db),
      await snapshotMirror(fresh.db),
      (id) => !instance.index.changeById.has(Number(id)),
    );
    expect(differences.map((d) => d.table)).toEqual(['units']);

    // The nightly reconcile job (a full sync) reads every unit again.
    const run = {
      log: captureLogger('info').log,
      scope: { projects: null, users: subscribedUsers(sim) },
      client: () => createTestClient(sim.url, { concurrency: 4 }),
    };
    const reconciled = await asWriter(kept, run, (deps) =>
      reconcileJob.run({
        deps,
        signal: new AbortController().signal,
        lookbackSeconds: 300,
        discoveryIntervalSeconds: 3600,
      }),
    );
    expect([reconciled.kind, reconciled.status, reconciled.error]).toEqual([
      'full',
      'succeeded',
      null,
    ]);
    expect(await laggingUnits()).toEqual(new Map());
    expect(
      compareMirrors(
        await snapshotMirror(kept.db),
        await snapshotMirror(fresh.db),
        (id) => !instance.index.changeById.has(Number(id)),
      ),
    ).toEqual([]);
  });
});

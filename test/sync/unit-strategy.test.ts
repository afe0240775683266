import { afterAll, describe, expect, it } from 'vitest';

import {
  type CompatOptions,
  type RequestLogEntry,
  type RunningSimulator,
  startSimulator,
} from '../../src/simulator/index.ts';
import type { SyncResult } from '../../src/sync/run-sync.ts';
import { handleOf, useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { syncSimulator } from '../helpers/sync.ts';

const SIZE = { projects: 2, components: 4, languages: 3, units: 600, changes: 240, users: 1 };
const databases = useTestDatabases();
const simulators: RunningSimulator[] = [];

afterAll(async () => {
  for (const sim of simulators) await sim.close();
});

async function freshDb() {
  return (await databases.migrated()).db;
}

interface Observed {
  result: SyncResult;
  entries: RequestLogEntry[];
  /** The `unit strategy chosen` log lines. */
  choices: Array<Record<string, unknown>>;
}

function decoded(entry: RequestLogEntry): string {
  return decodeURIComponent(entry.target.replaceAll('+', ' '));
}

/** A probe request: bounded by the primary key below any real id. */
const isProbe = (entry: RequestLogEntry) =>
  entry.target.startsWith('/api/units/?') && decoded(entry).includes('id:<=0');

interface Case {
  name: string;
  compat: CompatOptions;
  strategy: string;
  /** Statuses of the probe's requests in a run that reads units. */
  probe: number[];
  /** The run's warning about the strategy, if it is a fallback. */
  warning: RegExp | null;
}

const CASES: Case[] = [
  { name: 'Weblate 5.14 and later', compat: {}, strategy: 'global', probe: [200], warning: null },
  {
    name: 'a server before 5.14 (no last_changed search)',
    compat: { hasLastChangedSearch: false },
    strategy: 'global-ids',
    probe: [400, 200],
    warning:
      /^the server cannot search units by last_changed \(\/api\/units\/ refuses last_changed: in q \(400 invalid: q: Could not parse query string: Unsupported field: last_changed\), which Weblate added in 5\.14, and answers id: terms\); an incremental sync reads the units of each moved translation instead$/,
  },
  {
    name: 'a server without /api/units/',
    compat: { hasGlobalUnitList: false },
    strategy: 'per-translation',
    probe: [404],
    warning:
      /^the server has no usable \/api\/units\/ list \(\/api\/units\/ answers 404 \(not_found: Not found\.\)\); units are read per translation$/,
  },
];

describe.each(CASES)('units of $name', ({ compat, strategy, probe, warning }) => {
  it('are read by the strategy one probe per run chose, with no other failing request, into the mirror a normal server gives', async () => {
    const sim = await startSimulator({ seed: 81, ...SIZE });
    simulators.push(sim);
    sim.setCompat(compat);
    const db = await freshDb();
    const run = async (lookbackSeconds = 300): Promise<Observed> => {
      sim.requests.reset();
      const { log, lines } = captureLogger('info');
      const result = await syncSimulator(sim, handleOf(db), { log, lookbackSeconds });
      expect([result.status, result.error, result.summary.rejected]).toEqual([
        'succeeded',
        null,
        0,
      ]);
      const choices = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'unit strategy chosen');
      return { result, entries: [...sim.requests.entries], choices };
    };
    const expectOneProbe = ({ result, entries, choices }: Observed) => {
      expect(entries.filter(isProbe).map((e) => e.status)).toEqual(probe);
      const failing = entries.filter((e) => e.status !== 200);
      expect(failing.map(decoded)).toEqual(
        entries.filter((e) => isProbe(e) && e.status !== 200).map(decoded),
      );
      expect(choices.map((c) => c.strategy)).toEqual([strategy]);
      expect(result.summary.warnings).toEqual(
        warning === null ? [] : [expect.stringMatching(warning)],
      );
    };

    const full = await run();
    expect(full.result.mode).toBe('full');
    expectOneProbe(full);

    // Upstream: edits, a bulk state edit (only its changes name the units), new and
    // removed strings, and comments.
    const { instance } = sim;
    const targets = instance.translations.filter((t) => !t.isSource);
    const unitsOf = (id: number, state: number, count: number) =>
      (instance.index.unitsByTranslation.get(id) ?? [])
        .filter((u) => u.state === state)
        .slice(0, count)
        .map((u) => u.id);
    const edited = [...unitsOf(targets[0]!.id, 20, 4), ...unitsOf(targets[1]!.id, 0, 3)];
    const bulk = unitsOf(targets[2]!.id, 20, 3);
    // The small instance still has units in those states to edit.
    expect([edited.length, bulk.length]).toEqual([7, 3]);
    sim.mutate.editUnits(edited);
    sim.mutate.bulkEditStates(bulk, 10);
    sim.mutate.addUnits(instance.components[1]!.id, 2);
    const source = instance.translations.find(
      (t) => t.isSource && t.componentId === instance.components[2]!.id,
    )!;
    sim.mutate.deleteUnits(
      instance.index.unitsByTranslation
        .get(source.id)!
        .slice(0, 1)
        .map((u) => u.id),
    );
    sim.mutate.addChanges(targets[3]!.id, 2);

    const incremental = await run();
    expect(incremental.result.mode).toBe('incremental');
    expectOneProbe(incremental);
    const units = incremental.result.summary.resources.find((r) => r.resource === 'units')!;
    expect(units.rows).toBeGreaterThan(0);

    // Nothing moved: no unit is read, so nothing is probed. (Without a look-back, the
    // changes just read do not name their units again.)
    const quiet = await run(0);
    expect(quiet.entries.filter((e) => e.target.startsWith('/api/units/'))).toEqual([]);
    expect(quiet.choices).toEqual([]);
    expect(quiet.result.summary.rowsWritten).toBe(0);

    sim.setCompat({});
    const normal = await freshDb();
    expect((await syncSimulator(sim, handleOf(normal))).status).toBe('succeeded');
    expect(
      compareMirrors(
        await snapshotMirror(db),
        await snapshotMirror(normal),
        (id) => !instance.index.changeById.has(Number(id)),
      ),
    ).toEqual([]);
  });
});

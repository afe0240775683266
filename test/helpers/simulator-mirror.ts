import { afterAll, beforeAll } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.ts';
import { useTestDatabases } from './database.ts';

/** A small instance (two projects, 300 units): enough for tests of one mechanism. */
export const SMALL_INSTANCE = {
  seed: 71,
  projects: 2,
  components: 3,
  languages: 2,
  units: 300,
  changes: 100,
} as const satisfies SimulatorOptions;

/** The smallest instance: for tests that need a server, not its data. */
export const TINY_INSTANCE = {
  seed: 1,
  projects: 1,
  components: 1,
  languages: 1,
  units: 10,
  changes: 5,
  users: 1,
} as const satisfies SimulatorOptions;

/** A file's simulator and the migrated database it is mirrored into. */
export interface SimulatorMirror {
  readonly sim: RunningSimulator;
  readonly handle: DbHandle;
}

/**
 * A simulator of `options` and a migrated test database, started before the file's tests
 * (in a beforeAll registered here, so call it at the top of the file, before the hooks that
 * use them) and closed and dropped after them.
 */
export function useSimulatorMirror(options: SimulatorOptions): SimulatorMirror {
  const databases = useTestDatabases();
  let sim: RunningSimulator | null = null;
  let handle: DbHandle | null = null;
  beforeAll(async () => {
    sim = await startSimulator(options);
    handle = await databases.migrated();
  });
  afterAll(async () => {
    await sim?.close();
  });
  const ready = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`useSimulatorMirror: the ${what} is used before beforeAll`);
    return value;
  };
  return {
    get sim() {
      return ready(sim, 'simulator');
    },
    get handle() {
      return ready(handle, 'database');
    },
  };
}

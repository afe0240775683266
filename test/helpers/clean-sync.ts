import type { Kysely } from 'kysely';
import { expect } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import type { TestDatabases } from './database.ts';
import { compareMirrors, snapshotMirror } from './mirror-compare.ts';
import { syncSimulator } from './sync.ts';

/**
 * The mirror in `db` equals a clean full sync of the simulator as it is now, made into a new
 * database of `databases` with `options` (a scope, a page size).
 */
export async function expectSameAsCleanSync(
  databases: TestDatabases,
  sim: RunningSimulator,
  db: Kysely<Database>,
  options: Parameters<typeof syncSimulator>[2] = {},
): Promise<void> {
  const clean = await databases.migrated();
  expect((await syncSimulator(sim, clean, options)).status).toBe('succeeded');
  expect(
    compareMirrors(await snapshotMirror(db), await snapshotMirror(clean.db), () => false),
  ).toEqual([]);
}

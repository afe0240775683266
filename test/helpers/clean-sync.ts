import type { Kysely } from 'kysely';
import { expect } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import type { TestDatabases } from './database.ts';
import { compareMirrors, type MirrorSnapshot, snapshotMirror } from './mirror-compare.ts';
import { syncSimulator } from './sync.ts';

type CleanSyncOptions = Parameters<typeof syncSimulator>[2];

/** A clean full sync of the simulator as it is now, into a new database of `databases`. */
async function cleanSnapshot(
  databases: TestDatabases,
  sim: RunningSimulator,
  options: CleanSyncOptions,
): Promise<MirrorSnapshot> {
  const clean = await databases.migrated();
  expect((await syncSimulator(sim, clean, options)).status).toBe('succeeded');
  return snapshotMirror(clean.db);
}

/**
 * The mirror in `db` equals a clean full sync of the simulator as it is now, made into a new
 * database of `databases` with `options` (a scope, a page size).
 */
export async function expectSameAsCleanSync(
  databases: TestDatabases,
  sim: RunningSimulator,
  db: Kysely<Database>,
  options: CleanSyncOptions = {},
): Promise<void> {
  expectSameAs(await snapshotMirror(db), await cleanSnapshot(databases, sim, options));
}

/**
 * expectSameAsCleanSync for a file whose simulator never changes: the clean sync is made
 * once, by the first test that compares, and its snapshot serves the others.
 */
export function cleanSyncOnce(
  databases: TestDatabases,
  sim: () => RunningSimulator,
  options: () => CleanSyncOptions = () => ({}),
): (db: Kysely<Database>) => Promise<void> {
  let clean: Promise<MirrorSnapshot> | null = null;
  return async (db) => {
    const mirrored = await snapshotMirror(db);
    clean ??= cleanSnapshot(databases, sim(), options());
    expectSameAs(mirrored, await clean);
  };
}

function expectSameAs(mirrored: MirrorSnapshot, clean: MirrorSnapshot): void {
  expect(compareMirrors(mirrored, clean, () => false)).toEqual([]);
}

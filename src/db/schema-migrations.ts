import { type Kysely, type MigrationProvider, Migrator } from 'kysely';

import { MIGRATIONS } from '../../migrations/index.ts';
import type { Database } from './database.ts';

/*
 * The migrations of migrations/ applied to a Kysely instance, without locks: migrator.ts
 * wraps them for the commands, and pglite-upgrade.ts rebuilds an older schema with them.
 */

/** The migrations of migrations/, by name (see migrations/index.ts). */
const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};

/** Applied migrations this release does not know: a newer release's. */
export function unknownMigrations(applied: readonly string[]): string[] {
  return applied.filter((name) => !Object.hasOwn(MIGRATIONS, name));
}

/** This release's migrations, in the order they apply. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort();

/** This release's newest migration. */
export const NEWEST_MIGRATION = MIGRATION_NAMES.at(-1)!;

export function createMigrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider, migrationTableSchema: 'weblate' });
}

/**
 * Applies the migrations up to `name` and no further: for tests of a migration's effect, and
 * to rebuild an older schema that rows are copied into (pglite-upgrade.ts).
 */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
  const { error } = await createMigrator(db).migrateTo(name);
  if (error)
    throw new Error(`migration to ${name} failed: ${(error as Error).message}`, { cause: error });
}

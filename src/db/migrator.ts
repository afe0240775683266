import { type MigrationResult, sql } from 'kysely';

import { withLockSession } from './advisory-lock.ts';
import type { DbHandle } from './client.ts';
import {
  createMigrator,
  MIGRATION_NAMES,
  NEWEST_MIGRATION,
  unknownMigrations,
} from './schema-migrations.ts';

/** The lock (see advisory-lock.ts) that serialises migrations across processes. */
export const MIGRATION_LOCK = 'migrations';

/**
 * The advisory lock key the first releases migrated under (`pg_advisory_lock(74711203)`):
 * held too, so that an older weblate-mirror migrating the same database waits for this one
 * and this one for it.
 */
export const LEGACY_MIGRATION_LOCK_KEY = 74_711_203;

export interface MigrationReport {
  applied: string[];
  pending: string[];
}

/**
 * Applies every pending migration. Idempotent, and safe from several processes at once:
 * they take the migration lock in turn (Kysely's own lock table cannot guard its own
 * creation); the embedded database is held by one process at a time anyway.
 */
export async function migrateToLatest(handle: DbHandle): Promise<MigrationReport> {
  const run = async (): Promise<MigrationReport> => {
    // Every command starts here: where nothing is pending, one query instead of the
    // migrator's catalogue reads (docs/performance.md).
    if ((await pendingMigrations(handle)).length === 0) return { applied: [], pending: [] };
    handle.limits?.disk.check('migrate');
    const { error, results } = await createMigrator(handle.db).migrateToLatest();
    const applied = (results ?? [])
      .filter((r) => r.status === 'Success')
      .map((r) => r.migrationName);
    if (error) {
      const failed = (results ?? []).find((r: MigrationResult) => r.status === 'Error');
      throw new Error(
        `migration ${failed?.migrationName ?? '(setup)'} failed: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    return { applied, pending: [] };
  };
  return withLockSession(handle, async (session) => {
    await session.waitLock(MIGRATION_LOCK, { pollMs: 100 });
    if (handle.kind !== 'postgres') return run();
    return handle.db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${LEGACY_MIGRATION_LOCK_KEY}::bigint)`.execute(conn);
      try {
        return await run();
      } finally {
        await sql`select pg_advisory_unlock(${LEGACY_MIGRATION_LOCK_KEY}::bigint)`
          .execute(conn)
          .catch(() => undefined);
      }
    });
  });
}

/** The names of the applied migrations: none where the database was never migrated. */
async function appliedMigrations(handle: DbHandle): Promise<string[]> {
  const table = await sql<{ found: string | null }>`
    select to_regclass('weblate.kysely_migration')::text as found`.execute(handle.db);
  if (table.rows[0]?.found == null) return [];
  const { rows } = await sql<{ name: string }>`
    select name from weblate.kysely_migration order by name`.execute(handle.db);
  return rows.map((r) => r.name);
}

/**
 * This release's migrations not applied yet. A database a newer release migrated holds
 * migrations this one does not know: it must not write there (Kysely would call the
 * migrations corrupted, which they are not).
 */
export async function pendingMigrations(handle: DbHandle): Promise<string[]> {
  const applied = await appliedMigrations(handle);
  const unknown = unknownMigrations(applied);
  if (unknown.length > 0)
    throw new Error(
      `the database at ${handle.location} was migrated by a newer weblate-mirror: migration ` +
        `${unknown.join(', ')} is unknown to this release, whose newest is ${NEWEST_MIGRATION}; ` +
        'upgrade weblate-mirror to use it',
    );
  return MIGRATION_NAMES.filter((name) => !applied.includes(name));
}

/** Rolls back every migration (for tests and `db:rollback`). */
export async function migrateDownToZero(handle: DbHandle): Promise<void> {
  const migrator = createMigrator(handle.db);
  for (;;) {
    const { error, results } = await migrator.migrateDown();
    if (error) throw new Error(`rollback failed: ${(error as Error).message}`, { cause: error });
    if (!results || results.length === 0) return;
  }
}

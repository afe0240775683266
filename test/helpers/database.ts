import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';

import type { Kysely } from 'kysely';
import { afterAll, inject } from 'vitest';

import { createDb, type DatabaseKind, type DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import {
  adminQuery,
  copyFolder,
  type DatabaseTemplate,
  databaseUrlOf,
  FOLDER_ROOT,
  migrationsHash,
  NAMES,
} from './database-template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Built by test/setup/databases.ts; absent under a configuration without it. */
    databaseTemplate?: DatabaseTemplate;
  }
}

/**
 * Each test file gets its own database: a database on the PostgreSQL server named by
 * TEST_DATABASE_URL, or, when it is unset, an embedded PGlite database in a folder of its own
 * (in memory where the system allows, see FOLDER_ROOT).
 * Both are copies of the migrated template of the run (see database-template.ts).
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? null;
export const DATABASE_KIND: DatabaseKind = TEST_DATABASE_URL === null ? 'pglite' : 'postgres';

export interface TestDatabase {
  /** What createDb / loadConfig need to reach this database. */
  databaseUrl: string | null;
  dataDir: string;
  open(): Promise<DbHandle>;
  /**
   * Opens, migrates and returns a handle (closed by drop()). A copy of the template has
   * nothing left to apply, but the migrator still checks so, as it did on an empty database.
   */
  migrated(): Promise<DbHandle>;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** No migration applied (for tests of the migrations themselves); default false. */
  empty?: boolean;
}

/**
 * A new database, migrated unless `empty`; the caller drops it (useTestDatabases does that).
 * Without a usable template (another configuration, or migrations/ changed since it was
 * built), an empty database is migrated instead.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const provided = inject('databaseTemplate');
  const template =
    provided !== undefined && provided.hash === migrationsHash() ? provided : undefined;
  const dataDir = await mkdtemp(join(FOLDER_ROOT, NAMES.folderPrefix(process.pid)));
  const source = options.empty === true ? 'empty' : 'migrated';
  let databaseUrl: string | null = null;
  let dbName: string | null = null;
  if (TEST_DATABASE_URL !== null) {
    dbName = NAMES.database(process.pid);
    const from = source === 'migrated' && template?.kind === 'postgres' ? template.database : null;
    await createDatabase(dbName, from);
    // A test database need not survive a crash of the server: commits do not wait for the
    // WAL to reach the disk (what the mirror commits, and in what order, is unchanged).
    await adminQuery(TEST_DATABASE_URL, `alter database ${dbName} set synchronous_commit = off`);
    databaseUrl = databaseUrlOf(TEST_DATABASE_URL, dbName);
  } else if (template?.kind === 'pglite') {
    await copyFolder(join(template.folder, source, 'pgdata'), join(dataDir, 'pgdata'));
  }
  const handles: DbHandle[] = [];
  const open = async () => {
    const handle = await createDb({ databaseUrl, dataDir });
    handles.push(handle);
    opened.set(handle.db, handle);
    return handle;
  };
  return {
    databaseUrl,
    dataDir,
    open,
    async migrated() {
      const handle = await open();
      await migrateToLatest(handle);
      return handle;
    },
    async drop() {
      for (const handle of handles.splice(0)) await handle.close().catch(() => undefined);
      if (dbName !== null)
        await adminQuery(TEST_DATABASE_URL!, `drop database if exists ${dbName} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Handles of the test databases, by their Kysely instance (see handleOf). */
const opened = new WeakMap<Kysely<Database>, DbHandle>();

/** The handle (with its kind and COPY capability) of a test database known by its Kysely instance. */
export function handleOf(db: Kysely<Database>): DbHandle {
  const handle = opened.get(db);
  if (handle === undefined) throw new Error('handleOf: not a database opened by the test helpers');
  return handle;
}

/**
 * Clones `template` (an empty database from template1 when null). Another clone made at the
 * same moment is fine, but a session still connected to the template is not: the server then
 * refuses for a moment (55006), e.g. while the template's builder disconnects.
 */
async function createDatabase(name: string, template: string | null): Promise<void> {
  const statement = `create database ${name}${template === null ? '' : ` template ${template}`}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(TEST_DATABASE_URL!, statement);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export interface TestDatabases {
  /** A new database, dropped after the tests of the file or block that called useTestDatabases. */
  create(options?: TestDatabaseOptions): Promise<TestDatabase>;
  /** An open handle on a new migrated database (the same, in one step). */
  migrated(): Promise<DbHandle>;
}

/**
 * The databases of a test file (or describe block): call it while the file is collected
 * (at its top, or in a describe body), before the hooks that use the databases, so that
 * the afterAll it registers drops them after those hooks' own afterAll.
 */
export function useTestDatabases(): TestDatabases {
  const created: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of created.splice(0)) await database.drop();
  });
  const create = async (options?: TestDatabaseOptions) => {
    const database = await createTestDatabase(options);
    created.push(database);
    return database;
  };
  return { create, migrated: async () => (await create()).migrated() };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { createDb, type DbHandle } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';

/**
 * Each test file gets its own database: a fresh database on the PostgreSQL server named by
 * TEST_DATABASE_URL, or, when it is unset, an embedded PGlite database in a temporary folder.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? null;
export const DATABASE_KIND = TEST_DATABASE_URL === null ? 'pglite' : 'postgres';

export interface TestDatabase {
  /** What createDb / loadConfig need to reach this database. */
  databaseUrl: string | null;
  dataDir: string;
  open(): Promise<DbHandle>;
  /** Opens, migrates and returns a handle (closed by drop()). */
  migrated(): Promise<DbHandle>;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'weblate-mirror-test-'));
  let databaseUrl: string | null = null;
  let dbName: string | null = null;
  if (TEST_DATABASE_URL !== null) {
    dbName = `wm_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(`create database ${dbName}`);
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = url.href;
  }
  const handles: DbHandle[] = [];
  const open = async () => {
    const handle = await createDb({ databaseUrl, dataDir });
    handles.push(handle);
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
      if (dbName !== null) await adminQuery(`drop database if exists ${dbName} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL! });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

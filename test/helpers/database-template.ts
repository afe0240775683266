import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';

import { createDb } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { isProcessRunning } from '../../src/lib/process-running.ts';

/**
 * The migrated database every test file starts from, built once per test run by the global
 * setup (test/setup/databases.ts) and cloned per file by createTestDatabase (database.ts):
 * on PostgreSQL a template database (`create database … template …`), on PGlite a data folder
 * that is copied. Copying an initialised folder also saves PGlite's initdb, which costs about
 * ten times the migrations themselves.
 */
export type DatabaseTemplate =
  | { kind: 'postgres'; hash: string; database: string }
  /** `folder`/empty/pgdata: initialised only; `folder`/migrated/pgdata: migrated too. */
  | { kind: 'pglite'; hash: string; folder: string };

/**
 * Where the folders of test databases go: in memory (/dev/shm) where the system has it. PGlite
 * flushes its files to disk as PostgreSQL does, which a database that lives for one test file
 * does not need; on a small machine the waits for the disk take a good part of a PGlite run.
 */
export const FOLDER_ROOT = isWritable('/dev/shm') ? '/dev/shm' : tmpdir();

function isWritable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * What databases and folders of the test harness are called. Each name carries the pid of the
 * process that made it, so that a later run can tell the leftovers of a dead run (see
 * sweepLeftovers) from those of a run still going.
 */
export const NAMES = {
  database: (pid: number) => `wm_test_${pid}_${Math.random().toString(36).slice(2, 10)}`,
  template: (pid: number, hash: string) => `wm_test_template_${pid}_${hash}`,
  /** Its pid, when `name` is one of ours. */
  databasePid: (name: string) => pidOf(/^wm_test_(?:template_)?(\d+)_[0-9a-z]+$/.exec(name)),
  folderPrefix: (pid: number) => `weblate-mirror-test-${pid}-`,
  folderPid: (name: string) => pidOf(/^weblate-mirror-test-(\d+)-/.exec(name)),
};

function pidOf(match: RegExpExecArray | null): number | null {
  return match === null ? null : Number(match[1]);
}

const MIGRATIONS = new URL('../../migrations/', import.meta.url);
// It creates the table that records applied migrations: part of what a migrated database is.
const MIGRATOR = new URL('../../src/db/migrator.ts', import.meta.url);

/** A short hash of migrations/ (names and contents) and the migrator, naming the template. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS).sort())
    hash.update(name).update(readFileSync(new URL(name, MIGRATIONS)));
  hash.update(readFileSync(MIGRATOR));
  return hash.digest('hex').slice(0, 12);
}

/** Runs one statement on the server of `adminUrl` (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * Copies the folder `from` to `to`, which must not exist, with the system's cp: a PGlite
 * data folder (about 1,000 files) costs it 40 ms, and Node's fs.cp 200-300 ms of CPU.
 */
export async function copyFolder(from: string, to: string): Promise<void> {
  await promisify(execFile)('cp', ['-a', from, to]);
}

/** Builds the template of this run: on the server of `adminUrl`, or as PGlite folders. */
export async function buildTemplate(adminUrl: string | null): Promise<DatabaseTemplate> {
  const hash = migrationsHash();
  if (adminUrl === null) {
    const folder = mkdtempSync(join(FOLDER_ROOT, `${NAMES.folderPrefix(process.pid)}template-`));
    const empty = join(folder, 'empty');
    const migrated = join(folder, 'migrated');
    // Opening an empty folder runs initdb; closed again, the folder is an empty database.
    await (await createDb({ databaseUrl: null, dataDir: empty })).close();
    mkdirSync(migrated);
    await copyFolder(join(empty, 'pgdata'), join(migrated, 'pgdata'));
    const handle = await createDb({ databaseUrl: null, dataDir: migrated });
    try {
      await migrateToLatest(handle);
    } finally {
      await handle.close();
    }
    return { kind: 'pglite', hash, folder };
  }
  const database = NAMES.template(process.pid, hash);
  await adminQuery(adminUrl, `drop database if exists ${database}`);
  await adminQuery(adminUrl, `create database ${database}`);
  const handle = await createDb({ databaseUrl: databaseUrlOf(adminUrl, database), dataDir: '' });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }
  // A template cannot be cloned while anyone is connected to it: from now on nobody may.
  await adminQuery(adminUrl, `alter database ${database} allow_connections false`);
  return { kind: 'postgres', hash, database };
}

export async function dropTemplate(
  adminUrl: string | null,
  template: DatabaseTemplate,
): Promise<void> {
  if (template.kind === 'pglite') rmSync(template.folder, { recursive: true, force: true });
  else if (adminUrl !== null)
    await adminQuery(adminUrl, `drop database if exists ${template.database}`);
}

/**
 * Removes the databases and folders that test runs which are no longer running left behind
 * (a run killed before its cleanup). Those of runs still going, here or in another checkout,
 * carry a live pid and stay; a database still in use is not dropped either.
 */
export async function sweepLeftovers(adminUrl: string | null): Promise<void> {
  for (const root of new Set([FOLDER_ROOT, tmpdir()])) {
    for (const name of readdirSync(root)) {
      const pid = NAMES.folderPid(name);
      if (pid !== null && !isProcessRunning(pid))
        rmSync(join(root, name), { recursive: true, force: true });
    }
  }
  if (adminUrl === null) return;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database where datname like 'wm\\_test\\_%'",
    );
    for (const { datname } of rows) {
      const pid = NAMES.databasePid(datname);
      if (pid === null || isProcessRunning(pid)) continue;
      // Without force: a process of the dead run that still uses it (an orphaned child) keeps it.
      await client.query(`drop database if exists ${datname}`).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

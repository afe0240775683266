import { execFile } from 'node:child_process';
import { existsSync, rmSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDb, type DbHandle } from '../../src/db/client.ts';
import { DISK_RESERVE_BYTES } from '../../src/db/embedded-limits.ts';
import { pendingMigrations } from '../../src/db/migrator.ts';
import { migrateTo, MIGRATION_NAMES, NEWEST_MIGRATION } from '../../src/db/schema-migrations.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { expectSameAsCleanSync } from '../helpers/clean-sync.ts';
import { runCli } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { DATABASE_KIND, useTestDatabases } from '../helpers/database.ts';
import { parseLogLines } from '../helpers/logs.ts';
import { subscribedUsers } from '../helpers/sync.ts';
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.ts';

// The embedded database's disk fills up mid-sync: on a tmpfs of its own with a size limit
// (mounting needs root, which the machines of this project's CI have), mostly taken by a
// ballast file. The sync stops in one line while the disk still has the room it keeps free
// (db/embedded-limits.ts); on a disk then full, `status` says why it cannot open, and ends; with
// space again, the next sync completes the mirror exactly. PostgreSQL has no data folder of
// the mirror's: the file runs in the embedded suite only.

const run = promisify(execFile);
const databases = useTestDatabases();
let sim: RunningSimulator;
let disk: Tmpfs | undefined;
let mountPoint: string;

beforeAll(async () => {
  if (DATABASE_KIND !== 'pglite') return;
  disk = await mountTmpfs('wm-full-disk-', '96m');
  mountPoint = disk.path;
  sim = await startSimulator({
    seed: 43,
    projects: 2,
    components: 4,
    languages: 3,
    units: 6_000,
    changes: 2_000,
  });
}, 120_000);

afterAll(async () => {
  await sim?.close();
  await disk?.remove();
});

/** Bytes free on the tmpfs. */
function freeBytes(): number {
  const stats = statfsSync(mountPoint);
  return stats.bavail * stats.bsize;
}

/** Takes all but `leave` bytes of what is free on the tmpfs into the ballast file. */
async function fillLeaving(leave: number): Promise<void> {
  const ballast = join(mountPoint, 'ballast');
  const size = existsSync(ballast) ? statSync(ballast).size : 0;
  await run('fallocate', ['-l', String(size + freeBytes() - leave), ballast]);
}

describe.runIf(DATABASE_KIND === 'pglite')('a full disk under the embedded database', () => {
  it('stops the sync in one line, keeps status readable, and recovers exactly', async () => {
    const dataDir = join(mountPoint, 'mirror');
    const env = {
      WEBLATE_MIRROR_DATA_DIR: dataDir,
      DATABASE_URL: '',
      WEBLATE_URL: sim.url,
      WEBLATE_USERS: subscribedUsers(sim).join(','),
      LOG_LEVEL: 'info',
    };
    // The commands whose process is not under test run in this one (runCliInProcess).
    const migrated = await runCliInProcess(['migrate'], env);
    expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0);
    // Room for a few pages beyond what the sync keeps free, far less than the instance needs.
    await fillLeaving(DISK_RESERVE_BYTES + 6 * 1024 * 1024);
    const full = await runCli(['sync'], env, 300_000);
    expect(full.code, full.stdout + full.stderr).toBe(1);
    const said = full.stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(said).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: stopped before the disk of the embedded database at ${dataDir} is full: \\d+ MB free, under the 48 MB a sync keeps free\\. What this run committed is kept; free some space and sync again to resume from it\\.$`,
        ),
      ) as string,
    ]);
    // It stopped mid-sync, with rows committed.
    const failed = parseLogLines(full.stderr).find((l) => l.msg === 'sync failed');
    expect(failed?.rows).toBeGreaterThan(0);
    // Log lines say it in words: no stack, no statement with its parameters.
    for (const line of full.stderr.split('\n')) expect(line.length).toBeLessThan(2_000);
    for (const line of parseLogLines(full.stderr)) {
      expect(line).not.toHaveProperty('err');
      expect(line).not.toHaveProperty('stack');
    }

    // A disk with no room at all: `status` answers, or says why the database cannot start;
    // either way the command ends (PGlite that failed to start held the process forever).
    await fillLeaving(0);
    const status = await runCli(['status'], env);
    expect(status.code).not.toBeNull();
    if (status.code === 0)
      expect(status.stdout).toMatch(/stopped before the disk of the embedded database/);
    else
      expect(status.stderr.trim()).toBe(
        `weblate-mirror: the embedded database at ${dataDir} cannot be opened: its disk is full (${/\((\d+) bytes free\)/.exec(status.stderr)?.[1]} bytes free); free some space and try again`,
      );

    rmSync(join(mountPoint, 'ballast'));
    await run('mount', ['-o', 'remount,size=1g', mountPoint]);
    const again = await runCliInProcess(['sync'], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    await withMirror(dataDir, (handle) => expectSameAsCleanSync(databases, sim, handle.db));
  }, 600_000);

  it('keeps backfill and migrate from starting without the room a write keeps free', async () => {
    // The mirror the test before synced, on the disk it left with room again.
    const dataDir = join(mountPoint, 'mirror');
    const env = { WEBLATE_MIRROR_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' };
    const estimates = (handle: DbHandle) =>
      sql<{
        rows: string;
      }>`select count(*)::text as rows from weblate.translation_progress_estimated`
        .execute(handle.db)
        .then((r) => r.rows[0]!.rows);
    // 8 MB less than a write keeps free.
    const UNDER_RESERVE = DISK_RESERVE_BYTES - 8 * 1024 * 1024;
    const before = await withMirror(dataDir, estimates);
    expect(Number(before)).toBeGreaterThan(0);

    await fillLeaving(UNDER_RESERVE);
    const backfill = await runCliInProcess(['backfill'], env);
    expect([backfill.code, backfill.stdout, backfill.stderr.trim()]).toEqual([
      1,
      '',
      expect.stringMatching(
        new RegExp(
          `^weblate-mirror: did not estimate the progress history: the disk of the embedded database at ${dataDir} has \\d+ MB free, under the 48 MB a write keeps free\\. The estimates are as they were; free some space and run \`weblate-mirror backfill\` again\\.$`,
        ),
      ),
    ]);
    expect(await withMirror(dataDir, estimates)).toBe(before);

    // A release with a migration to apply: the newest one rolled back.
    rmSync(join(mountPoint, 'ballast'));
    await withMirror(dataDir, (handle) => migrateTo(handle.db, MIGRATION_NAMES.at(-2)!));
    await fillLeaving(UNDER_RESERVE);
    const migrate = await runCliInProcess(['migrate'], env);
    expect([migrate.code, migrate.stderr.trim()]).toEqual([
      1,
      expect.stringMatching(
        new RegExp(
          `^weblate-mirror: did not migrate the embedded database at ${dataDir}: its disk has \\d+ MB free, under the 48 MB a write keeps free\\. The database is as it was; free some space and run the command again\\.$`,
        ),
      ),
    ]);
    expect(await withMirror(dataDir, pendingMigrations)).toEqual([NEWEST_MIGRATION]);

    // With room again, both run.
    rmSync(join(mountPoint, 'ballast'));
    const migrated = await runCliInProcess(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(await withMirror(dataDir, pendingMigrations)).toEqual([]);
    const estimated = await runCliInProcess(['backfill'], env);
    expect(estimated.code, estimated.stderr).toBe(0);
    expect(estimated.stdout).toMatch(/^estimated \d+ translation-days/);
    expect(await withMirror(dataDir, estimates)).toBe(before);
  }, 600_000);
});

/** Runs `work` on the mirror in dataDir and closes it: a command after needs its folder. */
async function withMirror<T>(dataDir: string, work: (handle: DbHandle) => Promise<T>): Promise<T> {
  const handle = await createDb({ databaseUrl: null, dataDir });
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

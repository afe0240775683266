import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { ExplainedError } from '../../src/errors.ts';
import { exportMirror } from '../../src/export/run-export.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { SMALL_INSTANCE } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.ts';

// The export's disk really fills: a tmpfs of its own (mounting needs root, which the machines
// of this project's CI have, as test/sync/full-disk.test.ts), taken up by a ballast file. The
// export stops in one line and the previous export stays exactly as it was; with room again,
// the next export completes. The writer that throws ENOSPC in export.test.ts is the same case
// without the mount.

const run = promisify(execFile);
const databases = useTestDatabases();
const NOW = new Date('2026-12-06T10:00:00Z');
let sim: RunningSimulator;
let handle: DbHandle;
let disk: Tmpfs | undefined;
let mountPoint: string;

beforeAll(async () => {
  disk = await mountTmpfs('wm-export-full-', '32m');
  mountPoint = disk.path;
  sim = await startSimulator({ ...SMALL_INSTANCE, users: 1 });
  handle = await databases.migrated();
  expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
}, 300_000);

afterAll(async () => {
  await sim?.close();
  await disk?.remove();
});

/** Every file under `dir` (but the ballast) with the sha256 of its bytes. */
function contents(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return files;
}

async function fillDisk(ballast: string): Promise<void> {
  const stats = statfsSync(mountPoint);
  await run('fallocate', ['-l', String(stats.bavail * stats.bsize), ballast]);
}

describe('an export onto a disk that fills', () => {
  it('stops in one line, leaves the previous export whole, and completes with room again', async () => {
    const out = join(mountPoint, 'export');
    const ballast = join(mountPoint, 'ballast');
    const options = { out, tables: null, now: NOW };
    await exportMirror(handle, options);
    const before = contents(out);
    expect(Object.keys(before)).toContain('manifest.json');

    // Every unit changes, so the units' file must be written again; the disk has no room.
    await sql`update weblate.units set note = coalesce(note, '') || ' (reviewed)'`.execute(
      handle.db,
    );
    await fillDisk(ballast);
    const failure = await exportMirror(handle, options).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ExplainedError);
    const message = (failure as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(
      new RegExp(
        `^the disk of ${out} is full \\(ENOSPC writing [a-z_]+/[^ ]*\\.parquet\\): free some space`,
      ),
    );
    expect(contents(out)).toEqual(before);

    rmSync(ballast);
    const result = await exportMirror(handle, options);
    expect(result.tables.find((t) => t.name === 'units')?.written).toBe(1);
    const after = contents(out);
    expect(after['units/part-0.parquet']).not.toBe(before['units/part-0.parquet']);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  });
});

import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { isProcessRunning } from '../lib/process-running.ts';
import { sleep } from '../lib/sleep.ts';

export interface DirectoryLock {
  release(): void;
}

/** What holds the folder, when it is more than a command that ends: `serve` keeps it until stopped. */
export type LockHolder = 'serve';

/**
 * PGlite keeps its data in a folder that only one process may open at a time; a second
 * process would corrupt it. The lock is a file created exclusively and holding the owner's
 * pid (then, on a line of its own, a LockHolder). A lock left by a process that no longer runs
 * is taken over.
 */
export async function acquireDirectoryLock(
  dir: string,
  waitMs: number,
  holder?: LockHolder,
): Promise<DirectoryLock> {
  const path = join(dir, 'weblate-mirror.lock');
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lock = tryCreate(path, holder);
    if (lock) return lock;
    const owner = readOwner(path);
    if (owner === null ? isAbandoned(path) : !isProcessRunning(owner)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) throw new Error(inUseMessage(dir, owner, readHolder(path)));
    await sleep(100);
  }
}

function inUseMessage(dir: string, owner: number | null, holder: string | null): string {
  const pid = owner === null ? '' : ` (pid ${owner})`;
  if (holder === 'serve')
    return `the embedded database in ${dir} is served by \`weblate-mirror serve\`${pid}; stop it first, or run \`weblate-mirror serve --worker\`, which syncs in the same process`;
  return (
    `the embedded database in ${dir} is in use by another weblate-mirror process${pid}` +
    '; wait for it to finish, or set DATABASE_URL to share a PostgreSQL server between processes'
  );
}

function tryCreate(path: string, holder: LockHolder | undefined): DirectoryLock | null {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw err;
  }
  try {
    writeSync(fd, holder === undefined ? String(process.pid) : `${process.pid}\n${holder}`);
  } catch (err) {
    // A full disk: no empty lock file is left for the next process to wait out.
    closeSync(fd);
    rmSync(path, { force: true });
    throw err;
  }
  closeSync(fd);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (readOwner(path) === process.pid) rmSync(path, { force: true });
    },
  };
}

function readOwner(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function readHolder(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').split('\n')[1]?.trim() ?? null;
  } catch {
    return null;
  }
}

/** A lock file without a pid is being written, unless it is old: then its writer died. */
function isAbandoned(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > 10_000;
  } catch {
    return false;
  }
}

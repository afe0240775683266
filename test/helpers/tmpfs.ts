import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Tmpfs {
  path: string;
  /** Unmounts it and removes the mount point. */
  remove(): Promise<void>;
}

/**
 * A disk of its own that a test can fill: a tmpfs of `size` (`96m`) on a new folder. Mounting
 * needs root, which the machines of this project's CI have; without it the test fails saying so.
 */
export async function mountTmpfs(prefix: string, size: string): Promise<Tmpfs> {
  const path = mkdtempSync(join(tmpdir(), prefix));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path]);
  } catch (err) {
    rmSync(path, { recursive: true, force: true });
    throw new Error(
      `this test needs to mount a tmpfs of ${size} (as root) to fill a disk: ${(err as Error).message}`,
    );
  }
  return {
    path,
    remove: async () => {
      await run('umount', [path]);
      rmSync(path, { recursive: true, force: true });
    },
  };
}

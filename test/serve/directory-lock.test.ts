import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { acquireDirectoryLock } from '../../src/db/directory-lock.ts';

describe('the embedded folder held by serve', () => {
  it('tells a process that waits for it, in one line, that serve holds it and how to sync', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wm-serve-lock-'));
    try {
      const held = await acquireDirectoryLock(dir, 0, 'serve');
      const error = await acquireDirectoryLock(dir, 0).then(
        () => null,
        (err: unknown) => err as Error,
      );
      held.release();
      expect(error?.message).toBe(
        `the embedded database in ${dir} is served by \`weblate-mirror serve\` (pid ${process.pid}); stop it first, or run \`weblate-mirror serve --worker\`, which syncs in the same process`,
      );
      // Released, the folder is free again.
      (await acquireDirectoryLock(dir, 0)).release();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('still says another process holds it when that is not serve', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wm-serve-lock-'));
    try {
      await writeFile(join(dir, 'weblate-mirror.lock'), String(process.pid));
      await expect(acquireDirectoryLock(dir, 0)).rejects.toThrow(
        /in use by another weblate-mirror process \(pid \d+\); wait for it to finish/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

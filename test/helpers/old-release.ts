import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

export interface OldRelease {
  commit: string;
  /** Its bin/weblate-mirror.js, run with `runBin`. */
  bin: string;
}

/**
 * An earlier commit of weblate-mirror, checked out with `git worktree` and its own
 * dependencies installed, once per machine (a folder under the system's temporary folder).
 */
export async function checkOutRelease(commit: string): Promise<OldRelease> {
  const folder = join(tmpdir(), 'weblate-mirror-releases', commit);
  const ready = join(folder, '.weblate-mirror-release-ready');
  const bin = join(folder, 'bin', 'weblate-mirror.js');
  // A cleaner of the temporary folder, or a machine restored from an image, may have taken its
  // dependencies and left the marker: such a folder is installed again.
  const installed = join(folder, 'node_modules', '.package-lock.json');
  if (existsSync(ready) && existsSync(installed)) return { commit, bin };
  await run('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: REPOSITORY }).catch(() => {
    throw new Error(
      `commit ${commit} is not in this clone (a shallow clone?): run \`git fetch --unshallow\``,
    );
  });
  await rm(folder, { recursive: true, force: true });
  await run('git', ['worktree', 'prune'], { cwd: REPOSITORY });
  await run('git', ['worktree', 'add', '--detach', '--force', folder, commit], {
    cwd: REPOSITORY,
  });
  await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: folder,
    timeout: 600_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  await writeFile(ready, `${commit}\n`);
  return { commit, bin };
}

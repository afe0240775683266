import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A path inside the package's own folder (package.json, assets/): two levels above this
 * module when it runs from src/, three when it runs compiled from dist/src/. The first
 * candidate when neither exists.
 */
export function packagePath(relative: string): string {
  const candidates = ['../../', '../../../'].map((up) =>
    fileURLToPath(new URL(`${up}${relative}`, import.meta.url)),
  );
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!;
}

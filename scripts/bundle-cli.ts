// Bundles the CLI into one file, dist/src/cli/bundle.js, which bin/weblate-mirror.js runs
// (`npm run build` runs this after compiling to dist/). Node's module loader spends most of a
// command's start on resolving and loading modules one by one: the sync command loaded about
// 0.95 CPU-seconds of them from dist/ and its dependencies, 0.35 as one file. That is paid
// by every scheduled `weblate-mirror run`, every `status` and `query`, and every start in the
// tests.
//
// The bundle lies beside the compiled main.js, so the paths modules take from their own
// location (packagePath, the demo's server process) resolve as they do from dist/src/cli/.
// The demo forks its simulated Weblate from demo-server.js beside the bundle: that file is
// bundled too (replacing tsc's), so that the two files run with no other part of dist/,
// which is all the Docker image and the npm package ship.
// PGlite stays outside: it loads its WebAssembly and data files from its own package folder.
// So PGlite is the one entry of package.json's `dependencies` (pinned: the stored empty
// cluster in assets/pglite/ is for one release, and an installed package has no lockfile);
// what the bundles hold are development dependencies, which the image and installs leave out.
import { randomUUID } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const outdir = new URL('../dist/src/cli/', import.meta.url);
const source = (path: string) => new URL(`../src/cli/${path}`, import.meta.url).pathname;

/**
 * Writes the bundles. Each file is written beside its place and renamed over it, so a
 * command started meanwhile (a test suite builds them as it starts) runs the old file or the
 * new one, never half of one.
 */
export async function bundleCli(): Promise<void> {
  const { outputFiles } = await build({
    entryPoints: { bundle: source('main.ts'), 'demo-server': source('demo-server.ts') },
    outdir: outdir.pathname,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    external: ['@electric-sql/pglite', 'pglite-pg17', 'pg-native'],
    // The CommonJS dependencies (pg, pino) call require() for Node's modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
    write: false,
  });
  for (const file of outputFiles) {
    const part = `${file.path}.${randomUUID()}.part`;
    await writeFile(part, file.contents);
    await rename(part, file.path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleCli();
  process.stdout.write(`wrote bundle.js and demo-server.js in ${outdir.pathname}\n`);
}

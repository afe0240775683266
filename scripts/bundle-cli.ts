// Bundles the CLI into one file, dist/src/cli/bundle.js, which bin/weblate-mirror.js runs
// (`npm run build` runs this after compiling to dist/). Node's module loader spends most of a
// command's start on resolving and loading modules one by one: the sync command loaded about
// 0.95 CPU-seconds of them from dist/ and its dependencies, 0.35 as one file. That is paid
// by every scheduled `weblate-mirror run`, every `status` and `query`, and every start in the
// tests.
//
// The bundle lies beside the compiled main.js, so the paths modules take from their own
// location (packagePath, the demo's server process) resolve as they do from dist/src/cli/.
// PGlite stays outside: it loads its WebAssembly and data files from its own package folder.
import { build } from 'esbuild';

const outfile = new URL('../dist/src/cli/bundle.js', import.meta.url);

await build({
  entryPoints: [new URL('../src/cli/main.ts', import.meta.url).pathname],
  outfile: outfile.pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: ['@electric-sql/pglite', 'pg-native'],
  // The CommonJS dependencies (pg, pino) call require() for Node's modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
process.stdout.write(`wrote ${outfile.pathname}\n`);

#!/usr/bin/env -S node --max-old-space-size=256
// The heap cap keeps memory low: a sync holds a page or two at a time (measured live set
// under 100 MB at 10,000 units a page), and without a cap V8 grows its heap far beyond that.
// Run `node --max-old-space-size=<MB> bin/weblate-mirror.js` for a different cap.
//
// Runs the CLI bundled into one file (dist/src/cli/bundle.js, made by `npm run build`).
// Where no sources ship (the Docker image, an installed package) that is all it does. In a
// checkout (src/cli/main.ts present) it runs the bundle while it is at least as new as every
// source file, else the sources through tsx (a development dependency), so that an edit is
// never hidden behind a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/src/cli/bundle.js`;
const sources = `${root}src/cli/main.ts`;

function newestSource(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function isBuildCurrent() {
  if (!existsSync(built)) return false;
  const newest = Math.max(...['src', 'jobs', 'migrations'].map((d) => newestSource(`${root}${d}`)));
  return statSync(built).mtimeMs >= newest;
}

let entry = built;
if (existsSync(sources) && !isBuildCurrent()) {
  const tsx = await import('tsx/esm/api').catch((err) => {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    process.stderr.write(
      'weblate-mirror: the build in dist/ is missing or older than the sources, and tsx is not\n' +
        'installed to run them: run `npm ci` with the development dependencies, which builds it\n',
    );
    process.exit(1);
  });
  tsx.register();
  entry = sources;
}
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
// The command is done. PGlite that failed to start (a full disk) keeps the event loop waiting
// on nothing the command holds or can close, and the process would never end. Output still on
// its way to a slow reader is waited for.
const end = () =>
  process.stdout.writableLength + process.stderr.writableLength > 0
    ? setTimeout(end, 1_000).unref()
    : process.exit();
setTimeout(end, 2_000).unref();

#!/usr/bin/env -S node --max-old-space-size=256
// The heap cap keeps memory low: a sync holds a page or two at a time (measured live set
// under 100 MB at 10,000 units a page), and without a cap V8 grows its heap far beyond that.
// Run `node --max-old-space-size=<MB> bin/weblate-mirror.js` for a different cap.
//
// Runs the CLI bundled into one file (dist/src/cli/bundle.js, made by `npm run build`, which
// `npm install` and `npm ci` run) when it is at least as new as every source file; otherwise
// the TypeScript sources through tsx, so that an edit is never hidden behind a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/src/cli/bundle.js`;

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

const isBuildCurrent =
  existsSync(built) &&
  statSync(built).mtimeMs >=
    Math.max(...['src', 'jobs', 'migrations'].map((dir) => newestSource(`${root}${dir}`)));
let entry = built;
if (!isBuildCurrent) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = `${root}src/cli/main.ts`;
}
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));

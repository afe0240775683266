// Writes the empty embedded-database cluster for the installed PGlite release into
// assets/pglite (see src/db/pglite-cluster.ts). Run it after upgrading PGlite:
//   npm run pglite-cluster
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { buildCluster, clusterFileName } from '../src/db/pglite-cluster.ts';

const dir = join(import.meta.dirname, '..', 'assets', 'pglite');
mkdirSync(dir, { recursive: true });
const name = clusterFileName();
for (const old of readdirSync(dir)) if (old !== name) rmSync(join(dir, old));
const cluster = await buildCluster();
writeFileSync(join(dir, name), cluster);
process.stdout.write(`wrote ${join('assets', 'pglite', name)} (${cluster.length} bytes)\n`);

// Writes the empty embedded-database cluster for the installed PGlite release into
// assets/pglite (see src/db/pglite-cluster.ts), and removes those of other releases. Run it
// after upgrading PGlite:
//   npm run pglite-cluster
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { buildCluster, clusterPath } from '../src/db/pglite-cluster.ts';

const path = clusterPath();
const dir = dirname(path);
mkdirSync(dir, { recursive: true });
for (const old of readdirSync(dir)) if (old !== basename(path)) rmSync(join(dir, old));
const cluster = await buildCluster();
writeFileSync(path, cluster);
process.stdout.write(`wrote ${path} (${cluster.length} bytes)\n`);

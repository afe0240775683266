import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

import { PGlite } from '@electric-sql/pglite';

import { packagePath } from '../lib/package-path.ts';

/**
 * A new embedded database starts from a stored empty cluster rather than from initdb.
 * PGlite runs initdb in a second PostgreSQL instance beside the first and copies its data
 * folder over as a tarball: creating a folder that way peaked at 734 MB RSS, against 330 MB
 * when the same empty cluster is loaded from a tarball. The stored cluster is what initdb
 * makes, for the installed PGlite release only (a different release may change the catalog);
 * `npm run pglite-cluster` writes it, and without it a new folder falls back to initdb.
 */

/** The installed PGlite release (its package.json is not among its exports). */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = dirname(entry);
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** Where the cluster of the installed release is stored. */
export function clusterPath(): string {
  return packagePath(`assets/pglite/cluster-${pgliteVersion()}.tar.br`);
}

/** The stored empty cluster as a tarball PGlite loads, or null when this release has none. */
export function storedCluster(): Blob | null {
  const path = clusterPath();
  if (!existsSync(path)) return null;
  return new Blob([brotliDecompressSync(readFileSync(path))]);
}

/** Runs initdb in memory and returns its data folder as a compressed tarball. */
export async function buildCluster(): Promise<Buffer> {
  const client = await PGlite.create();
  try {
    const tar = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
    return brotliCompressSync(tar, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 },
    });
  } finally {
    await client.close();
  }
}

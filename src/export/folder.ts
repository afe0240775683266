import { readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { ExplainedError } from '../errors.ts';
import { classifyEntries, MANIFEST } from './layout.ts';
import { type Manifest, type ManifestFile, parseManifest } from './manifest.ts';

/** What an output folder holds, once it is known to be an export's (or new, or empty). */
export interface ExportFolder {
  /** The previous export's manifest, when it is one of this format. */
  previous: Manifest | null;
  /** Parquet files where an export puts them. */
  layout: string[];
}

/**
 * Reads the output folder, and refuses one that holds anything but an export of ours: the
 * export deletes files it no longer describes, which must never be someone else's. What an
 * interrupted export left (temporary files) is removed.
 */
export function openExportFolder(out: string): ExportFolder {
  let files: string[];
  try {
    if (!statSync(out).isDirectory())
      throw new ExplainedError(
        `--out ${out} is a file, not a folder; give export a new or empty folder, or one it wrote before`,
      );
    files = listFiles(out);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { previous: null, layout: [] };
    throw err;
  }
  const entries = classifyEntries(files);
  if (entries.foreign.length > 0) {
    const more = entries.foreign.length > 1 ? ` and ${entries.foreign.length - 1} more` : '';
    throw new ExplainedError(
      `--out ${out} holds files that are not a weblate-mirror export (${entries.foreign[0]}${more}); ` +
        'export writes to a new or empty folder, or to one it wrote before: choose another --out, or move those files away',
    );
  }
  let previous: Manifest | null = null;
  if (entries.manifest) {
    const read = parseManifest(readFileSync(join(out, MANIFEST), 'utf8'));
    if (read.kind === 'foreign')
      throw new ExplainedError(
        `--out ${out} holds a manifest.json that is not a weblate-mirror export's; choose another --out, or move it away`,
      );
    if (read.kind === 'current') previous = read.manifest;
  }
  for (const temp of entries.temps) rmSync(join(out, temp), { force: true });
  return { previous, layout: entries.layout };
}

/** Every file below `folder`, relative to it with `/`; anything but files and folders counts as a file. */
function listFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** Whether a file of the previous manifest is still there as it was written (its size). */
export function isIntactIn(out: string): (file: ManifestFile) => boolean {
  return (file) => {
    try {
      return statSync(join(out, file.path)).size === file.bytes;
    } catch {
      return false;
    }
  };
}

/** Removes the folders below `out` left empty (partitions gone, tables no longer exported). */
export function removeEmptyFolders(out: string): void {
  const folders = readdirSync(out, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    // Deepest first, so that a table's folder goes after its months'.
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) {
    try {
      rmdirSync(folder);
    } catch {
      // Not empty: it holds files of the export.
    }
  }
}

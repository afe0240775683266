import type { DatabaseKind } from '../db/client.ts';

/** The manifest's format; a new version rewrites every file of an older export. */
export const MANIFEST_FORMAT = 'weblate-mirror.parquet-export/1';

export interface ManifestColumn {
  name: string;
  postgres_type: string;
  parquet_type: string;
  nullable: boolean;
  /** The file holds PostgreSQL's text of the value (numeric, and types without a mapping). */
  as_text: boolean;
}

export interface ManifestFile {
  /** Relative to the folder, with `/`. */
  path: string;
  /** YYYY-MM, "none", or null for a table that is not partitioned. */
  partition: string | null;
  rows: number;
  bytes: number;
  sha256: string;
  /** Rows and a sum of row hashes, from the database (see docs/data-teams.md). */
  fingerprint: string;
}

export interface ManifestTable {
  columns: ManifestColumn[];
  partition_column: string | null;
  rows: number;
  files: ManifestFile[];
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  exported_at: string;
  /** The newest succeeded sync the export reflects. */
  sync_run: { id: number; finished_at: string | null } | null;
  database: DatabaseKind;
  tables: Record<string, ManifestTable>;
}

/**
 * A manifest.json as read from a folder: ours (this format), ours in another version (its
 * files are all rewritten), or not ours at all.
 */
export type ReadManifest =
  | { kind: 'current'; manifest: Manifest }
  | { kind: 'other-version'; format: string }
  | { kind: 'foreign' };

export function parseManifest(text: string): ReadManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'foreign' };
  }
  if (typeof value !== 'object' || value === null) return { kind: 'foreign' };
  const format = (value as { format?: unknown }).format;
  if (typeof format !== 'string' || !format.startsWith('weblate-mirror.parquet-export/'))
    return { kind: 'foreign' };
  if (format !== MANIFEST_FORMAT || !hasTables(value)) return { kind: 'other-version', format };
  return { kind: 'current', manifest: value as Manifest };
}

function hasTables(value: object): boolean {
  const tables = (value as { tables?: unknown }).tables;
  return (
    typeof tables === 'object' &&
    tables !== null &&
    Object.values(tables).every(
      (table: unknown) =>
        typeof table === 'object' &&
        table !== null &&
        Array.isArray((table as ManifestTable).files) &&
        Array.isArray((table as ManifestTable).columns),
    )
  );
}

/** The manifest's text: stable key order as built, two-space indent, a final newline. */
export function formatManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

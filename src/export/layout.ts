/**
 * Where an export's files go, and what in an output folder is an export's own. The layout is
 * a contract with the dbt models (dbt/) and data teams: docs/data-teams.md.
 */

export const MANIFEST = 'manifest.json';

/**
 * The history tables, each split into a file per month of this column (UTC). Append-mostly
 * and large: a new month's rows rewrite one file, not the table's.
 */
export const PARTITION_COLUMNS: Readonly<Record<string, string>> = {
  changes: 'timestamp',
  translation_statistics: 'captured_at',
  language_statistics: 'captured_at',
  label_statistics: 'captured_at',
  translation_progress_estimated: 'day',
};

/** A partition's month, `YYYY-MM`, or null for rows whose partition column is null. */
export type Month = string | null;

const MONTH = /^(\d{4,})-(\d{2})$/;

/** The file of a table (`month` undefined) or of one month of it, relative to the folder. */
export function filePath(table: string, month?: Month): string {
  if (month === undefined) return `${table}/part-0.parquet`;
  return `${table}/month=${month ?? 'none'}/part-0.parquet`;
}

/** The first day of a month and of the month after it, as YYYY-MM-DD. */
export function monthBounds(month: string): { from: string; to: string } {
  const match = MONTH.exec(month);
  if (match === null) throw new Error(`not a month: "${month}"`);
  const year = Number(match[1]);
  const next = Number(match[2]) + 1;
  const to =
    next > 12
      ? `${String(year + 1).padStart(4, '0')}-01`
      : `${match[1]}-${String(next).padStart(2, '0')}`;
  return { from: `${month}-01`, to: `${to}-01` };
}

/** The name a file is written under before it is renamed into place. */
export function tempPath(path: string, pid: number): string {
  return `${path}.${pid}.tmp`;
}

const LAYOUT_FILE = /^[a-z0-9_]+\/(month=(\d{4,}-\d{2}|none)\/)?part-0\.parquet$/;
const TEMP_SUFFIX = /\.\d+\.tmp$/;

export interface FolderEntries {
  manifest: boolean;
  /** Parquet files where an export puts them. */
  layout: string[];
  /** What an interrupted export left: removed before writing. */
  temps: string[];
  /** Everything else: an export refuses such a folder. */
  foreign: string[];
}

/** Sorts the files of an output folder (paths relative to it, with `/`). */
export function classifyEntries(files: readonly string[]): FolderEntries {
  const entries: FolderEntries = { manifest: false, layout: [], temps: [], foreign: [] };
  for (const file of files) {
    if (file === MANIFEST) entries.manifest = true;
    else if (LAYOUT_FILE.test(file)) entries.layout.push(file);
    else if (TEMP_SUFFIX.test(file) && isOurs(file.replace(TEMP_SUFFIX, '')))
      entries.temps.push(file);
    else entries.foreign.push(file);
  }
  return entries;
}

function isOurs(file: string): boolean {
  return file === MANIFEST || LAYOUT_FILE.test(file);
}

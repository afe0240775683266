import { filePath, type Month, PARTITION_COLUMNS } from './layout.ts';
import type { Manifest, ManifestColumn, ManifestFile, ManifestTable } from './manifest.ts';

/** A partition as the database counts it, in the export's snapshot. */
export interface PartitionCount {
  month: Month;
  rows: number;
  fingerprint: string;
}

export interface TableInput {
  name: string;
  columns: ManifestColumn[];
  partitionColumn: string | null;
  /** Every partition that has rows; one with month null for a table that is not partitioned. */
  partitions: PartitionCount[];
}

/** A file to write: a partition whose content is not what the previous export holds. */
export interface FileJob {
  table: string;
  path: string;
  month: Month;
  rows: number;
  fingerprint: string;
}

export interface TablePlan {
  name: string;
  write: FileJob[];
  /** The previous export's files that already hold the partition's rows. */
  keep: ManifestFile[];
}

export interface ExportPlan {
  tables: TablePlan[];
  /** Layout files in the folder that the new export does not describe. */
  remove: string[];
}

/**
 * The partition column of a table: its entry in PARTITION_COLUMNS, if the table still has
 * that column as a timestamptz or a date; otherwise the table is one file.
 */
export function partitionColumnOf(
  table: string,
  columns: readonly { name: string; typeName: string }[],
): string | null {
  const name = PARTITION_COLUMNS[table];
  const column = columns.find((c) => c.name === name);
  return column !== undefined && ['timestamptz', 'date'].includes(column.typeName)
    ? column.name
    : null;
}

/**
 * A partitioned table without rows still gets a file (empty, in month=none), so that
 * `<table>/**\/*.parquet` always matches and carries the columns.
 */
export function partitionsOrEmpty(counts: readonly PartitionCount[]): PartitionCount[] {
  return counts.length > 0 ? [...counts] : [{ month: null, rows: 0, fingerprint: '0:0' }];
}

/**
 * Decides, file by file, what an export writes and what it keeps of the previous one: a
 * file is kept when its table's columns and partitioning are unchanged, its partition's
 * fingerprint is the same and the file is still as the previous manifest says (`isIntact`).
 */
export function planExport(
  tables: readonly TableInput[],
  previous: Manifest | null,
  isIntact: (file: ManifestFile) => boolean,
  onDisk: readonly string[],
): ExportPlan {
  const plans = tables.map((table) => planTable(table, previous?.tables[table.name], isIntact));
  const described = new Set(
    plans.flatMap((plan) => [
      ...plan.write.map((job) => job.path),
      ...plan.keep.map((file) => file.path),
    ]),
  );
  return { tables: plans, remove: onDisk.filter((path) => !described.has(path)).sort() };
}

function planTable(
  table: TableInput,
  previous: ManifestTable | undefined,
  isIntact: (file: ManifestFile) => boolean,
): TablePlan {
  const reusable =
    previous !== undefined &&
    previous.partition_column === table.partitionColumn &&
    sameColumns(previous.columns, table.columns);
  const previousFiles = new Map((reusable ? previous.files : []).map((file) => [file.path, file]));
  const plan: TablePlan = { name: table.name, write: [], keep: [] };
  for (const partition of table.partitions) {
    const path =
      table.partitionColumn === null ? filePath(table.name) : filePath(table.name, partition.month);
    const old = previousFiles.get(path);
    if (old !== undefined && old.fingerprint === partition.fingerprint && isIntact(old))
      plan.keep.push(old);
    else
      plan.write.push({
        table: table.name,
        path,
        month: partition.month,
        rows: partition.rows,
        fingerprint: partition.fingerprint,
      });
  }
  return plan;
}

function sameColumns(a: readonly ManifestColumn[], b: readonly ManifestColumn[]): boolean {
  const key = (c: ManifestColumn) =>
    [c.name, c.postgres_type, c.parquet_type, c.nullable, c.as_text].join('\u0000');
  return a.length === b.length && a.every((column, i) => key(column) === key(b[i]!));
}

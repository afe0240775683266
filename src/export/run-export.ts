import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { Kysely } from 'kysely';

import type { DbHandle } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import {
  type CatalogTable,
  type PartitionColumn,
  readExportCatalog,
  readNewestSucceededRun,
  readPartitionFingerprints,
  readRowBatches,
  type RowSource,
  useExportSettings,
} from '../db/queries/export.ts';
import { inOneSnapshot } from '../db/snapshot.ts';
import { ExplainedError, toError, UsageError } from '../errors.ts';
import { closestMatch } from '../lib/closest.ts';
import { fromEpochMicros } from '../lib/timestamps.ts';
import { columnKind, PARQUET_TYPE_NAMES, readAs } from './columns.ts';
import { isIntactIn, openExportFolder, removeEmptyFolders } from './folder.ts';
import { MANIFEST, monthBounds, tempPath } from './layout.ts';
import {
  formatManifest,
  type Manifest,
  MANIFEST_FORMAT,
  type ManifestColumn,
  type ManifestFile,
} from './manifest.ts';
import {
  type ExportColumn,
  openFileSink,
  type OpenSink,
  writeParquetFile,
} from './parquet-file.ts';
import {
  type FileJob,
  partitionColumnOf,
  type PartitionCount,
  partitionsOrEmpty,
  planExport,
  type TableInput,
} from './plan.ts';
import { timestamptzToMicros } from './values.ts';

export interface ExportOptions {
  out: string;
  /** Only these tables; null: every table of the mirror. */
  tables: readonly string[] | null;
  now: Date;
  /** Rows per fetch and per row group. */
  batchRows?: number;
  /** Where files are written (a test's disk that fills); default: new files on disk. */
  openSink?: OpenSink;
}

export interface TableSummary {
  name: string;
  rows: number;
  files: number;
  written: number;
  unchanged: number;
  deleted: number;
}

export interface ExportResult {
  manifest: Manifest;
  tables: TableSummary[];
  /** Files of the previous export that no longer exist (partitions, tables). */
  removed: string[];
}

export const DEFAULT_BATCH_ROWS = 5_000;

interface TableSpec {
  catalog: CatalogTable;
  partition: PartitionColumn | null;
  input: TableInput;
}

/**
 * Writes the mirror's tables as Parquet into `out`, from one snapshot, rewriting only the
 * files whose partition changed since the folder's manifest. New files are written beside the
 * old ones and renamed into place once all are written, then the manifest: a failure on the
 * way leaves the previous export as it was (docs/data-teams.md).
 */
export async function exportMirror(
  handle: DbHandle,
  options: ExportOptions,
): Promise<ExportResult> {
  const folder = openExportFolder(options.out);
  const written = new Map<string, ManifestFile>();
  const temps: string[] = [];
  try {
    const { specs, plan, syncRun } = await inOneSnapshot(handle.db, 1, (read) =>
      read(async (db) => {
        await useExportSettings(db);
        const specs = await readSpecs(db, options.tables);
        const plan = planExport(
          specs.map((s) => s.input),
          folder.previous,
          isIntactIn(options.out),
          folder.layout,
        );
        const syncRun = await readNewestSucceededRun(db);
        for (const job of plan.tables.flatMap((t) => t.write)) {
          const spec = specs.find((s) => s.catalog.name === job.table)!;
          const temp = join(options.out, tempPath(job.path, process.pid));
          temps.push(temp);
          written.set(job.path, await writeFile(db, spec, job, temp, options));
        }
        return { specs, plan, syncRun };
      }),
    );
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      exported_at: options.now.toISOString(),
      sync_run:
        syncRun === null
          ? null
          : {
              id: syncRun.id,
              finished_at:
                syncRun.finishedAt === null
                  ? null
                  : fromEpochMicros(timestamptzToMicros(syncRun.finishedAt)),
            },
      database: handle.kind,
      tables: Object.fromEntries(
        plan.tables.map((table) => {
          const spec = specs.find((s) => s.catalog.name === table.name)!;
          const files = [...table.keep, ...table.write.map((job) => written.get(job.path)!)].sort(
            (a, b) => a.path.localeCompare(b.path),
          );
          return [
            table.name,
            {
              columns: spec.input.columns,
              partition_column: spec.partition?.name ?? null,
              rows: files.reduce((sum, file) => sum + file.rows, 0),
              files,
            },
          ];
        }),
      ),
    };
    const manifestTemp = join(options.out, tempPath(MANIFEST, process.pid));
    temps.push(manifestTemp);
    await writeText(
      manifestTemp,
      formatManifest(manifest),
      options.openSink ?? openFileSink,
      options.out,
    );
    // Files first, the manifest last: a manifest never describes a file that is not there.
    for (const path of written.keys())
      renameSync(join(options.out, tempPath(path, process.pid)), join(options.out, path));
    renameSync(manifestTemp, join(options.out, MANIFEST));
    temps.length = 0;
    for (const path of plan.remove) rmSync(join(options.out, path), { force: true });
    removeEmptyFolders(options.out);
    return {
      manifest,
      removed: plan.remove,
      tables: plan.tables.map((table) => ({
        name: table.name,
        rows: manifest.tables[table.name]!.rows,
        files: table.keep.length + table.write.length,
        written: table.write.length,
        unchanged: table.keep.length,
        deleted: plan.remove.filter((path) => path.startsWith(`${table.name}/`)).length,
      })),
    };
  } finally {
    // Only after a failure: what was written goes, what the previous export wrote stays.
    for (const temp of temps) rmSync(temp, { force: true });
    if (temps.length > 0) removeEmptyFolders(options.out);
  }
}

/** The chosen tables with their columns and partition counts; an unknown name is a usage error. */
async function readSpecs(
  db: Kysely<Database>,
  chosen: readonly string[] | null,
): Promise<TableSpec[]> {
  const catalog = await readExportCatalog(db);
  const names = catalog.map((t) => t.name);
  for (const name of chosen ?? []) {
    if (names.includes(name)) continue;
    const near = closestMatch(name, names);
    throw new UsageError(
      `--tables: the mirror has no table "${name}"${near === null ? '' : `; did you mean "${near}"?`} (its tables: ${names.join(', ')})`,
    );
  }
  const specs: TableSpec[] = [];
  for (const table of catalog.filter((t) => chosen === null || chosen.includes(t.name))) {
    const name = partitionColumnOf(table.name, table.columns);
    const partition =
      name === null
        ? null
        : {
            name,
            typeName: table.columns.find((c) => c.name === name)!.typeName as
              'timestamptz' | 'date',
          };
    const counts: PartitionCount[] = (
      await readPartitionFingerprints(db, table.name, partition)
    ).map((p) => ({
      month: p.month,
      rows: p.rows,
      fingerprint: `${p.rows}:${p.hashSum}`,
    }));
    specs.push({
      catalog: table,
      partition,
      input: {
        name: table.name,
        columns: table.columns.map((c): ManifestColumn => {
          const kind = columnKind(c.typeName);
          return {
            name: c.name,
            postgres_type: c.type,
            parquet_type: PARQUET_TYPE_NAMES[kind],
            nullable: c.isNullable,
            as_text: kind === 'as-text',
          };
        }),
        partitionColumn: partition?.name ?? null,
        partitions: partitionsOrEmpty(counts),
      },
    });
  }
  return specs;
}

/** One partition's file, written to `temp`; its manifest entry. */
async function writeFile(
  db: Kysely<Database>,
  spec: TableSpec,
  job: FileJob,
  temp: string,
  options: ExportOptions,
): Promise<ManifestFile> {
  const columns: ExportColumn[] = spec.catalog.columns.map((c) => ({
    name: c.name,
    kind: columnKind(c.typeName),
    isNullable: c.isNullable,
  }));
  const source: RowSource = {
    table: spec.catalog.name,
    columns: columns.map((c) => ({ name: c.name, readAs: readAs(c.kind) })),
    where:
      spec.partition === null
        ? null
        : job.month === null
          ? { column: spec.partition, isNull: true }
          : { column: spec.partition, ...monthBounds(job.month) },
    orderBy: spec.catalog.primaryKey,
  };
  const sink = await openSink(options, temp, job.path);
  let file;
  try {
    file = await writeParquetFile(
      sink,
      columns,
      readRowBatches(db, source, options.batchRows ?? DEFAULT_BATCH_ROWS),
    );
  } catch (err) {
    await sink.abort();
    throw explainWriteError(err, options.out, job.path);
  }
  // Counted and read in one snapshot: a difference is a bug of the partition bounds.
  if (file.rows !== job.rows)
    throw new Error(
      `export of ${job.path}: read ${file.rows} rows where the same snapshot counts ${job.rows}`,
    );
  return {
    path: job.path,
    partition: spec.partition === null ? null : (job.month ?? 'none'),
    rows: file.rows,
    bytes: file.bytes,
    sha256: file.sha256,
    fingerprint: job.fingerprint,
  };
}

async function openSink(options: ExportOptions, temp: string, path: string) {
  try {
    mkdirSync(dirname(temp), { recursive: true });
    return await (options.openSink ?? openFileSink)(temp);
  } catch (err) {
    throw explainWriteError(err, options.out, path);
  }
}

async function writeText(path: string, text: string, open: OpenSink, out: string): Promise<void> {
  const sink = await open(path).catch((err: unknown) => {
    throw explainWriteError(err, out, MANIFEST);
  });
  try {
    await sink.write(new TextEncoder().encode(text));
    await sink.finish();
  } catch (err) {
    await sink.abort();
    throw explainWriteError(err, out, MANIFEST);
  }
}

/** A full disk or a folder we may not write, said with the folder; database errors pass. */
function explainWriteError(err: unknown, out: string, path: string): Error {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new ExplainedError(
      `the disk of ${out} is full (${code} writing ${path}): free some space and run export again; ` +
        'it needs room for the files it rewrites beside the old ones. The previous export there is unchanged',
      { cause: err },
    );
  if (
    typeof code === 'string' &&
    /^E[A-Z]+$/.test(code) &&
    !/^ECONN|^EPIPE$|^ETIMEDOUT$/.test(code)
  )
    return new ExplainedError(`cannot write ${path} in ${out}: ${toError(err).message}`, {
      cause: err,
    });
  return toError(err);
}

import { resolve } from 'node:path';

import { loadConfig } from '../../config.ts';
import { UsageError } from '../../errors.ts';
import { exportMirror, type ExportResult } from '../../export/run-export.ts';
import { jsonDocument } from '../../lib/json-document.ts';
import { peakRssMb } from '../../lib/peak-rss.ts';
import { createLogger } from '../../logger.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { print, printJson, withDatabase } from '../runtime.ts';

export const exportCommand: Command = {
  name: 'export',
  description:
    'Write the tables of the mirror as Parquet files, for DuckDB, BigQuery and the like.',
  summary:
    'Write every table of the mirror (or those of --tables) as Parquet files into a folder, from one\n' +
    'snapshot: <out>/<table>/part-0.parquet, and the history tables (changes, the statistics) a\n' +
    'file per month, <out>/<table>/month=YYYY-MM/part-0.parquet, with <out>/manifest.json last.\n' +
    'Run again into the same folder, it rewrites only the files whose rows changed and removes\n' +
    'those of months and tables no longer there. The folder must be new, empty, or an export\n' +
    'of ours. Types and layout: docs/data-teams.md.',
  usage: 'export --out <folder> [options]',
  options: {
    ...DATABASE_OPTIONS,
    out: { type: 'string' },
    tables: { type: 'string' },
    json: { type: 'boolean' },
  },
  optionHelp: [
    '--out <folder>         where the files go (required)',
    '--tables <names>       only these tables, separated by commas (default: all); the folder then',
    '                       holds only these',
    '--json                 print one JSON object for programs instead of a line per table',
    ...DATABASE_HELP,
  ],
  async run(values, positionals) {
    if (positionals.length > 0)
      throw new UsageError(
        `export takes no arguments (got "${positionals[0]}"); use --out <folder>`,
      );
    const out = typeof values.out === 'string' ? values.out : '';
    if (out === '') throw new UsageError('export needs --out <folder>');
    const tables = parseTables(values.tables);
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'read' }, async (handle) => {
      const result = await exportMirror(handle, { out: resolve(out), tables, now: new Date() });
      if (values.json === true) printJson(exportDocument(result));
      else printSummary(result, out);
      return 0;
    });
  },
};

/** --tables as a list of names; null when not given. */
export function parseTables(value: unknown): string[] | null {
  if (typeof value !== 'string') return null;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError('--tables needs table names separated by commas');
  return [...new Set(names)];
}

function printSummary(result: ExportResult, out: string): void {
  const width = Math.max(...result.tables.map((t) => t.name.length));
  for (const table of result.tables) {
    const deleted = table.deleted > 0 ? `, ${table.deleted} deleted` : '';
    print(
      `${table.name.padEnd(width)}  ${table.written} written, ${table.unchanged} unchanged${deleted}; ` +
        `${table.rows.toLocaleString('en-US')} rows`,
    );
  }
  const gone = result.removed.filter(
    (path) => !result.tables.some((t) => path.startsWith(`${t.name}/`)),
  );
  if (gone.length > 0)
    print(
      `removed ${gone.length} file${gone.length === 1 ? '' : 's'} of tables no longer exported`,
    );
  const run = result.manifest.sync_run;
  print(
    `Exported to ${out} (manifest.json); ${run === null ? 'no sync has succeeded yet' : `as of sync run ${run.id}, finished ${run.finished_at ?? 'at an unknown time'}`}`,
  );
}

function exportDocument(result: ExportResult) {
  return jsonDocument('export', {
    exported_at: result.manifest.exported_at,
    sync_run: result.manifest.sync_run,
    database: result.manifest.database,
    tables: result.tables,
    removed: result.removed,
    // The export's memory is bounded by a batch, not a table (docs/performance.md).
    peak_rss_mb: peakRssMb(),
  });
}

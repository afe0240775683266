import { loadConfig } from '../../config.ts';
import { isLockHeld } from '../../db/advisory-lock.ts';
import type { DbHandle } from '../../db/client.ts';
import type { SyncRunRow } from '../../db/database.ts';
import { readInstance } from '../../db/queries/instances.ts';
import { countRows } from '../../db/queries/status.ts';
import { listSyncRuns } from '../../db/queries/sync-runs.ts';
import { UsageError } from '../../errors.ts';
import { jsonDocument } from '../../lib/json-document.ts';
import { toUtcMicros } from '../../lib/timestamps.ts';
import { createLogger } from '../../logger.ts';
import { formatDuration, formatTable } from '../../sync/summary.ts';
import { WRITER_LOCK } from '../../sync/write-session.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { print, printJson, withDatabase } from '../runtime.ts';

/** A run left running by a process that stopped, as `status` lists it. */
const STOPPED = 'its process stopped before recording the end; the next run closes it';

export const statusCommand: Command = {
  name: 'status',
  description: 'Show the last sync runs and the number of rows in each table.',
  summary:
    'Show the Weblate instance the database mirrors, the last sync runs and the number of rows in\n' +
    'each table.',
  usage: 'status [options]',
  options: { ...DATABASE_OPTIONS, runs: { type: 'string' }, json: { type: 'boolean' } },
  optionHelp: [
    '--runs <n>             how many recent runs to list (default 10)',
    '--json                 print it as one JSON object on stdout (README, "Output for programs")',
    ...DATABASE_HELP,
  ],
  async run(values) {
    const runs = Number(values.runs ?? 10);
    if (!Number.isInteger(runs) || runs < 1)
      throw new UsageError('--runs must be a positive whole number');
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'read' }, async (handle) => {
      const status = await readStatus(handle, runs);
      if (values.json === true) printJson(statusDocument(status));
      else printStatus(status);
      return 0;
    });
  },
};

interface Status {
  database: string;
  instance: string | null;
  runs: Array<SyncRunRow & { shownStatus: string; shownError: string | null }>;
  tables: Record<string, number>;
}

async function readStatus(handle: DbHandle, runs: number): Promise<Status> {
  const { db, location } = handle;
  const instance = await readInstance(db);
  const listed = await listSyncRuns(db, runs);
  // A run marked running while no process holds the writer lock has stopped; the next
  // run records it failed (closeAbandonedRuns).
  const stopped =
    listed.some((r) => r.status === 'running') && !(await isLockHeld(handle, WRITER_LOCK));
  return {
    database: location,
    instance: instance?.api_root ?? null,
    runs: listed.map((r) => {
      const isStopped = r.status === 'running' && stopped;
      return {
        ...r,
        shownStatus: isStopped ? 'stopped' : r.status,
        shownError: isStopped ? STOPPED : r.error,
      };
    }),
    tables: await countRows(db),
  };
}

function printStatus(status: Status): void {
  print(`database: ${status.database}`);
  print(
    `instance: ${status.instance ?? 'none recorded yet (the next sync that writes records it)'}`,
  );
  print();
  const rows = status.runs.map((r) => [
    String(r.id),
    r.kind,
    r.shownStatus,
    r.started_at.slice(0, 19).replace('T', ' '),
    r.finished_at === null
      ? ''
      : formatDuration(Date.parse(r.finished_at) - Date.parse(r.started_at)),
    String(r.requests),
    String(r.rows_written),
    (r.shownError ?? '').slice(0, 80),
  ]);
  print(
    rows.length === 0
      ? 'no sync runs yet'
      : formatTable(
          ['run', 'kind', 'status', 'started (UTC)', 'took', 'requests', 'rows', 'error'],
          rows,
        ),
  );
  print();
  print(
    formatTable(
      ['table', 'rows'],
      Object.entries(status.tables).map(([t, n]) => [`weblate.${t}`, String(n)]),
    ),
  );
}

/** Status as `status --json` prints it (README, "Output for programs"). */
function statusDocument(status: Status) {
  return jsonDocument('status', {
    database: status.database,
    instance: status.instance,
    runs: status.runs.map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.shownStatus,
      started_at: toUtcMicros(r.started_at),
      finished_at: r.finished_at === null ? null : toUtcMicros(r.finished_at),
      requests: r.requests,
      rows_written: Number(r.rows_written),
      rejected: r.rejected,
      error: r.shownError,
    })),
    tables: status.tables,
  });
}

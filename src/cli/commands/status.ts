import { loadConfig } from '../../config.ts';
import { isLockHeld } from '../../db/advisory-lock.ts';
import { readInstance } from '../../db/queries/instances.ts';
import { countRows } from '../../db/queries/status.ts';
import { listSyncRuns } from '../../db/queries/sync-runs.ts';
import { UsageError } from '../../errors.ts';
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
import { print, withDatabase } from '../runtime.ts';

/** A run left running by a process that stopped, as `status` lists it. */
const STOPPED = 'its process stopped before recording the end; the next run closes it';

export const statusCommand: Command = {
  name: 'status',
  description: 'Show the last sync runs and the number of rows in each table.',
  summary:
    'Show the Weblate instance the database mirrors, the last sync runs and the number of rows in\n' +
    'each table.',
  usage: 'status [options]',
  options: { ...DATABASE_OPTIONS, runs: { type: 'string' } },
  optionHelp: [
    '--runs <n>             how many recent runs to list (default 10)',
    ...DATABASE_HELP,
  ],
  async run(values) {
    const runs = Number(values.runs ?? 10);
    if (!Number.isInteger(runs) || runs < 1)
      throw new UsageError('--runs must be a positive whole number');
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'read' }, async (handle) => {
      const { db, location } = handle;
      print(`database: ${location}`);
      const instance = await readInstance(db);
      print(
        `instance: ${instance?.api_root ?? 'none recorded yet (the next sync that writes records it)'}`,
      );
      print();
      const listed = await listSyncRuns(db, runs);
      // A run marked running while no process holds the writer lock has stopped; the next
      // run records it failed (closeAbandonedRuns).
      const stopped =
        listed.some((r) => r.status === 'running') && !(await isLockHeld(handle, WRITER_LOCK));
      const rows = listed.map((r) => [
        String(r.id),
        r.kind,
        r.status === 'running' && stopped ? 'stopped' : r.status,
        r.started_at.slice(0, 19).replace('T', ' '),
        r.finished_at === null
          ? ''
          : formatDuration(Date.parse(r.finished_at) - Date.parse(r.started_at)),
        String(r.requests),
        String(r.rows_written),
        (r.status === 'running' && stopped ? STOPPED : (r.error ?? '')).slice(0, 80),
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
      const counts = await countRows(db);
      print(
        formatTable(
          ['table', 'rows'],
          Object.entries(counts).map(([t, n]) => [`weblate.${t}`, String(n)]),
        ),
      );
      return 0;
    });
  },
};

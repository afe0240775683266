import type { Config } from '../../config.ts';
import { loadConfig } from '../../config.ts';
import { withLockSession } from '../../db/advisory-lock.ts';
import { ConfigError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { createLogger } from '../../logger.ts';
import type { RunResult } from '../../sync/run-record.ts';
import { runSync, type SyncResult } from '../../sync/run-sync.ts';
import {
  formatSummary,
  hasReadAnything,
  readBeyondWrittenNote,
  syncDocument,
} from '../../sync/summary.ts';
import { configuredRun, withWriter } from '../../sync/write-session.ts';
import {
  type Command,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
  SYNC_ENVIRONMENT,
  WEBLATE_FLAGS,
  WEBLATE_HELP,
  WEBLATE_OPTIONS,
} from '../args.ts';
import { withInterruption } from '../interruption.ts';
import { ProgressLine } from '../progress.ts';
import { print, printError, printJson, withDatabase } from '../runtime.ts';
import { dryRunOnce } from './dry-run.ts';

export const syncCommand: Command = {
  name: 'sync',
  description: 'Mirror Weblate into the database: everything the first time, then what changed.',
  summary:
    'Mirror everything in scope from Weblate into the database (migrates first when needed), then print what\n' +
    'was read and written per resource. The first sync reads everything; later ones read what changed.\n' +
    'The result goes to stdout; warnings and the error of a failed run to stderr, with the logs.\n' +
    'Exit code 0 when the sync succeeded (records that could not be stored are kept in\n' +
    'weblate.rejected_records and counted), 1 when it failed or was interrupted (SIGINT/SIGTERM),\n' +
    '2 when a setting does not fit (a WEBLATE_URL of another instance than the database mirrors).',
  usage: 'sync [options]',
  options: {
    ...DATABASE_OPTIONS,
    ...WEBLATE_OPTIONS,
    full: { type: 'boolean' },
    json: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  },
  optionHelp: [
    '--full                 read every list completely and mark what vanished upstream as deleted',
    '--json                 print the run as one JSON object on stdout (README, "Output for programs")',
    '--dry-run              read the discovery lists and print what the sync would read (resources, estimated requests and records), writing nothing to the database',
    ...WEBLATE_HELP,
    ...DATABASE_HELP,
  ],
  environment: SYNC_ENVIRONMENT,
  async run(values) {
    const config = loadConfig({
      overrides: flagOverrides(values, WEBLATE_FLAGS),
      required: ['WEBLATE_URL'],
    });
    const log = createLogger({ level: config.logLevel });
    const full = values.full === true;
    const json = values.json === true;
    if (values['dry-run'] === true)
      return withInterruption(log, (signal) => dryRunOnce(config, log, { signal, full, json }));
    const result = await withInterruption(log, (signal) =>
      syncOnce(config, log, { signal, full, json }),
    );
    return exitCodeOf(result);
  },
};

/**
 * Migrates, runs one sync with a progress line on a terminal, and prints its summary (with
 * `json`, its document).
 */
export async function syncOnce(
  config: Config,
  log: Logger,
  options: { signal?: AbortSignal; full?: boolean; json?: boolean } = {},
): Promise<SyncResult> {
  return withDatabase(config, log, { mode: 'migrate' }, async (handle) => {
    const progress =
      options.json !== true && ProgressLine.isSupported(process.stdout)
        ? new ProgressLine(process.stdout)
        : null;
    try {
      // A sync by hand never interleaves its writes with a worker's run: it waits for it.
      const result = await withLockSession(handle, (session) =>
        withWriter(
          session,
          handle,
          configuredRun(config, log),
          {
            signal: options.signal,
            onWait: () => log.info('waiting for a worker job that writes the mirror'),
          },
          (deps) =>
            runSync(deps, {
              signal: options.signal,
              full: options.full,
              lookbackSeconds: config.lookbackSeconds,
              discoveryIntervalSeconds: config.discoveryIntervalSeconds,
              onStart: (tally) => progress?.attach(tally),
            }),
        ),
      );
      progress?.stop();
      if (options.json === true) {
        printJson(syncDocument(result, handle.location));
        printProblems(result);
      } else printResult(result, handle.location);
      return result;
    } finally {
      progress?.stop();
    }
  });
}

/**
 * The exit code of a run: 0 when it succeeded, 2 when a setting did not fit the database (a
 * WEBLATE_URL of another instance: fixed by configuration, not by running again), else 1.
 */
export function exitCodeOf(result: RunResult): number {
  if (result.status === 'succeeded') return 0;
  return result.error instanceof ConfigError ? 2 : 1;
}

/**
 * The outcome of a run: on stdout its header and its table when it read anything; on stderr
 * its warnings and, for a run that failed, the error as the last line.
 */
export function printResult(result: RunResult, database: string): void {
  const what = result.kind === 'statistics' ? 'statistics snapshot' : `${result.kind} sync`;
  const { summary } = result;
  const of = result.instance === null ? '' : ` of ${result.instance}`;
  print(
    `${what} run ${result.runId}${of} into ${database}: ${result.status}` +
      (summary.rejected > 0
        ? ` (${summary.rejected} records rejected, see weblate.rejected_records)`
        : ''),
  );
  if (hasReadAnything(summary)) {
    print();
    print(formatSummary(summary));
    const note = readBeyondWrittenNote(summary);
    if (note !== null) print(note);
  } else if (result.error === null) {
    print(`nothing new upstream (${summary.requests} request${summary.requests === 1 ? '' : 's'})`);
  }
  printProblems(result);
}

/** A run's warnings and error, for people, on stderr (with or without --json). */
function printProblems(result: RunResult): void {
  const { summary } = result;
  for (const warning of summary.warnings.slice(0, 10)) printError(`warning: ${warning}`);
  if (summary.warnings.length > 10)
    printError(`(${summary.warnings.length - 10} more warnings in weblate.sync_runs.summary)`);
  if (result.error !== null) {
    if (summary.rowsWritten > 0)
      printError(
        `What was committed before the ${result.status === 'interrupted' ? 'interruption' : 'failure'} stays; the next run picks it up again.`,
      );
    printError(`error: ${result.error.message}`);
  }
}

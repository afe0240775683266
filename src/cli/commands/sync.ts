import type { Config } from '../../config.ts';
import { loadConfig } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import { createLogger } from '../../logger.ts';
import { overlapsCommits, runSync, type SyncResult } from '../../sync/run-sync.ts';
import { formatSummary } from '../../sync/summary.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { ProgressLine } from '../progress.ts';
import { createClient, print, withDatabase } from '../runtime.ts';

const SYNC_FLAGS = {
  ...DATABASE_FLAGS,
  url: 'WEBLATE_URL',
  projects: 'WEBLATE_PROJECTS',
  users: 'WEBLATE_USERS',
  concurrency: 'WEBLATE_CONCURRENCY',
  'max-rps': 'WEBLATE_MAX_RPS',
} as const;

export const syncCommand: Command = {
  name: 'sync',
  summary:
    'Mirror everything in scope from Weblate into the database (migrates first when needed), then print what\n' +
    'was read and written per resource. The first sync reads everything; later ones read what changed.\n' +
    'Exit code 0 when the sync succeeded (records that could not be stored are kept in\n' +
    'weblate.rejected_records and counted), 1 when it failed.',
  usage: 'sync [options]',
  options: {
    ...DATABASE_OPTIONS,
    url: { type: 'string' },
    projects: { type: 'string' },
    users: { type: 'string' },
    concurrency: { type: 'string' },
    'max-rps': { type: 'string' },
    full: { type: 'boolean' },
  },
  optionHelp: [
    '--full                 read every list completely and mark what vanished upstream as deleted',
    '--url <url>            Weblate instance (env WEBLATE_URL); the token comes from WEBLATE_TOKEN only',
    '--projects <slugs>     comma-separated project slugs (env WEBLATE_PROJECTS); default: all',
    '--users <names>        usernames whose notification subscriptions to mirror (env WEBLATE_USERS)',
    '--concurrency <n>      requests in flight (env WEBLATE_CONCURRENCY, default 4)',
    '--max-rps <n>          requests per second, 0 for no limit (env WEBLATE_MAX_RPS)',
    ...DATABASE_HELP,
  ],
  async run(values) {
    const config = loadConfig({
      overrides: flagOverrides(values, SYNC_FLAGS),
      required: ['WEBLATE_URL'],
    });
    const log = createLogger({ level: config.logLevel });
    const full = values.full === true;
    const result = await withInterruption(log, (signal) => syncOnce(config, log, { signal, full }));
    return result.status === 'succeeded' ? 0 : 1;
  },
};

/**
 * Runs `task` with a signal that the first SIGINT or SIGTERM aborts: the sync stops after
 * the statements in flight, records the run and closes the database cleanly (the embedded
 * database must not be cut off mid-write). A second signal exits at once.
 */
export async function withInterruption<T>(
  log: Logger,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    log.warn(
      { signal },
      'stopping after the work in flight; send the signal again to exit at once',
    );
    controller.abort(new Error(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await task(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Migrates, runs one sync with a progress line on a terminal, and prints its summary. */
export async function syncOnce(
  config: Config,
  log: Logger,
  options: { signal?: AbortSignal; full?: boolean } = {},
): Promise<SyncResult> {
  return withDatabase(config, log, { migrate: true }, async (handle) => {
    const client = createClient(config, log);
    const progress = ProgressLine.isSupported(process.stdout)
      ? new ProgressLine(process.stdout)
      : null;
    try {
      const result = await runSync(
        {
          db: handle.db,
          client,
          log,
          scope: { projects: config.projects, users: config.users },
          overlapCommits: overlapsCommits(handle.kind),
        },
        {
          signal: options.signal,
          full: options.full,
          lookbackSeconds: config.lookbackSeconds,
          onStart: (tally) => progress?.attach(tally),
        },
      );
      progress?.stop();
      printResult(result, config, handle.location);
      return result;
    } finally {
      progress?.stop();
      await client.close();
    }
  });
}

function printResult(result: SyncResult, config: Config, database: string): void {
  print(
    `${result.mode} sync run ${result.runId} of ${config.weblateUrl?.href ?? '?'} into ${database}: ${result.status}` +
      (result.summary.rejected > 0
        ? ` (${result.summary.rejected} records rejected, see weblate.rejected_records)`
        : ''),
  );
  print();
  print(formatSummary(result.summary));
  for (const warning of result.summary.warnings.slice(0, 10)) print(`warning: ${warning}`);
  if (result.summary.warnings.length > 10)
    print(`(${result.summary.warnings.length - 10} more warnings in weblate.sync_runs.summary)`);
  if (result.error !== null) {
    print();
    print(`error: ${result.error.message}`);
    print('What was committed before the failure stays; the next sync picks it up again.');
  }
}

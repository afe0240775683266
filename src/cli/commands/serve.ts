import { readFileSync } from 'node:fs';

import { JOBS } from '../../../jobs/index.ts';
import { CRON_VARIABLES, loadConfig } from '../../config.ts';
import { locationOf } from '../../db/client.ts';
import { ExplainedError, UsageError } from '../../errors.ts';
import { createLogger } from '../../logger.ts';
import { listenFailure, refuseServe } from '../../serve/plan.ts';
import { type RunningServe, startServe } from '../../serve/server.ts';
import { SharedSession } from '../../serve/shared-session.ts';
import { runWorker } from '../../worker/worker.ts';
import {
  type Command,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
  type OptionValues,
  SYNC_ENVIRONMENT,
  variableOptionHelp,
  WEBLATE_FLAGS,
  WEBLATE_HELP,
  WEBLATE_OPTIONS,
} from '../args.ts';
import { withInterruption } from '../interruption.ts';
import { withDatabase } from '../runtime.ts';

const SERVE_FLAGS = {
  ...WEBLATE_FLAGS,
  port: 'SERVE_PORT',
  host: 'SERVE_HOST',
} as const;

export const serveCommand: Command = {
  name: 'serve',
  description: 'Serve the embedded mirror read-only to PostgreSQL clients (psql, Grafana, dbt).',
  summary:
    'Serve the embedded database over the PostgreSQL protocol, read-only, until SIGTERM or SIGINT:\n' +
    'clients run as the role weblate_reader in read-only transactions, and statements that could\n' +
    'leave that (SET ROLE, set_config, READ WRITE, COPY to a file, …) are refused. The database is one\n' +
    'session: clients take turns, a statement or a transaction each, and a transaction left open\n' +
    'longer than SERVE_IDLE_IN_TRANSACTION_SECONDS ends its connection. With --worker, the scheduled\n' +
    'jobs run in the same process and keep the mirror in sync while clients read (worker --help).\n' +
    'Only 127.0.0.1 unless SERVE_PASSWORD (or --password-file) is set. With DATABASE_URL it exits 2:\n' +
    'point clients at PostgreSQL itself. See docs/data-teams.md, "Serving the embedded mirror".',
  usage: 'serve [options]',
  options: {
    ...DATABASE_OPTIONS,
    ...WEBLATE_OPTIONS,
    port: { type: 'string' },
    host: { type: 'string' },
    'password-file': { type: 'string' },
    worker: { type: 'boolean' },
  },
  optionHelp: [
    variableOptionHelp('--port <port>', 'SERVE_PORT'),
    variableOptionHelp('--host <addr>', 'SERVE_HOST'),
    '--password-file <f>    read SERVE_PASSWORD from this file (its first line)',
    '--worker               also run the scheduled jobs in this process (needs WEBLATE_URL)',
    ...WEBLATE_HELP,
    ...DATABASE_HELP,
  ],
  environment: [
    'SERVE_PASSWORD',
    'SERVE_IDLE_IN_TRANSACTION_SECONDS',
    ...SYNC_ENVIRONMENT,
    ...CRON_VARIABLES,
    'WORKER_TIMEZONE',
    'WORKER_SHUTDOWN_TIMEOUT_SECONDS',
  ],
  async run(values) {
    const withWorker = values.worker === true;
    const config = loadConfig({
      overrides: { ...flagOverrides(values, SERVE_FLAGS), ...passwordOverride(values) },
      required: withWorker ? ['WEBLATE_URL'] : [],
    });
    const refusal = refuseServe(config, locationOf(config));
    if (refusal !== null) throw new UsageError(refusal);
    const log = createLogger({ level: config.logLevel });
    let session: SharedSession | null = null;
    await withInterruption(
      log,
      (signal) =>
        withDatabase(
          config,
          log,
          {
            mode: withWorker ? 'migrate' : 'read',
            lockHolder: 'serve',
            shareSession: async (client) => {
              session = await SharedSession.open(client);
              return session.mirrorTurns();
            },
          },
          async (handle) => {
            const served = await listenOn(session!, config, log);
            log.info(
              {
                host: config.serveHost,
                port: served.port,
                dataDir: config.dataDir,
                worker: withWorker,
              },
              'serving the mirror to PostgreSQL clients, read-only',
            );
            try {
              if (withWorker) await runWorker({ handle, config, log, signal, jobs: JOBS });
              else await untilAborted(signal);
            } finally {
              await served.close();
            }
          },
        ),
      { deadlineMs: config.shutdownTimeoutMs },
    );
    return 0;
  },
};

/** --password-file: the file's first line, as SERVE_PASSWORD; never echoed. */
function passwordOverride(values: OptionValues): { SERVE_PASSWORD?: string } {
  const file = values['password-file'];
  if (typeof file !== 'string') return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--password-file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
  const password = text.split(/\r?\n/, 1)[0] ?? '';
  if (password === '') throw new UsageError(`--password-file ${file}: its first line is empty`);
  return { SERVE_PASSWORD: password };
}

async function listenOn(
  session: SharedSession,
  config: ReturnType<typeof loadConfig>,
  log: ReturnType<typeof createLogger>,
): Promise<RunningServe> {
  try {
    return await startServe(session, {
      host: config.serveHost,
      port: config.servePort,
      password: config.servePassword,
      idleTransactionMs: config.serveIdleTransactionMs,
      log,
    });
  } catch (err) {
    throw new ExplainedError(
      listenFailure(err as NodeJS.ErrnoException, config.serveHost, config.servePort),
      { cause: err },
    );
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

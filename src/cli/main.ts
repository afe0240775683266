import { readFileSync } from 'node:fs';

import { ConfigError, UsageError } from '../errors.ts';
import { packagePath } from '../lib/package-path.ts';
import { type Command, commandHelp, parseCommandArgs } from './args.ts';
import { backfillCommand } from './commands/backfill.ts';
import { demoCommand } from './commands/demo.ts';
import { migrateCommand } from './commands/migrate.ts';
import { queryCommand } from './commands/query.ts';
import { reportCommand } from './commands/report.ts';
import { runJobCommand } from './commands/run-job.ts';
import { simulateCommand } from './commands/simulate.ts';
import { statusCommand } from './commands/status.ts';
import { syncCommand } from './commands/sync.ts';
import { workerCommand } from './commands/worker.ts';

const COMMANDS: Command[] = [
  syncCommand,
  backfillCommand,
  workerCommand,
  runJobCommand,
  migrateCommand,
  statusCommand,
  queryCommand,
  reportCommand,
  demoCommand,
  simulateCommand,
];

function globalHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: weblate-mirror <command> [options]',
    '',
    'Keeps a PostgreSQL warehouse in step with a Weblate instance.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary.split('\n')[0]}`),
    '',
    "Run `weblate-mirror <command> --help` for a command's options. Configuration comes from environment",
    'variables (and a .env file); see the README. Exit codes: 0 success, 1 failed sync, 2 bad usage or configuration.',
  ].join('\n');
}

/** The package version, from the package's package.json. */
function version(): string {
  try {
    return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

/** Runs the CLI and returns its exit code; never throws. */
export async function main(argv: string[]): Promise<number> {
  // A reader that goes away (`… | head`) is not an error of ours: output stops, the work
  // in hand still finishes and closes the database properly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
      stream.destroy();
    });
  }
  const [name, ...rest] = argv;
  try {
    if (name === undefined) throw new UsageError(globalHelp());
    if (name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write(`${globalHelp()}\n`);
      return 0;
    }
    if (name === '--version' || name === '-v') {
      process.stdout.write(`${version()}\n`);
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === name);
    if (!command) throw new UsageError(`unknown command "${name}"\n\n${globalHelp()}`);
    const { values, positionals } = parseCommandArgs(command, rest);
    if (values.help === true) {
      process.stdout.write(`${commandHelp(command)}\n`);
      return 0;
    }
    return await command.run(values, positionals);
  } catch (err) {
    return reportError(err);
  }
}

function reportError(err: unknown): number {
  if (err instanceof ConfigError) {
    process.stderr.write(
      `weblate-mirror: configuration problem${err.problems.length > 1 ? 's' : ''}:\n`,
    );
    for (const problem of err.problems) process.stderr.write(`  - ${problem}\n`);
    return 2;
  }
  if (err instanceof UsageError) {
    process.stderr.write(`weblate-mirror: ${err.message}\n`);
    return 2;
  }
  process.stderr.write(`weblate-mirror: ${describeChain(err)}\n`);
  return 1;
}

/** The message and its causes, without stack traces. */
function describeChain(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  while (current instanceof Error && parts.length < 4) {
    if (!parts.some((p) => p.includes(current instanceof Error ? current.message : '')))
      parts.push(current.message);
    current = current.cause;
  }
  if (parts.length === 0) parts.push(typeof err === 'string' ? err : 'unknown error');
  return parts.join(': ');
}

import { readFileSync } from 'node:fs';

import { ConfigError, ExplainedError, UsageError } from '../errors.ts';
import { closestMatch } from '../lib/closest.ts';
import { packagePath } from '../lib/package-path.ts';
import { redactUrlsInText } from '../lib/redact.ts';
import { type Command, commandHelp, parseCommandArgs } from './args.ts';

/**
 * The commands, in the order help lists them, each loaded only when it runs: a command then
 * starts without the modules of the others (the worker's HTTP server and scheduler, the
 * simulator, the report's renderers), which matters to the scripts and tests that start the
 * CLI many times. Only the list of every command (help, an unknown name) loads them all.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  sync: async () => (await import('./commands/sync.ts')).syncCommand,
  check: async () => (await import('./commands/check.ts')).checkCommand,
  backfill: async () => (await import('./commands/backfill.ts')).backfillCommand,
  worker: async () => (await import('./commands/worker.ts')).workerCommand,
  run: async () => (await import('./commands/run-job.ts')).runJobCommand,
  migrate: async () => (await import('./commands/migrate.ts')).migrateCommand,
  status: async () => (await import('./commands/status.ts')).statusCommand,
  'move-instance': async () => (await import('./commands/move-instance.ts')).moveInstanceCommand,
  query: async () => (await import('./commands/query.ts')).queryCommand,
  serve: async () => (await import('./commands/serve.ts')).serveCommand,
  report: async () => (await import('./commands/report.ts')).reportCommand,
  export: async () => (await import('./commands/export.ts')).exportCommand,
  ready: async () => (await import('./commands/ready.ts')).readyCommand,
  digest: async () => (await import('./commands/digest.ts')).digestCommand,
  demo: async () => (await import('./commands/demo.ts')).demoCommand,
  simulate: async () => (await import('./commands/simulate.ts')).simulateCommand,
};

/** The usage and the list of commands, each with its one-sentence description. */
export async function globalHelp(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: weblate-mirror <command> [options]',
    '',
    'Keeps a PostgreSQL warehouse in step with a Weblate instance.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.description}`),
    '',
    "Run `weblate-mirror <command> --help` for a command's options. Configuration comes from environment",
    'variables (and a .env file); see the README.',
    'Results go to stdout; errors, warnings and logs to stderr. sync, status and check take --json, and',
    'report --format json: one JSON object for programs (README, "Output for programs").',
    'Exit codes: 0 success, 1 a failure (a failed sync, no mirror to read), 2 bad usage or configuration.',
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

let streamsGuarded = false;

/**
 * A reader that goes away (`… | head`) is not an error of ours: output stops, the work in hand
 * still finishes and closes the database properly. Once per process, however often main runs.
 */
function guardStreams(): void {
  if (streamsGuarded) return;
  streamsGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
      stream.destroy();
    });
  }
}

/** Runs the CLI and returns its exit code; never throws. */
export async function main(argv: string[]): Promise<number> {
  guardStreams();
  const [name, ...rest] = argv;
  try {
    if (name === undefined) throw new UsageError(await globalHelp());
    if (name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write(`${await globalHelp()}\n`);
      return 0;
    }
    if (name === '--version' || name === '-v') {
      process.stdout.write(`${version()}\n`);
      return 0;
    }
    const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (load === undefined) {
      const near = closestMatch(name, Object.keys(COMMANDS));
      throw new UsageError(
        `unknown command "${name}"${near === null ? '' : `; did you mean "${near}"?`}\n\n${await globalHelp()}`,
      );
    }
    const command = await load();
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

/**
 * Writes the error to stderr and returns the exit code. Every line goes through
 * redactUrlsInText: a URL with a password must not reach the terminal whatever quoted it.
 */
function reportError(err: unknown): number {
  const write = (line: string) => process.stderr.write(`${redactUrlsInText(line)}\n`);
  if (err instanceof ConfigError) {
    write(`weblate-mirror: configuration problem${err.problems.length > 1 ? 's' : ''}:`);
    for (const problem of err.problems) write(`  - ${problem}`);
    return 2;
  }
  if (err instanceof UsageError) {
    write(`weblate-mirror: ${err.message}`);
    return 2;
  }
  write(`weblate-mirror: ${describeChain(err)}`);
  return 1;
}

/**
 * The message and its causes, without stack traces. An ExplainedError already says what its
 * causes mean, so the chain ends there.
 */
function describeChain(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  while (current instanceof Error && parts.length < 4) {
    if (!parts.some((p) => p.includes(current instanceof Error ? current.message : '')))
      parts.push(current.message);
    if (current instanceof ExplainedError) break;
    current = current.cause;
  }
  if (parts.length === 0) parts.push(typeof err === 'string' ? err : 'unknown error');
  return parts.join(': ');
}

import { parseArgs, type ParseArgsConfig } from 'node:util';

import type { ConfigSource } from '../config.ts';
import { UsageError } from '../errors.ts';
import { closestMatch } from '../lib/closest.ts';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export type OptionValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface Command {
  name: string;
  /** One whole sentence, on one line, for the list of commands. */
  description: string;
  /** What --help of the command says about it (lines may be wrapped). */
  summary: string;
  usage: string;
  options: OptionSpec;
  /** Lines describing each option, for --help. */
  optionHelp: string[];
  /** Option values as parseArgs gives them: arrays for options declared `multiple`. */
  run(values: OptionValues, positionals: string[]): Promise<number>;
}

/** Options every command accepts. */
export const COMMON_OPTIONS: OptionSpec = {
  help: { type: 'boolean', short: 'h' },
  'log-level': { type: 'string' },
};

/** Options that choose the database. */
export const DATABASE_OPTIONS: OptionSpec = {
  'database-url': { type: 'string' },
  'data-dir': { type: 'string' },
};

export const DATABASE_HELP = [
  '--database-url <url>   PostgreSQL to use (env DATABASE_URL); default: the embedded database',
  '--data-dir <dir>       folder of the embedded database (env WEBLATE_MIRROR_DATA_DIR)',
];
export const COMMON_HELP = [
  '--log-level <level>    fatal, error, warn, info, debug, trace or silent (env LOG_LEVEL)',
  '-h, --help             show this help',
];

/**
 * Parses a command's arguments; unknown options are usage errors (exit code 2), with the
 * nearest known option as a suggestion.
 */
export function parseCommandArgs(command: Command, argv: string[]) {
  const options = { ...COMMON_OPTIONS, ...command.options };
  const unknown = findUnknownOption(options, argv);
  if (unknown !== null) {
    const names = Object.keys(options);
    const near = unknown.startsWith('--') ? closestMatch(unknown.slice(2), names) : null;
    throw new UsageError(
      `unknown option ${unknown}${near === null ? '' : `; did you mean --${near}?`}\n\n${commandHelp(command)}`,
    );
  }
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${commandHelp(command)}`);
  }
}

/** The first option that `options` does not know, as written (without any `=value`). */
function findUnknownOption(options: OptionSpec, argv: string[]): string | null {
  const { tokens } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const known = new Set(
    Object.entries(options).flatMap(([name, spec]) => [name, ...(spec.short ?? [])]),
  );
  const token = tokens.find((t) => t.kind === 'option' && !known.has(t.name));
  return token?.kind === 'option' ? token.rawName : null;
}

export function commandHelp(command: Command): string {
  return [
    `Usage: weblate-mirror ${command.usage}`,
    '',
    command.summary,
    '',
    'Options:',
    ...[...command.optionHelp, ...COMMON_HELP].map((l) => `  ${l}`),
  ].join('\n');
}

/** Maps flags to the configuration variables they override. */
export function flagOverrides(
  values: OptionValues,
  map: Record<string, keyof ConfigSource>,
): ConfigSource {
  const overrides: ConfigSource = {};
  for (const [flag, variable] of Object.entries(map)) {
    const value = values[flag];
    if (typeof value === 'string') overrides[variable] = value;
  }
  return overrides;
}

export const DATABASE_FLAGS = {
  'database-url': 'DATABASE_URL',
  'data-dir': 'WEBLATE_MIRROR_DATA_DIR',
  'log-level': 'LOG_LEVEL',
} as const;

/** Options that choose the Weblate instance, the scope and the request rate (sync, run, worker). */
export const WEBLATE_OPTIONS: OptionSpec = {
  url: { type: 'string' },
  projects: { type: 'string' },
  users: { type: 'string' },
  concurrency: { type: 'string' },
  'max-rps': { type: 'string' },
};

export const WEBLATE_HELP = [
  '--url <url>            Weblate instance (env WEBLATE_URL); the token comes from WEBLATE_TOKEN only',
  '--projects <slugs>     comma-separated project slugs (env WEBLATE_PROJECTS); default: all',
  '--users <names>        usernames whose notification subscriptions to mirror (env WEBLATE_USERS)',
  '--concurrency <n>      requests in flight (env WEBLATE_CONCURRENCY, default 4)',
  '--max-rps <n>          requests per second, 0 for no limit (env WEBLATE_MAX_RPS)',
];

export const WEBLATE_FLAGS = {
  ...DATABASE_FLAGS,
  url: 'WEBLATE_URL',
  projects: 'WEBLATE_PROJECTS',
  users: 'WEBLATE_USERS',
  concurrency: 'WEBLATE_CONCURRENCY',
  'max-rps': 'WEBLATE_MAX_RPS',
} as const;

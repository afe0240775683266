import { parseArgs, type ParseArgsConfig } from 'node:util';

import { CONFIG_TABLE, type ConfigSource, type ConfigVariable } from '../config.ts';
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
  /** Variables the command reads that no option sets, listed in --help from the configuration table. */
  environment?: ConfigVariable[];
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

/** Where the description of an option starts in --help, after two spaces of indent. */
const OPTION_WIDTH = 22;
const HELP_WIDTH = 100;

/**
 * The --help line of an option that sets a variable: the table's help line, naming the
 * variable inside its closing parenthesis (or in one of its own), then any `note`.
 */
export function variableOptionHelp(option: string, variable: ConfigVariable, note = ''): string {
  const help = CONFIG_TABLE[variable].help;
  const described = help.endsWith(')')
    ? `${help.slice(0, -1)}; env ${variable})`
    : `${help} (env ${variable})`;
  return `${option.padEnd(OPTION_WIDTH)} ${described}${note}`;
}

export const DATABASE_HELP = [
  variableOptionHelp('--database-url <url>', 'DATABASE_URL'),
  variableOptionHelp('--data-dir <dir>', 'WEBLATE_MIRROR_DATA_DIR'),
];
export const COMMON_HELP = [
  variableOptionHelp('--log-level <level>', 'LOG_LEVEL'),
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
    ...[...command.optionHelp, ...COMMON_HELP].flatMap(optionLines),
    ...environmentHelp(command.environment ?? []),
  ].join('\n');
}

/** An option's help line, its description wrapped to HELP_WIDTH under its own column. */
function optionLines(line: string): string[] {
  const column = OPTION_WIDTH + 1;
  if (line.length + 2 <= HELP_WIDTH || line[column - 1] !== ' ') return [`  ${line}`];
  const indent = ' '.repeat(2 + column);
  return wrap(line.slice(column), HELP_WIDTH - indent.length).map((part, i) =>
    i === 0 ? `  ${line.slice(0, column)}${part}` : `${indent}${part}`,
  );
}

/** The variables with their help lines from the configuration table, wrapped to HELP_WIDTH. */
export function environmentHelp(variables: ConfigVariable[]): string[] {
  if (variables.length === 0) return [];
  const width = Math.max(...variables.map((name) => name.length));
  const indent = ' '.repeat(2 + width + 2);
  return [
    '',
    'Environment (also read from ./.env; an option wins over its variable):',
    ...variables.flatMap((name) =>
      wrap(CONFIG_TABLE[name].help, HELP_WIDTH - indent.length).map(
        (line, i) => `${i === 0 ? `  ${name.padEnd(width)}  ` : indent}${line}`,
      ),
    ),
  ];
}

/** Words of `text` in lines of at most `width` characters (a longer word gets its own line). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
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
  variableOptionHelp('--url <url>', 'WEBLATE_URL', '; the token comes from WEBLATE_TOKEN only'),
  variableOptionHelp('--projects <slugs>', 'WEBLATE_PROJECTS'),
  variableOptionHelp('--users <names>', 'WEBLATE_USERS'),
  variableOptionHelp('--concurrency <n>', 'WEBLATE_CONCURRENCY'),
  variableOptionHelp('--max-rps <n>', 'WEBLATE_MAX_RPS'),
];

/** What a sync reads that no option sets (sync, run and worker). */
export const SYNC_ENVIRONMENT: ConfigVariable[] = [
  'WEBLATE_TOKEN',
  'WEBLATE_MIRROR_MEMORY_LIMIT_MB',
  'WEBLATE_MAX_PAGE_SIZE',
  'WEBLATE_MAX_ATTEMPTS',
  'WEBLATE_TIMEOUT_SECONDS',
  'WEBLATE_CONNECT_TIMEOUT_SECONDS',
  'WEBLATE_MAX_WAIT_SECONDS',
  'WEBLATE_LOOKBACK_SECONDS',
  'WEBLATE_DISCOVERY_INTERVAL_SECONDS',
  'WEBLATE_ALLOW_HTTP',
  'DATABASE_RETRY_SECONDS',
];

export const WEBLATE_FLAGS = {
  ...DATABASE_FLAGS,
  url: 'WEBLATE_URL',
  projects: 'WEBLATE_PROJECTS',
  users: 'WEBLATE_USERS',
  concurrency: 'WEBLATE_CONCURRENCY',
  'max-rps': 'WEBLATE_MAX_RPS',
} as const;

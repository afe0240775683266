import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

import {
  type Config,
  CONFIG_TABLE,
  CONFIG_VARIABLE_NAMES,
  type ConfigSource,
  type ConfigVariable,
  type CronVariable,
  type SchemaContext,
  schemaOf,
  type Setting,
} from './config-table.ts';
import { ConfigError } from './errors.ts';
import { redactUrl } from './lib/redact.ts';

export {
  type Config,
  CONFIG_TABLE,
  CONFIG_VARIABLE_NAMES,
  type ConfigSource,
  type ConfigVariable,
  CRON_VARIABLES,
  type CronVariable,
  LOG_LEVELS,
  type LogLevel,
} from './config-table.ts';

/**
 * The only reader of process.env. Sources, weakest first: defaults, a `.env` file in the
 * working directory, the environment, then command-line flags (`overrides`). Every bad
 * variable is reported at once in one ConfigError. What each variable means and how it
 * parses is in config-table.ts.
 */

export interface LoadConfigOptions {
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Values from command-line flags; they win over everything else. */
  overrides?: ConfigSource;
  /** Variables that must be set for the command at hand. */
  required?: ConfigVariable[];
  /** Path of the .env file; defaults to ./.env, false to skip. */
  envFile?: string | false;
}

/**
 * Whether a package manager's script runner started this process (`npm start`, `npx`, and
 * yarn's and pnpm's alike): they set npm_lifecycle_event for what they run.
 */
export function isStartedByPackageManager(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.npm_lifecycle_event ?? '') !== '';
}

/** WEBLATE_URL's schema depends on WEBLATE_ALLOW_HTTP, so that one is read (and reported) first. */
const READ_ORDER: ConfigVariable[] = [
  'WEBLATE_ALLOW_HTTP',
  ...CONFIG_VARIABLE_NAMES.filter((name) => name !== 'WEBLATE_ALLOW_HTTP'),
];

export function loadConfig(options: LoadConfigOptions = {}): Readonly<Config> {
  const source = mergeSources(options);
  const get = (name: ConfigVariable): string | undefined => {
    const value = source[name]?.trim();
    return value === '' ? undefined : value;
  };
  const problems = (options.required ?? [])
    .filter((name) => get(name) === undefined)
    .map((name) => `${name} is required: ${CONFIG_TABLE[name].help}`);
  const values = new Map<ConfigVariable, unknown>();
  const context = (): SchemaContext => ({ allowHttp: values.get('WEBLATE_ALLOW_HTTP') === true });
  for (const name of READ_ORDER) {
    const setting: Setting = CONFIG_TABLE[name];
    const raw = get(name);
    const result = schemaOf(setting, context()).safeParse(raw);
    if (result.success) values.set(name, result.data);
    else
      problems.push(
        `${name}=${JSON.stringify(shownValue(setting, raw ?? ''))}: ${result.error.issues[0]?.message}`,
      );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(assemble(values));
}

/** The Config from each variable's value, its fields in the table's order. */
function assemble(values: Map<ConfigVariable, unknown>): Config {
  const config: Record<string, unknown> = {};
  for (const name of CONFIG_VARIABLE_NAMES) {
    const { field } = CONFIG_TABLE[name];
    const value = values.get(name);
    if (field !== 'cron') config[field] = value;
    else {
      // Cron variables share one record; an unset one stays out, so the job's default applies.
      const cron = (config.cron ??= {}) as Config['cron'];
      if (value !== undefined) cron[name as CronVariable] = value as string | null;
    }
  }
  return config as unknown as Config;
}

/** A value as an error message may show it. */
function shownValue(setting: Setting, raw: string): string {
  if (setting.shown === 'secret') return '…';
  return setting.shown === undefined ? raw : redactUrl(raw, setting.shown.url);
}

function mergeSources(options: LoadConfigOptions): ConfigSource {
  const envFile = options.envFile ?? resolve('.env');
  const fromFile =
    envFile !== false && existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {};
  const env = options.env ?? process.env;
  const merged: ConfigSource = {};
  for (const name of CONFIG_VARIABLE_NAMES) {
    merged[name] = options.overrides?.[name] ?? env[name] ?? fromFile[name];
  }
  return merged;
}

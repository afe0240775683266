import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

import { validateDetailed as validateCron } from 'node-cron';

import { DEFAULT_MEMORY_LIMIT_MB } from './db/memory-limit.ts';
import { ConfigError } from './errors.ts';
import { isLoopbackHost } from './lib/hosts.ts';
import { redactUrl } from './lib/redact.ts';
import { checkWebhookSecret } from './lib/webhook-secret.ts';

/**
 * The only reader of process.env. Sources, weakest first: defaults, a `.env` file in the
 * working directory, the environment, then command-line flags (`overrides`). Every bad
 * variable is reported at once in one ConfigError.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** Instance root (e.g. https://hosted.weblate.org/), always with a trailing slash. */
  weblateUrl: URL | null;
  weblateToken: string | null;
  /** postgres:// URL, or null for the embedded database in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  /** Memory (RSS) at which a sync into the embedded database stops; see db/memory-limit.ts. */
  memoryLimitMb: number;
  /** Project slugs in scope, or null for every project the token can see. */
  projects: string[] | null;
  users: string[];
  logLevel: LogLevel;
  concurrency: number;
  /** Largest page_size the mirror asks for (Weblate's own limits are 1000 and 10,000). */
  maxPageSize: number;
  /** Requests per second across all workers; 0 means no limit of our own. */
  maxRps: number;
  maxAttempts: number;
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Longest wait for the server's rate budget before a run stops (and the next resumes). */
  maxWaitMs: number;
  /** How far before the last high-water mark a change window starts again. */
  lookbackSeconds: number;
  /** Seconds between complete reads of the discovery lists by incremental syncs (0: every sync). */
  discoveryIntervalSeconds: number;
  allowHttp: boolean;
  /**
   * Cron expressions of the worker's jobs, by variable: absent when unset (the job's own
   * default applies), null when set to `off` (the job is not scheduled).
   */
  cron: Partial<Record<CronVariable, string | null>>;
  /** IANA time zone the cron expressions are read in. */
  timezone: string;
  /** Port of the worker's /healthz and /metrics server; null for no server. */
  httpPort: number | null;
  httpHost: string;
  /** /healthz answers 503 when the last successful sync finished longer ago than this. */
  healthMaxAgeSeconds: number;
  /** After SIGTERM or SIGINT, the longest `worker` and `run` take to stop before exiting 1. */
  shutdownTimeoutMs: number;
  /**
   * Secret of Weblate's webhook add-on (base64, optionally `whsec_`-prefixed); null: the
   * worker has no webhook endpoint.
   */
  webhookSecret: string | null;
  /** How long the worker waits after a webhook event for more before one coalesced sync. */
  webhookDebounceMs: number;
}

/** Variables holding the cron expression of a worker job (see jobs/). */
export const CRON_VARIABLES = [
  'WORKER_SYNC_CRON',
  'WORKER_STATISTICS_CRON',
  'WORKER_RECONCILE_CRON',
] as const;
export type CronVariable = (typeof CRON_VARIABLES)[number];

/** Variable name → description, for help texts and the README. */
export const CONFIG_VARIABLES = {
  WEBLATE_URL: 'base URL of the Weblate instance (required by sync)',
  WEBLATE_TOKEN: 'API token, sent as "Authorization: Token <key>" to that origin only',
  DATABASE_URL: 'postgres:// URL; empty means the embedded PGlite database',
  WEBLATE_MIRROR_DATA_DIR: 'folder of the embedded database (default ./.weblate-mirror)',
  WEBLATE_MIRROR_MEMORY_LIMIT_MB:
    'memory in MB at which a sync into the embedded database stops and asks for DATABASE_URL, 300-1900 (default 1500)',
  WEBLATE_PROJECTS: 'comma-separated project slugs to mirror (default: all)',
  WEBLATE_USERS: 'comma-separated usernames whose notification subscriptions are mirrored',
  LOG_LEVEL: `one of ${LOG_LEVELS.join(', ')} (default info)`,
  WEBLATE_CONCURRENCY: 'requests in flight at once (default 4)',
  WEBLATE_MAX_PAGE_SIZE:
    'largest page of records asked for at once, 100-10000 (default 10000, as far as Weblate allows: 1000 for most lists)',
  WEBLATE_MAX_RPS: 'requests per second, 0 for no limit (default 0)',
  WEBLATE_MAX_ATTEMPTS: 'attempts per request before the sync fails (default 5)',
  WEBLATE_TIMEOUT_SECONDS: 'timeout for response headers and for body inactivity (default 60)',
  WEBLATE_CONNECT_TIMEOUT_SECONDS: 'timeout for opening a connection (default 10)',
  WEBLATE_MAX_WAIT_SECONDS:
    'longest wait for the rate budget before a run stops and leaves the rest to the next (default 900)',
  WEBLATE_LOOKBACK_SECONDS: 'overlap of each change window with the previous one (default 300)',
  WEBLATE_DISCOVERY_INTERVAL_SECONDS:
    'seconds between complete reads of the project, component, translation and language lists by incremental syncs; 0 reads them every sync (default 3600)',
  WEBLATE_ALLOW_HTTP: 'set to 1 to allow plain http:// to a non-loopback host',
  WORKER_SYNC_CRON:
    'cron expression of the worker\'s incremental sync, or "off" (default */15 * * * *)',
  WORKER_STATISTICS_CRON:
    'cron expression of the worker\'s statistics snapshot, or "off" (default 0 * * * *)',
  WORKER_RECONCILE_CRON:
    'cron expression of the worker\'s full reconcile sweep, or "off" (default 30 3 * * *)',
  WORKER_TIMEZONE: 'IANA time zone of the cron expressions (default UTC)',
  WORKER_HTTP_PORT: "port of the worker's /healthz and /metrics server (default: no server)",
  WORKER_HTTP_HOST: 'address that server listens on (default 127.0.0.1; 0.0.0.0 in a container)',
  WORKER_HEALTH_MAX_AGE_SECONDS:
    '/healthz fails when the last successful sync is older than this (default 3600)',
  WORKER_SHUTDOWN_TIMEOUT_SECONDS:
    'after SIGTERM or SIGINT, the longest worker and run take to stop before they exit 1, 1-3600 (default 10)',
  WEBLATE_WEBHOOK_SECRET:
    "secret of Weblate's webhook add-on (base64, optionally whsec_-prefixed); enables POST /webhooks/weblate on the worker's HTTP server (default: no endpoint)",
  WEBHOOK_DEBOUNCE_SECONDS:
    'seconds the worker waits after a webhook event for more before one sync of them all, 0-300 (default 2)',
} as const;
export type ConfigVariable = keyof typeof CONFIG_VARIABLES;
export type ConfigSource = Partial<Record<ConfigVariable, string | undefined>>;

/** Variables whose values never appear in an error message. */
const SECRET_VARIABLES: ReadonlySet<ConfigVariable> = new Set([
  'WEBLATE_TOKEN',
  'WEBLATE_WEBHOOK_SECRET',
]);

/**
 * URL-valued variables, shown in an error message with their credentials masked: the
 * database's user helps and stays; Weblate takes none, so whatever is there may be a token.
 */
const URL_VARIABLES: Partial<Record<ConfigVariable, { hideUser: boolean }>> = {
  DATABASE_URL: { hideUser: false },
  WEBLATE_URL: { hideUser: true },
};

/** A value as an error message may show it. */
function shownValue(name: ConfigVariable, raw: string): string {
  if (SECRET_VARIABLES.has(name)) return '…';
  const url = URL_VARIABLES[name];
  return url === undefined ? raw : redactUrl(raw, url);
}

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

export function loadConfig(options: LoadConfigOptions = {}): Readonly<Config> {
  const source = mergeSources(options);
  const problems: string[] = [];
  const get = (name: ConfigVariable): string | undefined => {
    const value = source[name]?.trim();
    return value === '' ? undefined : value;
  };
  for (const name of options.required ?? []) {
    if (get(name) === undefined) problems.push(`${name} is required: ${CONFIG_VARIABLES[name]}`);
  }
  const check = <T>(name: ConfigVariable, parse: (raw: string) => T, fallback: T): T => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    try {
      return parse(raw);
    } catch (err) {
      problems.push(`${name}=${JSON.stringify(shownValue(name, raw))}: ${(err as Error).message}`);
      return fallback;
    }
  };
  const allowHttp = check('WEBLATE_ALLOW_HTTP', parseFlag, false);
  const config: Config = {
    weblateUrl: check('WEBLATE_URL', (raw) => parseWeblateUrl(raw, allowHttp), null),
    weblateToken: check('WEBLATE_TOKEN', parseToken, null),
    databaseUrl: check('DATABASE_URL', parseDatabaseUrl, null),
    dataDir: resolve(get('WEBLATE_MIRROR_DATA_DIR') ?? './.weblate-mirror'),
    memoryLimitMb: check(
      'WEBLATE_MIRROR_MEMORY_LIMIT_MB',
      (raw) => parseInteger(raw, 300, 1900),
      DEFAULT_MEMORY_LIMIT_MB,
    ),
    projects: check('WEBLATE_PROJECTS', parseList, null),
    users: check('WEBLATE_USERS', parseList, []),
    logLevel: check('LOG_LEVEL', parseLogLevel, 'info'),
    concurrency: check('WEBLATE_CONCURRENCY', (raw) => parseInteger(raw, 1, 64), 4),
    maxPageSize: check('WEBLATE_MAX_PAGE_SIZE', (raw) => parseInteger(raw, 100, 10_000), 10_000),
    maxRps: check('WEBLATE_MAX_RPS', (raw) => parseNumber(raw, 0, 10_000), 0),
    maxAttempts: check('WEBLATE_MAX_ATTEMPTS', (raw) => parseInteger(raw, 1, 100), 5),
    timeoutMs: check(
      'WEBLATE_TIMEOUT_SECONDS',
      (raw) => parseNumber(raw, 0.1, 3600) * 1000,
      60_000,
    ),
    connectTimeoutMs: check(
      'WEBLATE_CONNECT_TIMEOUT_SECONDS',
      (raw) => parseNumber(raw, 0.1, 600) * 1000,
      10_000,
    ),
    maxWaitMs: check(
      'WEBLATE_MAX_WAIT_SECONDS',
      (raw) => parseNumber(raw, 0, 86_400) * 1000,
      900_000,
    ),
    lookbackSeconds: check('WEBLATE_LOOKBACK_SECONDS', (raw) => parseNumber(raw, 0, 86_400), 300),
    discoveryIntervalSeconds: check(
      'WEBLATE_DISCOVERY_INTERVAL_SECONDS',
      (raw) => parseNumber(raw, 0, 7 * 86_400),
      3600,
    ),
    allowHttp,
    cron: Object.fromEntries(
      CRON_VARIABLES.flatMap((name) => {
        const value = check(name, parseCron, undefined);
        return value === undefined ? [] : [[name, value]];
      }),
    ),
    timezone: check('WORKER_TIMEZONE', parseTimezone, 'UTC'),
    httpPort: check('WORKER_HTTP_PORT', (raw) => parseInteger(raw, 0, 65_535), null),
    httpHost: check('WORKER_HTTP_HOST', parseHost, '127.0.0.1'),
    healthMaxAgeSeconds: check(
      'WORKER_HEALTH_MAX_AGE_SECONDS',
      (raw) => parseNumber(raw, 1, 365 * 86_400),
      3600,
    ),
    shutdownTimeoutMs: check(
      'WORKER_SHUTDOWN_TIMEOUT_SECONDS',
      (raw) => parseNumber(raw, 1, 3600) * 1000,
      10_000,
    ),
    webhookSecret: check('WEBLATE_WEBHOOK_SECRET', parseWebhookSecret, null),
    webhookDebounceMs: check(
      'WEBHOOK_DEBOUNCE_SECONDS',
      (raw) => Math.round(parseNumber(raw, 0, 300) * 1000),
      2000,
    ),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

function mergeSources(options: LoadConfigOptions): ConfigSource {
  const envFile = options.envFile ?? resolve('.env');
  const fromFile =
    envFile !== false && existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {};
  const env = options.env ?? process.env;
  const merged: ConfigSource = {};
  for (const name of Object.keys(CONFIG_VARIABLES) as ConfigVariable[]) {
    merged[name] = options.overrides?.[name] ?? env[name] ?? fromFile[name];
  }
  return merged;
}

/** Accepts the instance root or its /api/ URL; returns the root with a trailing slash. */
function parseWeblateUrl(raw: string, allowHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('not an absolute URL (expected e.g. https://weblate.example.org/)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('must be an http(s) URL');
  if (url.username || url.password)
    throw new Error('must not contain credentials; use WEBLATE_TOKEN');
  if (url.protocol === 'http:' && !allowHttp && !isLoopbackHost(url.hostname)) {
    throw new Error(
      'plain http:// would send the token unencrypted; use https:// or set WEBLATE_ALLOW_HTTP=1',
    );
  }
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/api\/?$/, '/').replace(/\/?$/, '/');
  return url;
}

function parseToken(raw: string): string {
  if (/\s/.test(raw)) throw new Error('must not contain whitespace');
  return raw;
}

/** The package that verifies the signatures decides, so what passes here also verifies. */
function parseWebhookSecret(raw: string): string {
  checkWebhookSecret(raw);
  return raw;
}

function parseDatabaseUrl(raw: string): string {
  if (!/^postgres(ql)?:\/\//.test(raw))
    throw new Error('must be a postgres:// or postgresql:// URL');
  try {
    new URL(raw);
  } catch {
    throw new Error('is not a valid URL');
  }
  return raw;
}

function parseList(raw: string): string[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const item of items) {
    if (!/^[\w.@+-]+$/.test(item)) throw new Error(`"${item}" is not a valid slug or username`);
  }
  return [...new Set(items)];
}

function parseLogLevel(raw: string): LogLevel {
  const level = raw.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new Error(`must be one of ${LOG_LEVELS.join(', ')}`);
  return level as LogLevel;
}

function parseFlag(raw: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new Error('must be 1 or 0');
}

/**
 * A node-cron expression (5 fields, or 6 with seconds first), or `off` (null) to disable
 * the job. node-cron's own validation decides, so what passes here also schedules.
 */
function parseCron(raw: string): string | null {
  if (raw.toLowerCase() === 'off') return null;
  const result = validateCron(raw);
  if (result.valid) return raw;
  const detail = result.errors.map((e) => e.message).join('; ');
  throw new Error(
    `not a valid cron expression (${detail}); use 5 fields (minute hour day-of-month month day-of-week), ` +
      '6 with seconds first, or "off" to disable the job',
  );
}

function parseTimezone(raw: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: raw });
  } catch {
    throw new Error('not a time zone this Node.js knows (use an IANA name such as Europe/Berlin)');
  }
  return raw;
}

function parseHost(raw: string): string {
  if (!/^[\w.:[\]-]+$/.test(raw)) throw new Error('must be an IP address or a host name');
  return raw;
}

function parseNumber(raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new Error(`must be a number from ${min} to ${max}`);
  return value;
}

function parseInteger(raw: string, min: number, max: number): number {
  const value = parseNumber(raw, min, max);
  if (!Number.isInteger(value)) throw new Error(`must be a whole number from ${min} to ${max}`);
  return value;
}

import { resolve } from 'node:path';

import { validateDetailed as validateCron } from 'node-cron';
import { z } from 'zod';

import { DEFAULT_MEMORY_LIMIT_MB } from './db/embedded-limits.ts';
import { isLoopbackHost } from './lib/hosts.ts';
import { instanceRootOf } from './lib/instance-url.ts';
import { checkWebhookSecret } from './lib/webhook-secret.ts';

/**
 * Every configuration variable once: how its raw value parses (default included), what
 * `--help` and the README say about it, and how an error message may show it.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Variables holding the cron expression of a worker job (see jobs/). */
export const CRON_VARIABLES = [
  'WORKER_SYNC_CRON',
  'WORKER_STATISTICS_CRON',
  'WORKER_RECONCILE_CRON',
] as const;
export type CronVariable = (typeof CRON_VARIABLES)[number];

export interface Config {
  /** Instance root (e.g. https://hosted.weblate.org/), always with a trailing slash. */
  weblateUrl: URL | null;
  weblateToken: string | null;
  /** postgres:// URL, or null for the embedded database in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  /** How long a run waits for a lost PostgreSQL database before it fails (DATABASE_RETRY_SECONDS). */
  databaseRetryMs: number;
  /** Memory (RSS) at which a sync into the embedded database stops; see db/embedded-limits.ts. */
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
  /** Port `serve` listens on for PostgreSQL clients. */
  servePort: number;
  serveHost: string;
  /** Password `serve` asks clients for (MD5); null: none, loopback only. */
  servePassword: string | null;
  /** How long a client of `serve` may keep a transaction open without a statement. */
  serveIdleTransactionMs: number;
  /** The watch rules file (YAML, docs/watching.md); null: the built-in rules, no channels. */
  watchRulesFile: string | null;
  /** Folder the worker writes SVG badges to after each sync, served at /badges/; null: none. */
  badgesDir: string | null;
}

/** From the trimmed raw value (undefined when unset or empty) to the value, default included. */
export type SettingSchema<T> = z.ZodType<T>;

/** What a schema may depend on: variables read before every other. */
export interface SchemaContext {
  allowHttp: boolean;
}

/** A cron variable's value lands in `cron` under its name; undefined leaves it out. */
type FieldValue<F extends keyof Config> = F extends 'cron' ? string | null | undefined : Config[F];

export interface Setting<F extends keyof Config = keyof Config> {
  field: F;
  schema: SettingSchema<FieldValue<F>> | ((context: SchemaContext) => SettingSchema<FieldValue<F>>);
  /** One line for `--help`, and for the message when the variable is required but unset. */
  help: string;
  /** The README's Default column (markdown). */
  readmeDefault: string;
  /** The README's Meaning column (markdown). */
  meaning: string;
  /** How an error message shows the value: not at all, or as a URL with credentials masked. */
  shown?: 'secret' | { url: { hideUser: boolean } };
}

/** The entry's schema, made for this load where it depends on other variables. */
export function schemaOf(setting: Setting, context: SchemaContext): SettingSchema<unknown> {
  return typeof setting.schema === 'function' ? setting.schema(context) : setting.schema;
}

/** Checks one entry against its Config field while keeping the field in the table's type. */
function setting<F extends keyof Config>(entry: Setting<F>): Setting<F> {
  return entry;
}

/** A parse function as a zod schema; what it throws becomes the issue, word for word. */
function parsed<T>(parse: (raw: string) => T) {
  return z.string().transform((raw, ctx) => {
    try {
      return parse(raw);
    } catch (err) {
      ctx.issues.push({ code: 'custom', message: (err as Error).message, input: raw });
      return z.NEVER;
    }
  });
}

const integer = (min: number, max: number) => parsed((raw) => parseInteger(raw, min, max));
const number = (min: number, max: number) => parsed((raw) => parseNumber(raw, min, max));
/** Seconds as written, milliseconds in Config. */
const secondsAsMs = (min: number, max: number) =>
  parsed((raw) => parseNumber(raw, min, max) * 1000);
const cron = parsed(parseCron).optional();

export const CONFIG_TABLE = {
  WEBLATE_URL: setting({
    field: 'weblateUrl',
    schema: ({ allowHttp }) =>
      parsed((raw) => parseWeblateUrl(raw, allowHttp))
        .nullable()
        .default(null),
    shown: { url: { hideUser: true } },
    help: 'base URL of the Weblate instance (required by sync)',
    readmeDefault: '(required by `sync`)',
    meaning:
      'Base URL of the instance, e.g. `https://hosted.weblate.org/` (its `/api/` URL works too). `http://` is refused for hosts other than loopback unless `WEBLATE_ALLOW_HTTP=1`.',
  }),
  WEBLATE_TOKEN: setting({
    field: 'weblateToken',
    schema: parsed(parseToken).nullable().default(null),
    shown: 'secret',
    help: 'API token, sent as "Authorization: Token <key>" to that origin only',
    readmeDefault: 'none (anonymous)',
    meaning:
      'API token, sent as `Authorization: Token <key>` to that origin only; never logged, never in an error message. Weblate allows a token 5,000 requests an hour by default, anonymous access 100 a day.',
  }),
  DATABASE_URL: setting({
    field: 'databaseUrl',
    schema: parsed(parseDatabaseUrl).nullable().default(null),
    // The database's user helps and stays; Weblate's URL takes none, so whatever is there may be a token.
    shown: { url: { hideUser: false } },
    help: 'postgres:// URL; empty means the embedded PGlite database',
    readmeDefault: 'none',
    meaning:
      '`postgres://` URL of the warehouse. Without it, the embedded database is used. Its password is never printed: messages show the URL with `***` in its place, or only host:port/database.',
  }),
  DATABASE_RETRY_SECONDS: setting({
    field: 'databaseRetryMs',
    schema: secondsAsMs(0, 3_600).default(120_000),
    help: 'how long a run waits for a lost PostgreSQL database to answer again before it fails (default 120)',
    readmeDefault: '`120`',
    meaning:
      'How long a run (a sync, a webhook batch, `backfill`) waits for PostgreSQL to answer again after losing it (a restart, a failover), then resumes from its last committed page; past it, the run fails with the first cause. 0 fails at once. 0–3600.',
  }),
  WEBLATE_MIRROR_DATA_DIR: setting({
    field: 'dataDir',
    schema: parsed((raw) => resolve(raw)).prefault('./.weblate-mirror'),
    help: 'folder of the embedded database (default ./.weblate-mirror)',
    readmeDefault: '`./.weblate-mirror`',
    meaning:
      'Folder of the embedded database. One process at a time may open it; a second one waits (up to a minute; `worker`, its `WORKER_SHUTDOWN_TIMEOUT_SECONDS` and 5 s more) and then says which process holds it.',
  }),
  WEBLATE_MIRROR_MEMORY_LIMIT_MB: setting({
    field: 'memoryLimitMb',
    schema: integer(300, 1900).default(DEFAULT_MEMORY_LIMIT_MB),
    help: 'memory in MB at which a sync into the embedded database stops and asks for DATABASE_URL, 300-1900 (default 1500)',
    readmeDefault: '`1500`',
    meaning:
      'Memory (MB) at which a sync into the embedded database stops, keeping what it committed, with a message to set `DATABASE_URL`: the embedded database lives in the process, and PostgreSQL inside it aborts at 2 GB. 300–1900.',
  }),
  WEBLATE_PROJECTS: setting({
    field: 'projects',
    schema: parsed(parseList).nullable().default(null),
    help: 'comma-separated project slugs to mirror (default: all)',
    readmeDefault: 'all',
    meaning: 'Comma-separated project slugs to mirror.',
  }),
  WEBLATE_USERS: setting({
    field: 'users',
    schema: parsed(parseList).default([]),
    help: 'comma-separated usernames whose notification subscriptions are mirrored',
    readmeDefault: 'none',
    meaning:
      "Comma-separated usernames whose notification subscriptions are mirrored (other users' subscriptions need an admin token).",
  }),
  LOG_LEVEL: setting({
    field: 'logLevel',
    schema: parsed(parseLogLevel).default('info'),
    help: `one of ${LOG_LEVELS.join(', ')} (default info)`,
    readmeDefault: '`info`',
    meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
  }),
  WEBLATE_CONCURRENCY: setting({
    field: 'concurrency',
    schema: integer(1, 64).default(4),
    help: 'requests in flight at once (default 4)',
    readmeDefault: '`4`',
    meaning:
      'Requests in flight at once, over one keep-alive connection pool. A full sync uses them for windows of one unit walk or change history read side by side; while it reads the change history beside the unit walk, the walk leaves one of them to the changes.',
  }),
  WEBLATE_MAX_PAGE_SIZE: setting({
    field: 'maxPageSize',
    schema: integer(100, 10_000).default(10_000),
    help: 'largest page of records asked for at once, 100-10000 (default 10000, as far as Weblate allows: 1000 for most lists)',
    readmeDefault: '`10000`',
    meaning:
      'Largest page of records asked for at once (100 to 10,000). Weblate serves at most 1,000 on most lists and 10,000 on units; a smaller cap helps a server or proxy that times out on large pages.',
  }),
  WEBLATE_MAX_RPS: setting({
    field: 'maxRps',
    schema: number(0, 10_000).default(0),
    help: 'requests per second, 0 for no limit (default 0)',
    readmeDefault: '`0`',
    meaning:
      "Requests per second across all workers; `0` sets no limit of our own (the server's rate-limit headers are always honoured).",
  }),
  WEBLATE_MAX_ATTEMPTS: setting({
    field: 'maxAttempts',
    schema: integer(1, 100).default(5),
    help: 'attempts per request before the sync fails (default 5)',
    readmeDefault: '`5`',
    meaning:
      'Attempts per request before the sync fails (network errors, timeouts, 429, 5xx and broken or non-JSON bodies are retried with exponential backoff and full jitter).',
  }),
  WEBLATE_TIMEOUT_SECONDS: setting({
    field: 'timeoutMs',
    schema: secondsAsMs(0.1, 3600).default(60_000),
    help: 'timeout for response headers and for body inactivity (default 60)',
    readmeDefault: '`60`',
    meaning: 'Time allowed for response headers, and for silence while a body arrives.',
  }),
  WEBLATE_CONNECT_TIMEOUT_SECONDS: setting({
    field: 'connectTimeoutMs',
    schema: secondsAsMs(0.1, 600).default(10_000),
    help: 'timeout for opening a connection (default 10)',
    readmeDefault: '`10`',
    meaning: 'Time allowed to open a connection.',
  }),
  WEBLATE_MAX_WAIT_SECONDS: setting({
    field: 'maxWaitMs',
    schema: secondsAsMs(0, 86_400).default(900_000),
    help: 'longest wait for the rate budget before a run stops and leaves the rest to the next (default 900)',
    readmeDefault: '`900`',
    meaning:
      "Longest pause the sync accepts for the server's rate budget (`Retry-After`, or `X-RateLimit-Reset` once the budget is spent). A longer one ends the run with a message; the next run resumes.",
  }),
  WEBLATE_LOOKBACK_SECONDS: setting({
    field: 'lookbackSeconds',
    schema: number(0, 86_400).default(300),
    help: 'overlap of each change window with the previous one (default 300)',
    readmeDefault: '`300`',
    meaning:
      "How far each incremental window reaches back before the last high-water mark (a change's timestamp is set before its transaction commits, so a change can appear later with an older timestamp).",
  }),
  WEBLATE_DISCOVERY_INTERVAL_SECONDS: setting({
    field: 'discoveryIntervalSeconds',
    schema: number(0, 7 * 86_400).default(3600),
    help: 'seconds between complete reads of the project, component, translation and language lists by incremental syncs; 0 reads them every sync (default 3600)',
    readmeDefault: '`3600`',
    meaning:
      'How often an incremental sync reads the complete project, component, translation and language lists (and the subscriptions of `WEBLATE_USERS`); in between it discovers from the changes, and a quiet instance costs one request per sync. `0` reads the lists every sync. Deleted projects and components, and edits that log no change, are noticed at this interval (see [Discovery](docs/architecture.md#discovery)).',
  }),
  WEBLATE_ALLOW_HTTP: setting({
    field: 'allowHttp',
    schema: parsed(parseFlag).default(false),
    help: 'set to 1 to allow plain http:// to a non-loopback host',
    readmeDefault: '`0`',
    meaning: 'Set to `1` to allow plain `http://` to a non-loopback host.',
  }),
  WORKER_SYNC_CRON: setting({
    field: 'cron',
    schema: cron,
    help: 'cron expression of the worker\'s incremental sync, or "off" (default */15 * * * *)',
    readmeDefault: '`*/15 * * * *`',
    meaning:
      'When the worker runs the incremental sync (see [Run it as a service](#run-it-as-a-service)). A cron expression of 5 fields, or 6 with seconds first; `off` disables the job.',
  }),
  WORKER_STATISTICS_CRON: setting({
    field: 'cron',
    schema: cron,
    help: 'cron expression of the worker\'s statistics snapshot, or "off" (default 0 * * * *)',
    readmeDefault: '`0 * * * *`',
    meaning: 'When the worker takes a statistics snapshot; `off` disables it.',
  }),
  WORKER_RECONCILE_CRON: setting({
    field: 'cron',
    schema: cron,
    help: 'cron expression of the worker\'s full reconcile sweep, or "off" (default 30 3 * * *)',
    readmeDefault: '`30 3 * * *`',
    meaning: 'When the worker runs the full reconcile sweep; `off` disables it.',
  }),
  WORKER_TIMEZONE: setting({
    field: 'timezone',
    schema: parsed(parseTimezone).default('UTC'),
    help: 'IANA time zone of the cron expressions (default UTC)',
    readmeDefault: '`UTC`',
    meaning: 'IANA time zone the cron expressions are read in, e.g. `Europe/Berlin`.',
  }),
  WORKER_HTTP_PORT: setting({
    field: 'httpPort',
    schema: integer(0, 65_535).nullable().default(null),
    help: "port of the worker's /healthz and /metrics server (default: no server)",
    readmeDefault: 'none',
    meaning:
      "Port of the worker's `/healthz` and `/metrics` (`--http-port`); without it the worker serves nothing.",
  }),
  WORKER_HTTP_HOST: setting({
    field: 'httpHost',
    schema: parsed(parseHost).default('127.0.0.1'),
    help: 'address that server listens on (default 127.0.0.1; 0.0.0.0 in a container)',
    readmeDefault: '`127.0.0.1`',
    meaning: 'Address that server listens on (`--http-host`); `0.0.0.0` in a container.',
  }),
  WORKER_HEALTH_MAX_AGE_SECONDS: setting({
    field: 'healthMaxAgeSeconds',
    schema: number(1, 365 * 86_400).default(3600),
    help: '/healthz fails when the last successful sync is older than this (default 3600)',
    readmeDefault: '`3600`',
    meaning:
      '`/healthz` answers 503 when the newest successful sync finished longer ago than this.',
  }),
  WORKER_SHUTDOWN_TIMEOUT_SECONDS: setting({
    field: 'shutdownTimeoutMs',
    schema: secondsAsMs(1, 3600).default(10_000),
    help: 'after SIGTERM or SIGINT, the longest worker and run take to stop before they exit 1, 1-3600 (default 10)',
    readmeDefault: '`10`',
    meaning:
      "After SIGTERM or SIGINT, the longest `worker` and `run` take to stop (the page being committed lands, the run is recorded `interrupted`) before they exit 1. Keep it below the grace period of whatever stops them (Docker's `stop_grace_period`, Kubernetes' `terminationGracePeriodSeconds`).",
  }),
  WEBLATE_WEBHOOK_SECRET: setting({
    field: 'webhookSecret',
    schema: parsed(parseWebhookSecret).nullable().default(null),
    shown: 'secret',
    help: "secret of Weblate's webhook add-on (base64, optionally whsec_-prefixed); enables POST /webhooks/weblate on the worker's HTTP server (default: no endpoint)",
    readmeDefault: 'none',
    meaning:
      "Secret of Weblate's webhook add-on (base64, as Weblate takes it; a `whsec_` prefix is allowed). With it, the worker accepts `POST /webhooks/weblate` on its HTTP server and syncs within seconds of each change (see [Near-real-time with webhooks](#near-real-time-with-webhooks)); never logged.",
  }),
  WEBHOOK_DEBOUNCE_SECONDS: setting({
    field: 'webhookDebounceMs',
    // Rounded to whole milliseconds: 1.005 s times 1000 is 1004.9999999999999.
    schema: parsed((raw) => Math.round(parseNumber(raw, 0, 300) * 1000)).default(2000),
    help: 'seconds the worker waits after a webhook event for more before one sync of them all, 0-300 (default 2)',
    readmeDefault: '`2`',
    meaning:
      'How long after the first webhook event its sync starts, so that a burst of edits makes one sync (0–300).',
  }),
  SERVE_PORT: setting({
    field: 'servePort',
    schema: integer(0, 65_535).default(5433),
    help: 'port `serve` listens on for PostgreSQL clients (default 5433)',
    readmeDefault: '`5433`',
    meaning:
      'Port `weblate-mirror serve` listens on for PostgreSQL clients (`--port`); 5433 stays clear of a PostgreSQL server on 5432.',
  }),
  SERVE_HOST: setting({
    field: 'serveHost',
    schema: parsed(parseHost).default('127.0.0.1'),
    help: 'address `serve` listens on (default 127.0.0.1; another needs SERVE_PASSWORD)',
    readmeDefault: '`127.0.0.1`',
    meaning:
      'Address `serve` listens on (`--host`). An address other than loopback requires `SERVE_PASSWORD`.',
  }),
  SERVE_PASSWORD: setting({
    field: 'servePassword',
    schema: z.string().nullable().default(null),
    shown: 'secret',
    help: 'password clients of `serve` must give (MD5 authentication; default: none, loopback only)',
    readmeDefault: 'none',
    meaning:
      'Password every client of `serve` must give, with any user name (MD5 authentication; `--password-file` reads it from a file). Required to listen on an address other than loopback; never logged.',
  }),
  SERVE_IDLE_IN_TRANSACTION_SECONDS: setting({
    field: 'serveIdleTransactionMs',
    schema: secondsAsMs(1, 86_400).default(60_000),
    help: 'seconds a client of `serve` may leave a transaction open between statements before its connection is ended, 1-86400 (default 60)',
    readmeDefault: '`60`',
    meaning:
      'How long a client of `serve` may leave a transaction open without a statement before `serve` ends its connection: the embedded database is one session, and the mirror writes only between client transactions.',
  }),
  WATCH_RULES_FILE: setting({
    field: 'watchRulesFile',
    schema: parsed((raw) => resolve(raw))
      .nullable()
      .default(null),
    help: 'YAML file of watch rules, channels and digests the worker evaluates after each sync (default: built-in rules, no channels)',
    readmeDefault: 'none',
    meaning:
      'The watch rules, channels and digests (docs/watching.md). Checked whole before the worker starts: a bad line stops it with every problem named. Without it the worker evaluates the built-in rules and keeps their alerts in `weblate.watch_alerts`, sending nothing.',
  }),
  BADGES_DIR: setting({
    field: 'badgesDir',
    schema: parsed((raw) => resolve(raw))
      .nullable()
      .default(null),
    help: 'folder the worker writes SVG progress badges to after each sync, and serves at /badges/ (default: none)',
    readmeDefault: 'none',
    meaning:
      'Folder the worker writes SVG badges to after each sync that changed something (progress of each project and language; languages at 80, 90 and 95 %), served at `/badges/` by its HTTP server (docs/watching.md).',
  }),
};

export type ConfigVariable = keyof typeof CONFIG_TABLE;
export type ConfigSource = Partial<Record<ConfigVariable, string | undefined>>;

/** The table's variables, in its order (the README's and the error messages'). */
export const CONFIG_VARIABLE_NAMES = Object.keys(CONFIG_TABLE) as ConfigVariable[];

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
  return instanceRootOf(url);
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

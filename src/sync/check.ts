import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';

import { sql } from 'kysely';

import type { Config } from '../config.ts';
import { createDb, type DbHandle, locationOf, openMirror } from '../db/client.ts';
import { explainDatabaseError } from '../db/connect-errors.ts';
import { DISK_RESERVE_BYTES, DiskRoom, freeBytes } from '../db/embedded-limits.ts';
import { pendingMigrations } from '../db/migrator.ts';
import { probeWrite } from '../db/probe.ts';
import { readInstance } from '../db/queries/instances.ts';
import { MIGRATION_NAMES } from '../db/schema-migrations.ts';
import { MissingDatabaseError, NoMirrorError, toError } from '../errors.ts';
import { apiRootOf } from '../lib/instance-url.ts';
import { jsonDocument } from '../lib/json-document.ts';
import type { Logger } from '../logger.ts';
import type { RateLimitHeaders } from '../weblate/client.ts';
import { createClient } from '../weblate/from-config.ts';
import { instanceRefusal } from './instance.ts';

// `weblate-mirror check`: every connection a sync would use, one line each, looked at without
// changing anything (docs/architecture.md#the-check-and-the-dry-run).

export type CheckName = 'weblate' | 'database' | 'migrations' | 'writable' | 'disk' | 'instance';

export interface CheckResult {
  name: CheckName;
  /** `skipped`: an earlier check failed, which this one needs. */
  status: 'ok' | 'failed' | 'skipped';
  /** What holds, or what is wrong and what to do. */
  detail: string;
}

export interface Checks {
  instance: string;
  database: string;
  results: CheckResult[];
  /** The rate budget Weblate's answer announced, if any. */
  rateLimit: RateLimitHeaders | null;
}

const ok = (name: CheckName, detail: string): CheckResult => ({ name, status: 'ok', detail });
const failed = (name: CheckName, detail: string): CheckResult => ({
  name,
  status: 'failed',
  detail,
});

/** Runs every check of `config`'s Weblate instance and database; none writes anything. */
export async function runChecks(config: Config, log: Logger): Promise<Checks> {
  const instance = apiRootOf(config.weblateUrl!);
  const { result: weblate, rateLimit } = await checkWeblate(config, log);
  const database = await checkDatabase(config, instance);
  return {
    instance,
    database: locationOf(config),
    results: [weblate, ...database],
    rateLimit,
  };
}

/** One request: the API root, which every token may read, with the token and its budget. */
async function checkWeblate(
  config: Config,
  log: Logger,
): Promise<{ result: CheckResult; rateLimit: RateLimitHeaders | null }> {
  const client = createClient({ ...config, maxAttempts: 1 }, log);
  try {
    const answer = await client.getJson('', 'api');
    const token =
      config.weblateToken === null
        ? 'no WEBLATE_TOKEN: anonymous, which Weblate allows 100 requests a day by default'
        : 'WEBLATE_TOKEN accepted';
    const detail = `${client.apiRoot.href} answered; ${token}; ${describeBudget(answer.rateLimit)}`;
    return { result: ok('weblate', detail), rateLimit: answer.rateLimit };
  } catch (err) {
    return { result: failed('weblate', toError(err).message), rateLimit: null };
  } finally {
    await client.close();
  }
}

function describeBudget(budget: RateLimitHeaders | null): string {
  if (budget === null) return 'no rate limit announced (no X-RateLimit-* headers)';
  const of = budget.limit === null ? '' : ` of ${budget.limit}`;
  return `rate budget ${budget.remaining}${of} requests left, the next one freed in ${budget.resetSeconds} s`;
}

/** The database: reachable, migrated, writable, with disk room (embedded), of this instance. */
async function checkDatabase(config: Config, instance: string): Promise<CheckResult[]> {
  const location = locationOf(config);
  const disk = config.databaseUrl === null ? [checkDisk(config.dataDir)] : [];
  let handle: DbHandle;
  try {
    // Read-only, and creating nothing where there is no mirror; a worker holding the
    // embedded database is said at once rather than waited for.
    handle = await openMirror({ ...config, lockWaitMs: 1000, onNotice: () => undefined });
  } catch (err) {
    if (err instanceof NoMirrorError && !(err.cause instanceof MissingDatabaseError))
      return [...(await beforeFirstSync(config, instance, location)), ...disk];
    const skipped = (name: CheckName): CheckResult => ({
      name,
      status: 'skipped',
      detail: 'needs the database check to pass',
    });
    return [
      failed('database', explainDatabaseError(err, location).message),
      skipped('migrations'),
      skipped('writable'),
      ...disk,
      skipped('instance'),
    ];
  }
  try {
    const kind = handle.kind === 'pglite' ? 'embedded database' : 'PostgreSQL';
    const migrations = await checkMigrations(handle);
    return [
      ok('database', `${kind} at ${location} opened`),
      migrations,
      await checkWritable(handle),
      ...disk,
      migrations.status === 'ok'
        ? await checkInstance(handle, instance)
        : {
            name: 'instance',
            status: 'skipped',
            detail: 'the database needs its migrations first',
          },
    ];
  } finally {
    await handle.close();
  }
}

/**
 * Where the first sync would create the mirror (an embedded folder not made yet, a PostgreSQL
 * database without the weblate schema): what holds is whether it may.
 */
async function beforeFirstSync(
  config: Config,
  instance: string,
  location: string,
): Promise<CheckResult[]> {
  const writable = await mayCreateMirror(config, location);
  return [
    ok('database', `no mirror in ${location} yet: the first sync creates it`),
    ok('migrations', `none applied yet: the first sync applies all ${MIGRATION_NAMES.length}`),
    writable,
    ok('instance', `none recorded yet: the first sync that writes records ${instance}`),
  ];
}

async function mayCreateMirror(config: Config, location: string): Promise<CheckResult> {
  if (config.databaseUrl === null) {
    const folder = nearestFolder(config.dataDir);
    try {
      accessSync(folder, constants.W_OK);
      return ok('writable', `${folder} may be written`);
    } catch {
      return failed('writable', `${folder} may not be written: choose another --data-dir`);
    }
  }
  const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const { rows } = await sql<{ may: boolean }>`
      select has_database_privilege(current_database(), 'create') as may`.execute(handle.db);
    return rows[0]?.may === true
      ? ok('writable', 'the user of DATABASE_URL may create the weblate schema')
      : failed(
          'writable',
          `the user of DATABASE_URL may not create the weblate schema in ${location}: grant it CREATE on the database, or run the first sync as its owner`,
        );
  } catch (err) {
    return failed('writable', explainDatabaseError(err, location).message);
  } finally {
    await handle.close();
  }
}

/** The folder itself, or the nearest folder above it that exists. */
function nearestFolder(path: string): string {
  let folder = path;
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  return folder;
}

async function checkMigrations(handle: DbHandle): Promise<CheckResult> {
  try {
    const pending = await pendingMigrations(handle);
    if (pending.length === 0)
      return ok('migrations', `up to date (${MIGRATION_NAMES.at(-1)!} applied)`);
    return failed(
      'migrations',
      `${pending.length} pending (${pending.join(', ')}): run \`weblate-mirror migrate\`, or a sync, which applies them first`,
    );
  } catch (err) {
    return failed('migrations', explainDatabaseError(err, handle.location).message);
  }
}

async function checkWritable(handle: DbHandle): Promise<CheckResult> {
  try {
    const denied = await probeWrite(handle);
    if (denied.length === 0)
      return ok('writable', 'a write in a rolled-back transaction went through');
    return failed(
      'writable',
      `the user of DATABASE_URL may not write ${denied.map((t) => `weblate.${t}`).join(', ')}: grant it INSERT, UPDATE and DELETE there`,
    );
  } catch (err) {
    return failed('writable', explainDatabaseError(err, handle.location).message);
  }
}

/** Room on the embedded database's disk (its folder, or the nearest folder above it). */
function checkDisk(dataDir: string): CheckResult {
  const folder = nearestFolder(dataDir);
  try {
    new DiskRoom(folder).check('check');
  } catch (err) {
    return failed('disk', toError(err).message);
  }
  const mb = (bytes: number) => Math.floor(bytes / (1024 * 1024));
  return ok(
    'disk',
    `${mb(freeBytes(folder))} MB free on the disk of ${dataDir} (a sync keeps ${mb(DISK_RESERVE_BYTES)} MB free)`,
  );
}

async function checkInstance(handle: DbHandle, instance: string): Promise<CheckResult> {
  const refusal = await instanceRefusal(handle.db, instance);
  if (refusal !== null) return failed('instance', refusal);
  const recorded = await readInstance(handle.db);
  return ok(
    'instance',
    recorded === null
      ? `none recorded yet: the first sync that writes records ${instance}`
      : `this database mirrors ${recorded.api_root} (WEBLATE_URL)`,
  );
}

/** The checks as `check --json` prints them (README, "Output for programs"). */
export function checkDocument(checks: Checks) {
  return jsonDocument('check', {
    ok: checks.results.every((r) => r.status === 'ok'),
    instance: checks.instance,
    database: checks.database,
    checks: checks.results,
    rate_limit:
      checks.rateLimit === null
        ? null
        : {
            limit: checks.rateLimit.limit,
            remaining: checks.rateLimit.remaining,
            reset_seconds: checks.rateLimit.resetSeconds,
          },
  });
}

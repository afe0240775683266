import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Config } from '../config.ts';
import { createDb, type DbHandle, locationOf, openMirror } from '../db/client.ts';
import { migrateToLatest, pendingMigrations } from '../db/migrator.ts';
import { hasSucceededRun } from '../db/queries/sync-runs.ts';
import { readCursor } from '../db/queries/sync-state.ts';
import { sumLiveTranslations, type TranslationTotals } from '../db/queries/translation-state.ts';
import { MIGRATION_NAMES } from '../db/schema-migrations.ts';
import { InstanceMismatchError, NoMirrorError } from '../errors.ts';
import { apiRootOf } from '../lib/instance-url.ts';
import { jsonDocument } from '../lib/json-document.ts';
import type { Logger } from '../logger.ts';
import { createClient } from '../weblate/from-config.ts';
import type { SyncContext, SyncMode } from './context.ts';
import { instanceRefusal } from './instance.ts';
import { type Discovery, planRun, readingPlan, type RunState } from './plan.ts';
import { PAGE_SIZE } from './reads.ts';
import type { ProjectRef } from './refs.ts';
import { recordRun, type RunKind } from './run-record.ts';
import { discoverByLists } from './run-sync.ts';
import { GLOBAL_CHANGES, projectChanges } from './streams/changes.ts';
import type { SyncSummary } from './summary.ts';
import { type Resource, RESOURCES } from './tally.ts';

// `sync --dry-run` (docs/architecture.md#the-check-and-the-dry-run): the mirror is only looked at, read-only,
// for the plan the next sync would follow; the discovery lists are read by the sync's own
// streams into a scratch embedded database in a temporary folder, removed afterwards.

/** What a sync would read of one resource; null where only the sync itself can tell. */
export interface Estimate {
  resource: Resource;
  records: number | null;
  requests: number | null;
  /** How the figures are known, in words. */
  basis: string;
}

export interface DryRun {
  /** The API root of WEBLATE_URL. */
  instance: string;
  database: string;
  /** Whether the database holds a mirror already; the sync creates one where it does not. */
  hasMirror: boolean;
  /** Migrations the sync would apply first. */
  pendingMigrations: string[];
  kind: RunKind;
  mode: SyncMode;
  discovery: Discovery;
  estimates: Estimate[];
  /** Requests this dry run made, and records of the lists that would be rejected. */
  requestsMade: number;
  rejected: number;
}

/**
 * Reads the discovery lists and estimates what the next sync (with `full`, `sync --full`)
 * would read, writing nothing to the mirror's database and creating none. A WEBLATE_URL of
 * another instance than the mirror's fails as the sync would, before any request.
 */
export async function dryRun(
  config: Config,
  log: Logger,
  options: { full: boolean; signal?: AbortSignal },
): Promise<DryRun> {
  const instance = apiRootOf(config.weblateUrl!);
  const mirror = await lookAtMirror(config, instance);
  if (mirror.refusal !== null) throw new InstanceMismatchError(mirror.refusal);
  const scope = { projects: config.projects, users: config.users };
  const plan = planRun(mirror.state, {
    full: options.full,
    discoveryIntervalSeconds: config.discoveryIntervalSeconds,
    scope,
    now: new Date(),
  });
  if (plan.discovery === null) throw new Error('a sync always discovers');
  const listed = await readLists(config, log, { mode: plan.mode, signal: options.signal });
  const estimates = estimate(listed, {
    mode: plan.mode,
    listsDue: plan.discovery === 'lists',
    users: scope.users.length,
    unitPageSize: listed.pageSizes.units,
    changePageSize: listed.pageSizes.changes,
  });
  return {
    instance,
    database: locationOf(config),
    hasMirror: mirror.hasMirror,
    pendingMigrations: mirror.pending,
    kind: plan.kind,
    mode: plan.mode,
    discovery: plan.discovery,
    estimates,
    requestsMade: listed.summary.requests,
    rejected: listed.summary.rejected,
  };
}

interface MirrorLook {
  hasMirror: boolean;
  pending: string[];
  state: RunState;
  refusal: string | null;
}

/** The state that decides the next sync's plan, read-only; a mirror not there yet is a first sync. */
async function lookAtMirror(config: Config, instance: string): Promise<MirrorLook> {
  let handle: DbHandle;
  try {
    handle = await openMirror({ ...config, onNotice: () => undefined });
  } catch (err) {
    if (!(err instanceof NoMirrorError)) throw err;
    const state = { hasSucceeded: false, discovery: null };
    return { hasMirror: false, pending: [...MIGRATION_NAMES], state, refusal: null };
  }
  try {
    const pending = await pendingMigrations(handle);
    const hasSucceeded = await hasSucceededRun(handle.db);
    // A schema from before the cursors and the instance record: the sync migrates first.
    if (pending.length > 0)
      return { hasMirror: true, pending, state: { hasSucceeded, discovery: null }, refusal: null };
    const discovery = await readCursor(handle.db, 'discovery', '');
    const refusal = await instanceRefusal(handle.db, instance);
    return { hasMirror: true, pending, state: { hasSucceeded, discovery }, refusal };
  } finally {
    await handle.close();
  }
}

interface Listed {
  summary: SyncSummary;
  totals: TranslationTotals;
  /** Changes in scope now, for a full sync's estimate; null for an incremental one. */
  changes: number | null;
  pageSizes: { units: number; changes: number };
}

/** The discovery lists, read by the sync's streams into a scratch database, and what they hold. */
async function readLists(
  config: Config,
  log: Logger,
  options: { mode: SyncMode; signal?: AbortSignal },
): Promise<Listed> {
  // Like the demo, only warnings at the default level: this is not the sync it logs.
  const quiet = log.child({ dryRun: true }, { level: log.level === 'info' ? 'warn' : log.level });
  const folder = mkdtempSync(join(tmpdir(), 'weblate-mirror-dry-run-'));
  try {
    const scratch = await createDb({ databaseUrl: null, dataDir: folder });
    try {
      await migrateToLatest(scratch);
      const client = createClient(config, quiet);
      try {
        let changes: number | null = null;
        const deps = {
          db: scratch.db,
          client,
          log: quiet,
          scope: { projects: config.projects, users: config.users },
          databaseLocation: 'a scratch database of the dry run',
        };
        const run = { kind: 'full' as const, mode: 'full' as const, reading: readingPlan('full') };
        const result = await recordRun(deps, run, { signal: options.signal }, async (ctx) => {
          const { projects } = await discoverByLists(ctx);
          if (options.mode === 'full') changes = await countChanges(ctx, projects);
        });
        if (result.error !== null) throw result.error;
        return {
          summary: result.summary,
          totals: await sumLiveTranslations(scratch.db),
          changes,
          pageSizes: {
            units: client.pageSize(PAGE_SIZE.large),
            changes: client.pageSize(PAGE_SIZE.standard),
          },
        };
      } finally {
        await client.close();
      }
    } finally {
      await scratch.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The changes in scope now: the `count` of the first page of each change list the sync reads. */
async function countChanges(ctx: SyncContext, projects: ProjectRef[]): Promise<number> {
  const feeds = ctx.scope.projects === null ? [GLOBAL_CHANGES] : projects.map(projectChanges);
  let total = 0;
  for (const feed of feeds) {
    const url = ctx.client.resolve(feed.url);
    url.searchParams.set('page_size', '1');
    const { value } = await ctx.client.getJson(url, 'changes', ctx.signal);
    const count = (value as { count?: unknown } | null)?.count;
    if (typeof count === 'number') total += count;
  }
  return total;
}

/** What discovery by lists reads: the resources before the units, in RESOURCES' order. */
const DISCOVERED = RESOURCES.slice(0, RESOURCES.indexOf('translations') + 1);

/** The estimates of one plan from what the lists hold (pure). */
export function estimate(
  listed: Pick<Listed, 'summary' | 'totals' | 'changes'>,
  plan: {
    mode: SyncMode;
    listsDue: boolean;
    users: number;
    unitPageSize: number;
    changePageSize: number;
  },
): Estimate[] {
  const { summary, totals } = listed;
  const read = (resource: Resource) => summary.resources.find((r) => r.resource === resource)!;
  const discovered = DISCOVERED.map((resource): Estimate => {
    const { records, requests } = read(resource);
    return plan.listsDue
      ? { resource, records, requests, basis: 'listed now' }
      : {
          resource,
          records: null,
          requests: null,
          basis: `${records} listed now; the lists are not due: only what the changes name`,
        };
  });
  const pages = (n: number, size: number) => Math.ceil(n / size);
  const full = plan.mode === 'full';
  const sinceLast = 'what changed since the last sync: known once its changes are read';
  const changes = listed.changes ?? 0;
  return [
    ...discovered,
    full
      ? {
          resource: 'changes',
          records: changes,
          requests: pages(changes, plan.changePageSize) + 1,
          basis: `the whole history, in windows of about ${plan.changePageSize}`,
        }
      : { resource: 'changes', records: null, requests: null, basis: sinceLast },
    full
      ? {
          resource: 'units',
          records: totals.units,
          requests: pages(totals.units, plan.unitPageSize) + 1,
          basis: `the translations' totals, ${plan.unitPageSize} a page`,
        }
      : { resource: 'units', records: null, requests: null, basis: sinceLast },
    full
      ? {
          resource: 'translation_statistics',
          records: totals.translations,
          requests: totals.components,
          basis: 'one statistics list per component',
        }
      : { resource: 'translation_statistics', records: null, requests: null, basis: sinceLast },
    full
      ? {
          resource: 'language_statistics',
          records: totals.languages,
          requests: totals.languages,
          basis: 'one statistics object per language',
        }
      : { resource: 'language_statistics', records: null, requests: null, basis: sinceLast },
    {
      resource: 'users',
      records: null,
      requests: null,
      basis: 'one request per person the changes name',
    },
    subscriptions(plan),
  ];
}

function subscriptions(plan: { listsDue: boolean; users: number }): Estimate {
  const resource = 'notification_subscriptions';
  if (plan.users === 0) return { resource, records: 0, requests: 0, basis: 'no WEBLATE_USERS' };
  if (!plan.listsDue)
    return { resource, records: 0, requests: 0, basis: 'read with the discovery lists' };
  return {
    resource,
    records: null,
    requests: plan.users,
    basis: 'one list per user of WEBLATE_USERS',
  };
}

/** A dry run as `sync --dry-run --json` prints it (README, "Output for programs"). */
export function dryRunDocument(run: DryRun) {
  const known = (pick: (e: Estimate) => number | null) =>
    run.estimates.reduce((n, e) => n + (pick(e) ?? 0), 0);
  return jsonDocument('dryRun', {
    instance: run.instance,
    database: run.database,
    has_mirror: run.hasMirror,
    pending_migrations: run.pendingMigrations,
    kind: run.kind,
    mode: run.mode,
    discovery: run.discovery,
    records: known((e) => e.records),
    requests: known((e) => e.requests),
    complete: run.estimates.every((e) => e.records !== null && e.requests !== null),
    resources: run.estimates,
    requests_made: run.requestsMade,
    rejected: run.rejected,
  });
}

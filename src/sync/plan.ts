import { type DiscoveryCursor, type Transition, transition } from '../db/queries/sync-state.ts';
import { SyncError } from '../errors.ts';
import { toEpochMicros } from '../lib/timestamps.ts';
import type { ReadingPlan, SyncMode, SyncScope } from './context.ts';
import type { RunKind } from './run-record.ts';
import type { UnitStrategyMemo } from './streams/unit-strategy.ts';

/** What the caller asks of a sync (see SyncOptions). */
export interface RunRequest {
  /** `sync --full`, or the reconcile sweep. */
  full: boolean;
  /** Seconds between complete reads of the discovery lists (0: every sync). */
  discoveryIntervalSeconds: number;
  /** Projects the webhook events named (null: any project); absent for other syncs. */
  webhook?: { projects: ReadonlySet<string> | null; unitStrategy: UnitStrategyMemo } | null;
  scope: SyncScope;
  now: Date;
}

/** Sync state that decides a plan, read once when the run starts. */
export interface RunState {
  hasSucceeded: boolean;
  /** The last complete discovery by lists, or null: none yet. */
  discovery: DiscoveryCursor | null;
}

/**
 * How a sync learns what exists, before its steps, which read what it found: the complete
 * lists (languages, projects, components, categories, labels, translations), or what the
 * mirror holds instead.
 */
export type Discovery = 'lists' | 'mirrored';

/**
 * One step of a sync after discovery, in order. A `read` step is a stage of streams (its
 * pages commit their own transitions); an `apply` step commits transitions known up front.
 */
export type PlanStep =
  /** The change history beside the full unit walk, whose id windows it hints. */
  | { read: 'changesBesideUnits' }
  /** The change history of `projects` (null: every project discovery found). */
  | { read: 'changes'; projects: ReadonlySet<string> | null }
  /** Discovery from the changes new to the mirror; `listed`: the lists were read this run. */
  | { read: 'discoveryFromChanges'; listed: boolean; webhooks: boolean }
  /** The units the changes named; `knownStrategy` instead of a probe. */
  | { read: 'units'; knownStrategy: UnitStrategyMemo | null }
  /** The statistics of what moved; `deferSnapshots`: snapshots owed to the next sync. */
  | { read: 'statistics'; deferSnapshots: boolean }
  /** The people the changes named. */
  | { read: 'users' }
  /** The notification subscriptions of the scope's users. */
  | { read: 'subscriptions' }
  | { apply: Transition[] };

/**
 * A run as data: its kind, how its stages read, its discovery and its steps in order. The
 * statistics job discovers nothing: it snapshots every translation the mirror holds.
 */
export type RunPlan = {
  mode: SyncMode;
  reading: ReadingPlan;
  /** The progress history estimated after the run: the first sync brings what it needs. */
  backfill: boolean;
} & (
  | { kind: Exclude<RunKind, 'statistics'>; discovery: Discovery; steps: PlanStep[] }
  | { kind: 'statistics'; discovery: null; steps: [{ read: 'statisticsSnapshot' }] }
);

/** The kind and mode of a run: full the first time and when asked, else incremental or webhook. */
export function runKindOf(
  request: Pick<RunRequest, 'full' | 'webhook'>,
  hasSucceeded: boolean,
): { kind: RunKind; mode: SyncMode } {
  const mode: SyncMode = request.full || !hasSucceeded ? 'full' : 'incremental';
  if (request.webhook != null) {
    if (mode === 'full')
      throw new SyncError('a sync driven by webhooks follows a sync that succeeded; none has');
    return { kind: 'webhook', mode };
  }
  return { kind: mode, mode };
}

/** What the stages do differently in a full run, which reads everything again. */
export function readingPlan(mode: SyncMode): ReadingPlan {
  const full = mode === 'full';
  return {
    fromScratch: full,
    changeWindowsSideBySide: !full,
    followNewChanges: !full,
    recheckEveryTranslation: full,
  };
}

/** The plan of one sync (full, reconcile, incremental or webhook); pure. */
export function planRun(state: RunState, request: RunRequest): RunPlan {
  const { kind } = runKindOf(request, state.hasSucceeded);
  const plan =
    kind === 'full'
      ? fullPlan(request)
      : kind === 'webhook'
        ? webhookPlan(state, request)
        : incrementalPlan(state, request);
  return { ...plan, backfill: !state.hasSucceeded };
}

type KindPlan = Omit<Extract<RunPlan, { discovery: Discovery }>, 'backfill'>;

/**
 * The first sync, `sync --full` and the reconcile job: everything, the units walked beside
 * the change history. Complete lists cover the changes an interrupted run left for
 * discovery and the translations earlier webhook syncs left to read again.
 */
export function fullPlan(request: RunRequest): KindPlan {
  return {
    kind: 'full',
    mode: 'full',
    reading: readingPlan('full'),
    discovery: 'lists',
    steps: [
      { apply: settleAll('newChanges', 'recheckTranslations') },
      { read: 'changesBesideUnits' },
      { read: 'statistics', deferSnapshots: false },
      { read: 'users' },
      ...completeDiscovery(request),
    ],
  };
}

/** A scheduled sync: what moved since the cursors, the lists when discovery is due. */
export function incrementalPlan(state: RunState, request: RunRequest): KindPlan {
  const interval = request.discoveryIntervalSeconds;
  return followChanges(
    'incremental',
    discoveryDue(state.discovery, request.scope, request.now, interval),
    request,
    {
      projects: null,
      webhooks: false,
      knownStrategy: null,
      deferSnapshots: false,
    },
  );
}

/**
 * A sync of what webhook events named: the changes of their projects, the unit strategy
 * learned before, statistics snapshots owed to the next scheduled sync. It lists only for
 * a scope never discovered, never in step with the interval.
 */
export function webhookPlan(state: RunState, request: RunRequest): KindPlan {
  const webhook = request.webhook!;
  return followChanges(
    'webhook',
    discoveryDue(state.discovery, request.scope, request.now, Infinity),
    request,
    {
      projects: webhook.projects,
      webhooks: true,
      knownStrategy: webhook.unitStrategy,
      deferSnapshots: true,
    },
  );
}

/** The shape of a run that follows the change history: what the two kinds above differ in. */
function followChanges(
  kind: 'incremental' | 'webhook',
  listed: boolean,
  request: RunRequest,
  how: {
    projects: ReadonlySet<string> | null;
    webhooks: boolean;
    knownStrategy: UnitStrategyMemo | null;
    deferSnapshots: boolean;
  },
): KindPlan {
  return {
    kind,
    mode: 'incremental',
    reading: readingPlan('incremental'),
    discovery: listed ? 'lists' : 'mirrored',
    steps: [
      // Complete lists settle the translations webhook syncs left to read again.
      ...(listed ? [{ apply: settleAll('recheckTranslations') }] : []),
      { read: 'changes', projects: how.projects },
      { read: 'discoveryFromChanges', listed, webhooks: how.webhooks },
      { read: 'units', knownStrategy: how.knownStrategy },
      { read: 'statistics', deferSnapshots: how.deferSnapshots },
      { read: 'users' },
      ...(listed ? completeDiscovery(request) : []),
    ],
  };
}

/**
 * The statistics job: a snapshot of every translation the mirror holds, listing nothing and
 * leaving the syncs' pending work alone. Stages read `mode` only to decide what a listing
 * marks deleted, and a snapshot lists nothing.
 */
export function statisticsPlan(): RunPlan {
  return {
    kind: 'statistics',
    mode: 'incremental',
    reading: readingPlan('incremental'),
    discovery: null,
    steps: [{ read: 'statisticsSnapshot' }],
    backfill: false,
  };
}

/**
 * After complete lists: the subscriptions, then the discovery mark for the scope. The mark
 * is the run's start, before its lists were read, so the interval is never overstated.
 */
function completeDiscovery(request: RunRequest): PlanStep[] {
  const projects = request.scope.projects === null ? null : [...request.scope.projects].sort();
  const mark = { at: request.now.toISOString(), projects };
  return [{ read: 'subscriptions' }, { apply: [transition.cursor('discovery', '', mark)] }];
}

function settleAll(...steps: Array<'newChanges' | 'recheckTranslations'>): Transition[] {
  return steps.map((step) => transition.settleAll(step));
}

/**
 * Whether the discovery lists are due: never read for this scope, read `intervalSeconds` or
 * more ago, or the clock went back since (0: every sync).
 */
export function discoveryDue(
  last: DiscoveryCursor | null,
  scope: SyncScope,
  now: Date,
  intervalSeconds: number,
): boolean {
  if (intervalSeconds <= 0) return true;
  if (last === null || !sameScope(last.projects, scope.projects)) return true;
  const elapsedMs = now.getTime() - Number(toEpochMicros(last.at) / 1000n);
  return elapsedMs >= intervalSeconds * 1000 || elapsedMs < 0;
}

function sameScope(recorded: string[] | null, current: readonly string[] | null): boolean {
  if (recorded === null || current === null) return recorded === current;
  const sorted = [...current].sort();
  return recorded.length === sorted.length && recorded.every((slug, i) => slug === sorted[i]);
}

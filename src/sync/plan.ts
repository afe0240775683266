import type { DiscoveryCursor } from '../db/queries/sync-state.ts';
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
 * A sync's stages as data: which run kind, what each stage reads and which pending steps
 * the start settles. `executeRun` (run-sync.ts) does what it says, in order.
 */
export interface RunPlan {
  kind: RunKind;
  mode: SyncMode;
  /** Complete discovery lists, or the objects the mirror holds. */
  discovery: 'lists' | 'mirrored';
  /** Pending steps a start settles, as what comes next covers them. */
  settle: Array<'newChanges' | 'recheckTranslations'>;
  /** Slugs of the projects whose changes are read (null: those discovery found). */
  changedProjects: ReadonlySet<string> | null;
  /** Units walked beside the change history (a full walk needs nothing from it). */
  unitsBesideChanges: boolean;
  /** Discovery from the changes new to the mirror (incremental runs); webhook: its variant. */
  discoverFromChanges: { webhooks: boolean } | null;
  /** The unit strategy learned before (webhook runs), instead of a probe. */
  knownStrategy: UnitStrategyMemo | null;
  /** Statistics snapshots owed to the next sync that reads statistics (webhook runs). */
  deferSnapshots: boolean;
  /** Subscriptions read and the discovery mark recorded: with complete lists. */
  recordDiscovery: boolean;
  /** The progress history estimated after the run: the first sync brings what it needs. */
  backfill: boolean;
}

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

/** The plan of one sync; pure. */
export function planRun(state: RunState, request: RunRequest): RunPlan {
  const { kind, mode } = runKindOf(request, state.hasSucceeded);
  const webhook = request.webhook ?? null;
  // A webhook sync lists everything only when it must, never in step with the interval.
  const interval = webhook === null ? request.discoveryIntervalSeconds : Infinity;
  const listed =
    mode === 'full' || discoveryDue(state.discovery, request.scope, request.now, interval);
  const settle: RunPlan['settle'] = [];
  // Complete lists cover the changes an interrupted run left for discovery, and the
  // translations earlier webhook syncs left to read again.
  if (mode === 'full') settle.push('newChanges');
  if (listed) settle.push('recheckTranslations');
  return {
    kind,
    mode,
    discovery: listed ? 'lists' : 'mirrored',
    settle,
    changedProjects: webhook?.projects ?? null,
    unitsBesideChanges: mode === 'full',
    discoverFromChanges: mode === 'full' ? null : { webhooks: webhook !== null },
    knownStrategy: webhook?.unitStrategy ?? null,
    deferSnapshots: webhook !== null,
    recordDiscovery: listed,
    backfill: !state.hasSucceeded,
  };
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

import type { SyncDeps } from './context.ts';
import { statisticsPlan } from './plan.ts';
import { recordRun, type RunOptions, type RunResult } from './run-record.ts';
import { executeRun } from './run-sync.ts';

/**
 * A statistics snapshot of every live translation in scope and of their languages, whether
 * or not anything moved, recorded in weblate.sync_runs with kind `statistics`. The history
 * gains a row only where a value changed; otherwise the latest row's `last_seen_at` moves,
 * which shows the value still held at that time. The translations are those the mirror holds:
 * the snapshot lists nothing and marks nothing deleted by listing (a translation whose
 * statistics answer 404 is marked deleted, as in a sync), and it leaves the pending work of
 * syncs alone. Never throws for a failed snapshot: the result says what happened.
 */
export function runStatisticsSnapshot(
  deps: SyncDeps,
  options: RunOptions = {},
): Promise<RunResult> {
  const plan = statisticsPlan();
  return recordRun(deps, plan, options, (ctx, controller) => executeRun(ctx, controller, plan));
}

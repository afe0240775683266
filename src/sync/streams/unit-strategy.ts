import { probeUnitList } from '../../weblate/capabilities.ts';
import type { SyncContext } from '../context.ts';

/**
 * How a run reads units:
 * - `global`: /api/units/ walked by id, changed units found by `last_changed` (Weblate 5.14+);
 * - `global-ids`: /api/units/ walked by id in a full sync, but no `last_changed` search, so an
 *   incremental sync reads each moved translation's units instead (every edit moves its
 *   translation's record, and a new unit its total), and units named by changes by id;
 * - `per-translation`: no usable /api/units/ at all: each moved translation's own list.
 */
export type UnitStrategyKind = 'global' | 'global-ids' | 'per-translation';

export interface UnitStrategy {
  kind: UnitStrategyKind;
  /** Whether unit lists take `id:` terms; null when the probe could not tell. */
  hasIdSearch: boolean | null;
}

/**
 * A strategy chosen at most once per run, on first use: the probe costs a request, which
 * a run that reads no units (a quiet incremental one) never makes.
 */
export function lazyUnitStrategy(
  ctx: SyncContext,
  known: UnitStrategyMemo | null = null,
): () => Promise<UnitStrategy> {
  let chosen: Promise<UnitStrategy> | null = null;
  return () => (chosen ??= known === null ? chooseUnitStrategy(ctx) : known.get(ctx));
}

/**
 * A strategy kept across runs, for the worker's syncs driven by webhooks, which come every
 * few seconds: probed by the first run that needs it and again once it is `maxAgeMs` old,
 * so that a server upgraded meanwhile is noticed within that time. A failed probe is not
 * kept.
 */
export class UnitStrategyMemo {
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  #chosen: { at: number; strategy: Promise<UnitStrategy> } | null = null;

  constructor(maxAgeMs: number, now: () => number = Date.now) {
    this.#maxAgeMs = maxAgeMs;
    this.#now = now;
  }

  get(ctx: SyncContext): Promise<UnitStrategy> {
    const at = this.#now();
    if (this.#chosen === null || at - this.#chosen.at >= this.#maxAgeMs) {
      const strategy = chooseUnitStrategy(ctx);
      const chosen = { at, strategy };
      this.#chosen = chosen;
      strategy.catch(() => {
        if (this.#chosen === chosen) this.#chosen = null;
      });
    }
    return this.#chosen.strategy;
  }
}

async function chooseUnitStrategy(ctx: SyncContext): Promise<UnitStrategy> {
  const found = await probeUnitList(ctx.client, ctx.signal);
  const kind: UnitStrategyKind =
    !found.hasGlobalList || found.hasIdSearch === false
      ? 'per-translation'
      : found.hasLastChangedSearch
        ? 'global'
        : 'global-ids';
  const fields = { strategy: kind, evidence: found.evidence };
  if (kind === 'global') {
    ctx.log.info(fields, 'unit strategy chosen');
  } else {
    ctx.warn('unit strategy chosen', describe(kind, found.evidence), fields);
  }
  return { kind, hasIdSearch: found.hasIdSearch };
}

function describe(kind: Exclude<UnitStrategyKind, 'global'>, evidence: string): string {
  return kind === 'per-translation'
    ? `the server has no usable /api/units/ list (${evidence}); units are read per translation`
    : `the server cannot search units by last_changed (${evidence}); an incremental sync reads the units of each moved translation instead`;
}

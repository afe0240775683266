import { constants, PerformanceObserver } from 'node:perf_hooks';

import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

import { MIRRORED_TABLES } from '../db/database.ts';
import { SKIP_REASONS, type SkipReason } from '../job.ts';
import type { RunResult } from '../sync/run-record.ts';
import type { RateGate } from '../weblate/rate-gate.ts';

/** Prefix of every metric name. */
const PREFIX = 'weblate_mirror_';

export const RUN_STATUSES = ['succeeded', 'failed', 'interrupted'] as const;

export interface WorkerMetrics {
  /** A registry of our own (not prom-client's global one), for /metrics. */
  readonly registry: Registry;
  /**
   * Counts a finished run: its status, rows written and records rejected per table. A run
   * that could not start or be recorded (the database failed) counts as failed, without a result.
   */
  recordRun(job: string, result: RunResult | null, now: Date): void;
  recordSkip(job: string, reason: SkipReason): void;
  /** Counts one answer of Weblate by status code (0: none came). */
  observeResponse(status: number): void;
  /** The rate gate whose budget the rate-limit gauge shows (the latest client's). */
  watchGate(gate: RateGate): void;
}

export interface MetricsOptions {
  jobs: readonly string[];
  /**
   * When the newest successful sync finished (ISO text), or null if none has; read at each
   * scrape. A failure leaves the freshness gauge at NaN for that scrape.
   */
  lastSyncAt: () => Promise<string | null>;
  now?: () => number;
}

/** Heap in use after the newest full collection, bytes; null before the first. */
let liveHeapBytes: number | null = null;
let liveHeapObserver: PerformanceObserver | null = null;

/**
 * Watches full (mark-sweep) collections, once per process (an observer keeps no process alive):
 * the heap right after one is the live objects; heap used at a scrape includes garbage.
 */
function watchLiveHeap(): void {
  if (liveHeapObserver !== null) return;
  liveHeapObserver = new PerformanceObserver((list) => {
    const major = list
      .getEntries()
      .some(
        (entry) =>
          (entry as { detail?: { kind?: number } }).detail?.kind ===
          constants.NODE_PERFORMANCE_GC_MAJOR,
      );
    if (major) liveHeapBytes = process.memoryUsage().heapUsed;
  });
  liveHeapObserver.observe({ entryTypes: ['gc'] });
}

/** The worker's Prometheus metrics, named `weblate_mirror_*`, plus Node's process metrics. */
export function createMetrics(options: MetricsOptions): WorkerMetrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  const registers = [registry];
  const runs = new Counter({
    name: `${PREFIX}job_runs_total`,
    help: 'Runs of each job that ended, by status (succeeded, failed, interrupted).',
    labelNames: ['job', 'status'] as const,
    registers,
  });
  const skips = new Counter({
    name: `${PREFIX}job_skips_total`,
    help: 'Ticks of each job that did not run: overlap (its previous run still going in this process), locked (running in another process), stopping (shutdown began).',
    labelNames: ['job', 'reason'] as const,
    registers,
  });
  const lastSuccess = new Gauge({
    name: `${PREFIX}job_last_success_timestamp_seconds`,
    help: 'Unix time at which a run of each job last succeeded in this process.',
    labelNames: ['job'] as const,
    registers,
  });
  const requests = new Counter({
    name: `${PREFIX}weblate_requests_total`,
    help: 'HTTP requests to Weblate by status code of the answer (0: none came, e.g. a network error or timeout). Retries count.',
    labelNames: ['code'] as const,
    registers,
  });
  const rowsWritten = new Counter({
    name: `${PREFIX}rows_written_total`,
    help: 'Rows inserted or changed in each mirrored table (statistics: history rows appended).',
    labelNames: ['table'] as const,
    registers,
  });
  const rejected = new Counter({
    name: `${PREFIX}rejected_records_total`,
    help: 'Records read but not stored (see weblate.rejected_records), by table.',
    labelNames: ['table'] as const,
    registers,
  });
  new Gauge({
    name: `${PREFIX}data_freshness_lag_seconds`,
    help: 'Seconds since the newest successful sync (full or incremental, any process) finished; +Inf before the first.',
    registers,
    async collect() {
      try {
        const at = await options.lastSyncAt();
        this.set(at === null ? Infinity : Math.max(0, (now() - Date.parse(at)) / 1000));
      } catch {
        this.set(NaN);
      }
    },
  });
  let gate: RateGate | null = null;
  new Gauge({
    name: `${PREFIX}rate_limit_remaining`,
    help: "Requests Weblate's advertised rate budget still allows before it resets; NaN when the server sent none or the reset has passed.",
    registers,
    collect() {
      this.set(gate?.budgetRemaining ?? NaN);
    },
  });
  watchLiveHeap();
  new Gauge({
    name: `${PREFIX}nodejs_heap_live_bytes`,
    help: 'V8 heap in use right after the newest full collection (live objects; growth over hours is a leak); NaN before the first.',
    registers,
    collect() {
      this.set(liveHeapBytes ?? NaN);
    },
  });
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  // Every series exists from the start, so rates and alerts work before the first event.
  for (const job of options.jobs) {
    for (const status of RUN_STATUSES) runs.labels({ job, status }).inc(0);
    for (const reason of SKIP_REASONS) skips.labels({ job, reason }).inc(0);
  }
  for (const table of MIRRORED_TABLES) {
    rowsWritten.labels({ table }).inc(0);
    rejected.labels({ table }).inc(0);
  }
  return {
    registry,
    recordRun(job, result, at) {
      runs.labels({ job, status: result?.status ?? 'failed' }).inc();
      if (result === null) return;
      if (result.status === 'succeeded') lastSuccess.labels({ job }).set(at.getTime() / 1000);
      for (const resource of result.summary.resources) {
        if (resource.rows > 0) rowsWritten.labels({ table: resource.resource }).inc(resource.rows);
        if (resource.rejected > 0)
          rejected.labels({ table: resource.resource }).inc(resource.rejected);
      }
    },
    recordSkip(job, reason) {
      skips.labels({ job, reason }).inc();
    },
    observeResponse(status) {
      requests.labels({ code: String(status) }).inc();
    },
    watchGate(watched) {
      gate = watched;
    },
  };
}

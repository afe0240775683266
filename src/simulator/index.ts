/**
 * A deterministic, generated, Weblate-compatible HTTP server for the mirror's tests, its
 * `demo` command and benchmarks. `startSimulator()` generates an instance from a seed and
 * serves its read API on a loopback port. Around the API sit layers a test can turn on at
 * start or at runtime: faults (`faults`, `setFaults`, `failNext`), a rate budget
 * (`rateLimit`, `setRateLimit`), latency (`latencyMs`, `setLatency`) and mid-walk triggers
 * (`at`); `mutate` changes the data the way a real Weblate's changes.
 */
import type { FailNextHandle, FaultKind, FaultOptions } from './faults.ts';
import { generateInstance, generateInstanceEndingAt } from './generate.ts';
import type { SimInstance } from './model.ts';
import { realNow } from './mutation-context.ts';
import { createMutator, type Mutator } from './mutations.ts';
import { createPipeline } from './pipeline.ts';
import type { RateLimitOptions } from './rate-limit.ts';
import {
  closeServer,
  createRequestLog,
  createSimulatorServer,
  hostForUrl,
  isLoopbackHost,
  listen,
  type RequestLog,
} from './server.ts';
import { DEFAULT_SIZE, type SimulatorSize } from './size.ts';
import type { Trigger, TriggerHandle } from './triggers.ts';

export { ACTION_NAMES, CONTENT_ACTIONS } from './actions.ts';
export {
  type FailNextHandle,
  FAULT_KINDS,
  type FaultKind,
  type FaultOptions,
  parseFaultSpec,
} from './faults.ts';
export { generateInstance } from './generate.ts';
export { buildIndex, compareChangesNewestFirst, reindexInstance } from './indexes.ts';
export * from './model.ts';
export {
  addChanges,
  type AddChangesOptions,
  type AddChangesResult,
  addComponent,
  type AddComponentOptions,
  type AddComponentResult,
  addProject,
  type AddProjectResult,
  addTranslation,
  type AddTranslationResult,
  addUnits,
  type AddUnitsResult,
  type BulkEditResult,
  bulkEditStates,
  createMutator,
  deleteComponent,
  deleteProject,
  type DeleteResult,
  deleteTranslation,
  deleteUnits,
  type DeleteUnitsResult,
  editUnits,
  type EditUnitsOptions,
  type EditUnitsResult,
  type MutationContext,
  type Mutator,
} from './mutations.ts';
export {
  createRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimitOptions,
} from './rate-limit.ts';
export * from './render.ts';
export type { SimRequest, SimResponse, Transport } from './responses.ts';
export { dispatch } from './routes.ts';
export type { RequestHandler, RequestLog, RequestLogEntry } from './server.ts';
export { calculateHash, checksumToHash, hashToChecksum } from './siphash.ts';
export { DEFAULT_SIZE, type SimulatorSize } from './size.ts';
export { countTranslation, translationPercent } from './statistics.ts';
export { formatInstant, parseInstant } from './time.ts';
export type { Trigger, TriggerHandle } from './triggers.ts';

export interface SimulatorOptions extends Partial<SimulatorSize> {
  /** Seed of the generated data (default 1). */
  seed?: number;
  /** Port to listen on (default 0: an ephemeral port). */
  port?: number;
  /** Loopback address to listen on (default 127.0.0.1); anything else is refused. */
  host?: string;
  /** Random faults from the start (see FaultOptions); default none. */
  faults?: FaultOptions;
  /** A rate budget from the start; default none (unlimited, no rate-limit headers). */
  rateLimit?: RateLimitOptions;
  /** Delay before every answer, in milliseconds (default 0). */
  latencyMs?: number;
  /**
   * Move the generated history in time so that its newest change is at this instant (epoch
   * milliseconds), e.g. an hour ago for a demo; default: the fixed history of 2024–2025.
   */
  historyEndsAt?: number;
  /**
   * The server's clock in epoch milliseconds (fractions are microseconds): the Date header
   * and the timestamps mutations write. Default real time. The rate budget always uses
   * real time, because clients really wait for it.
   */
  now?: () => number;
}

export interface RunningSimulator {
  /** Base URL with a trailing slash; the API is under `${url}api/`. */
  url: string;
  /** The live data; tests read it to compute expectations. */
  instance: SimInstance;
  requests: RequestLog;
  /** Mutations of the live instance (mutations.ts), stamped with the server's clock. */
  mutate: Mutator;
  /** Runs `action` just before the nth request matching `trigger.match` is served. */
  at(trigger: Trigger, action: () => void): TriggerHandle;
  /** Replaces the random faults (and restarts their PRNG); null turns them off. */
  setFaults(options: FaultOptions | null): void;
  /**
   * Fails the next `count` requests whose pathname + search matches (default: /api/), before
   * and independently of random faults. Retry-After and the hang time come from the current
   * fault options (`setFaults({ rate: 0, retryAfterSeconds: 0.05 })` for fast tests).
   */
  failNext(count: number, kind: FaultKind, match?: RegExp): FailNextHandle;
  /** Replaces the rate budget (forgetting the requests counted); null turns it off. */
  setRateLimit(options: RateLimitOptions | null): void;
  setLatency(ms: number): void;
  close(): Promise<void>;
}

function sizeOf(options: SimulatorOptions): SimulatorSize {
  const size: SimulatorSize = { ...DEFAULT_SIZE };
  for (const key of Object.keys(DEFAULT_SIZE) as (keyof SimulatorSize)[]) {
    const value = options[key];
    if (value !== undefined) size[key] = value;
  }
  return size;
}

function checkLatency(ms: number): number {
  if (!(ms >= 0) || !Number.isFinite(ms)) throw new Error(`invalid latency ${ms}`);
  return ms;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new Error(`the simulator only listens on loopback addresses, not "${host}"`);
  }
  const { seed = 1, port = 0 } = options;
  const now = options.now ?? realNow;
  let latencyMs = checkLatency(options.latencyMs ?? 0);
  const instance =
    options.historyEndsAt === undefined
      ? generateInstance({ ...sizeOf(options), seed })
      : generateInstanceEndingAt({ ...sizeOf(options), seed }, options.historyEndsAt * 1000);
  const pipeline = createPipeline(instance, {
    faults: options.faults ?? null,
    rateLimit: options.rateLimit ?? null,
  });
  const requests = createRequestLog();
  let boundPort = port;
  const server = createSimulatorServer(
    pipeline.handle,
    requests,
    () => `${hostForUrl(host)}:${boundPort}`,
    { now, latencyMs: () => latencyMs },
  );
  boundPort = await listen(server, host, port);
  return {
    url: `http://${hostForUrl(host)}:${boundPort}/`,
    instance,
    requests,
    mutate: createMutator(instance, now),
    at: pipeline.at,
    setFaults: pipeline.setFaults,
    failNext: pipeline.failNext,
    setRateLimit: pipeline.setRateLimit,
    setLatency: (ms) => {
      latencyMs = checkLatency(ms);
    },
    close: () => closeServer(server),
  };
}
export { prerender } from './render-cache.ts';

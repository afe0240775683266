/**
 * A deterministic, generated, Weblate-compatible HTTP server for the mirror's tests, `demo`
 * and benchmarks, with layers a test turns on (docs/internals.md#the-simulators-layers).
 */
import { isLoopbackHost } from '../lib/hosts.ts';
import type { CompatOptions } from './compat.ts';
import type { CostModel } from './cost.ts';
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
  listen,
  type RequestLog,
} from './server.ts';
import { DEFAULT_SIZE, type SimulatorSize } from './size.ts';
import type { SlowUnitPagesOptions } from './slow-pages.ts';
import type { Trigger, TriggerHandle } from './triggers.ts';
import {
  type DailyProgress,
  trueDailyProgress,
  type TrueProgressOptions,
  trueTranslationProgress,
} from './true-progress.ts';
import type { UnitIdLayout } from './unit-ids.ts';
import { type SimWebhookOptions, type WebhookDeliveries, WebhookSender } from './webhooks.ts';

export { ACTION_NAMES, CONTENT_ACTIONS } from './actions.ts';
export { type CompatOptions, permissionDenied } from './compat.ts';
export {
  type CostModel,
  rowsTouched,
  scaledCosts,
  type ServerWork,
  serviceMs,
  WEBLATE_5_14_COSTS,
} from './cost.ts';
export {
  type FailNextHandle,
  FAULT_KINDS,
  type FaultKind,
  type FaultOptions,
  parseFaultSpec,
} from './faults.ts';
export { generateInstance } from './generate.ts';
export { NO_STRING, stateAction, stateDetails } from './history.ts';
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
  renameTemplate,
  type SilentResult,
  type SilentUnitUpdate,
  updateUnitsSilently,
} from './mutations.ts';
export {
  createRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimitOptions,
} from './rate-limit.ts';
export { isAtLeast, parseRelease, type Release, RELEASES } from './release.ts';
export * from './render.ts';
export type { RequestHandler, SimRequest, SimResponse, Transport } from './responses.ts';
export { dispatch } from './routes.ts';
export type { RequestLog, RequestLogEntry } from './server.ts';
export { calculateHash, checksumToHash, hashToChecksum } from './siphash.ts';
export { DEFAULT_SIZE, type SimulatorSize } from './size.ts';
export type { SlowUnitPagesOptions } from './slow-pages.ts';
export { countTranslation, translationPercent } from './statistics.ts';
export { formatInstant, parseInstant } from './time.ts';
export type { Trigger, TriggerHandle } from './triggers.ts';
export {
  type DailyProgress,
  trueDailyProgress,
  type TrueProgressOptions,
  trueTranslationProgress,
} from './true-progress.ts';
export { sparseClusteredIds, type UnitIdLayout } from './unit-ids.ts';
export { type LinkBase, siteLinks } from './urls.ts';
export { pythonJson, type SimWebhookOptions, type WebhookDeliveries } from './webhooks.ts';

export interface SimulatorOptions extends Partial<SimulatorSize> {
  /** Seed of the generated data (default 1). */
  seed?: number;
  /**
   * Generate categories and labels in every project, and labels on some source units
   * (generate-labels.ts); default none, which leaves every other record of a seed as it was.
   */
  categoriesAndLabels?: boolean;
  /**
   * How unit ids are laid out (unit-ids.ts): `dense` (default) counts up from 1;
   * `sparse-clustered` numbers the same units in clusters millions of ids apart, past 2^31.
   */
  unitIds?: UnitIdLayout;
  /** Port to listen on (default 0: an ephemeral port). */
  port?: number;
  /** Loopback address to listen on (default 127.0.0.1); anything else is refused. */
  host?: string;
  /**
   * The site URL every absolute link (API links, `next` and `previous`) starts with, as
   * Weblate builds them from SITE_DOMAIN and ENABLE_HTTPS whatever Host a client sends;
   * e.g. `http://127.0.0.1:8443/` behind a TLS proxy not configured for Weblate. Default:
   * the address the simulator listens on.
   */
  siteUrl?: string;
  /** Random faults from the start (see FaultOptions); default none. */
  faults?: FaultOptions;
  /** A rate budget from the start; default none (unlimited, no rate-limit headers). */
  rateLimit?: RateLimitOptions;
  /**
   * The API token the simulator accepts: a request presenting another (`Token <key>` or
   * `Bearer <key>`) answers 401 `Invalid token.` as Weblate does, before the rate budget
   * counts it; a request without one is served as anonymous. Default: any token.
   */
  token?: string;
  /** Delay before every answer, in milliseconds (default 0). */
  latencyMs?: number;
  /**
   * Take as long to answer as Weblate would (cost.ts): e.g. WEBLATE_5_14_COSTS, or
   * `scaledCosts(WEBLATE_5_14_COSTS, 0.1)` for a benchmark on a shorter clock. Default none:
   * answers as fast as the simulator can. The request log counts the work either way.
   */
  costModel?: CostModel | null;
  /** Unit list pages with more results than a proxy waits for fail (default none). */
  slowUnitPages?: SlowUnitPagesOptions;
  /**
   * Answer like another Weblate, or for a token with fewer rights (compat.ts): `release`
   * ('5.15': subscriptions link their project or component; '2026': records, authentication
   * and webhooks of 2026.x, see release.ts), `hasLastChangedSearch: false` (before 5.14), `hasGlobalUnitList: false` (no
   * /api/units/), `hasObjectIds: false` (before 5.0.1), `tokenUser` (5.15+: other users'
   * notification subscriptions answer 403), `staleLanguageStatistics` (5.14.3's English
   * statistics, stale per process), `staleTranslationStatistics` (translations' counts in the
   * moment before 5.14.3 updates them after a change). Default: none of these.
   */
  compat?: CompatOptions;
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
  /**
   * Send webhooks as Weblate's webhook add-on does (webhooks.ts): one signed POST per change
   * the mutations (and churn) record, to this URL with this secret. Default none.
   */
  webhook?: SimWebhookOptions;
}

export interface RunningSimulator {
  /** Base URL with a trailing slash; the API is under `${url}api/`. */
  url: string;
  /** The live data; tests read it to compute expectations. */
  instance: SimInstance;
  requests: RequestLog;
  /** Mutations of the live instance (mutations.ts), stamped with the server's clock. */
  mutate: Mutator;
  /**
   * The true daily progress of every target translation up to the server clock's day (or
   * `until`), from the simulator's own history (true-progress.ts).
   */
  trueDailyProgress(options?: TrueProgressOptions): Map<number, DailyProgress[]>;
  /** One translation's series (see trueDailyProgress). */
  trueTranslationProgress(translationId: number, options?: TrueProgressOptions): DailyProgress[];
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
  /** Replaces the cost model; null turns it off. */
  setCostModel(model: CostModel | null): void;
  /** Replaces the slow-page behaviour; null turns it off. */
  setSlowUnitPages(options: SlowUnitPagesOptions | null): void;
  /** Replaces the compat options (those left out return to their defaults). */
  setCompat(options: CompatOptions): void;
  /** Replaces the site URL of links (`siteUrl`); null returns to the listening address. */
  setSiteUrl(url: string | null): void;
  /** Replaces where webhooks go (`webhook`); null stops sending them. */
  setWebhook(options: SimWebhookOptions | null): void;
  /** What the webhooks sent so far came to (zeros without webhooks). */
  webhookDeliveries(): WebhookDeliveries;
  /** Resolves once every webhook queued so far was answered or failed. */
  webhooksIdle(): Promise<void>;
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

/** An http(s) origin with a trailing slash: the simulator serves the API under /api/ only. */
function checkSiteUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed === null || !/^https?:$/.test(parsed.protocol) || parsed.pathname !== '/')
    throw new Error(`the site URL must be an http(s) origin with a trailing slash, not "${url}"`);
  return parsed.href;
}

function checkLatency(ms: number): number {
  if (!(ms >= 0) || !Number.isFinite(ms)) throw new Error(`invalid latency ${ms}`);
  return ms;
}

function checkCostModel(model: CostModel | null): CostModel | null {
  if (model === null) return null;
  for (const [key, value] of Object.entries(model)) {
    if (!(typeof value === 'number' && value >= 0 && Number.isFinite(value)))
      throw new Error(`invalid cost model: ${key} must be a number of milliseconds >= 0`);
  }
  return model;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new Error(`the simulator only listens on loopback addresses, not "${host}"`);
  }
  const { seed = 1, port = 0 } = options;
  const now = options.now ?? realNow;
  let latencyMs = checkLatency(options.latencyMs ?? 0);
  let costModel = checkCostModel(options.costModel ?? null);
  const generation = {
    ...sizeOf(options),
    seed,
    categoriesAndLabels: options.categoriesAndLabels,
    unitIds: options.unitIds,
  };
  const instance =
    options.historyEndsAt === undefined
      ? generateInstance(generation)
      : generateInstanceEndingAt(generation, options.historyEndsAt * 1000);
  const pipeline = createPipeline(instance, {
    faults: options.faults ?? null,
    rateLimit: options.rateLimit ?? null,
    slowUnitPages: options.slowUnitPages ?? null,
    compat: options.compat ?? {},
    token: options.token ?? null,
  });
  const requests = createRequestLog();
  let siteUrl = options.siteUrl === undefined ? null : checkSiteUrl(options.siteUrl);
  let listeningUrl = '';
  const site = () => siteUrl ?? listeningUrl;
  const server = createSimulatorServer(pipeline.handle, requests, site, {
    now,
    latencyMs: () => latencyMs,
    costModel: () => costModel,
  });
  listeningUrl = `http://${hostForUrl(host)}:${await listen(server, host, port)}/`;
  const newSender = (webhook: SimWebhookOptions | null | undefined) =>
    webhook === null || webhook === undefined
      ? null
      : new WebhookSender(instance, webhook, site, pipeline.release);
  let sender = newSender(options.webhook);
  const senders = new Set<WebhookSender>(sender === null ? [] : [sender]);
  return {
    url: listeningUrl,
    instance,
    requests,
    mutate: createMutator(instance, now, (changes) => sender?.send(changes)),
    trueDailyProgress: (progressOptions) =>
      trueDailyProgress(instance, { now, ...progressOptions }),
    trueTranslationProgress: (id, progressOptions) =>
      trueTranslationProgress(instance, id, { now, ...progressOptions }),
    at: pipeline.at,
    setFaults: pipeline.setFaults,
    failNext: pipeline.failNext,
    setRateLimit: pipeline.setRateLimit,
    setSlowUnitPages: pipeline.setSlowUnitPages,
    setCompat: pipeline.setCompat,
    setSiteUrl: (url) => {
      siteUrl = url === null ? null : checkSiteUrl(url);
    },
    setLatency: (ms) => {
      latencyMs = checkLatency(ms);
    },
    setCostModel: (model) => {
      costModel = checkCostModel(model);
    },
    setWebhook: (webhook) => {
      sender = newSender(webhook);
      if (sender !== null) senders.add(sender);
    },
    webhookDeliveries: () => {
      const total: WebhookDeliveries = { delivered: 0, failed: 0, dropped: 0, answerMs: [] };
      for (const { deliveries } of senders) {
        total.delivered += deliveries.delivered;
        total.failed += deliveries.failed;
        total.dropped += deliveries.dropped;
        total.answerMs.push(...deliveries.answerMs);
      }
      return total;
    },
    webhooksIdle: async () => {
      await Promise.all([...senders].map((s) => s.idle()));
    },
    close: async () => {
      sender = null;
      await Promise.all([...senders].map((s) => s.idle()));
      await closeServer(server);
    },
  };
}
export { prerender } from './render-cache.ts';

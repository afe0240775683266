/**
 * Webhooks as Weblate's webhook add-on (5.11+) sends them, one POST per change, signed as
 * Standard Webhooks (docs/internals.md#simulated-webhooks).
 */
import { createHash } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import type { SimChange, SimInstance } from './model.ts';
import { DEFAULT_RELEASE, isAtLeast, type Release } from './release.ts';
import { formatInstant } from './time.ts';
import { componentPath, projectPath } from './urls.ts';

export interface SimWebhookOptions {
  /** Where the POSTs go. */
  url: string;
  /** The add-on's secret: base64, optionally prefixed with `whsec_`. */
  secret: string;
  /** Action codes sent (the add-on's `events`); default every action. */
  events?: readonly number[];
}

export interface WebhookDeliveries {
  /** Answered 2xx. */
  delivered: number;
  /** Answered otherwise, or not at all. */
  failed: number;
  /** Not sent: more than MAX_WAITING were waiting (Weblate's queue would hold them longer). */
  dropped: number;
  /** How long the receiver took to answer, in ms: the latest MAX_SAMPLES deliveries answered. */
  answerMs: number[];
}

/** Deliveries in flight at once, as a few Celery workers would send them. */
const IN_FLIGHT = 4;
/** Deliveries waiting at most; beyond, new ones are dropped and counted. */
const MAX_WAITING = 10_000;
/** Answer times kept for WebhookDeliveries.answerMs. */
const MAX_SAMPLES = 10_000;
/** Weblate gives a receiver 15 seconds. */
const TIMEOUT_MS = 15_000;

export class WebhookSender {
  readonly #instance: SimInstance;
  readonly #options: SimWebhookOptions;
  readonly #signer: Webhook;
  readonly #site: () => string;
  readonly #release: () => Release;
  readonly #events: ReadonlySet<number> | null;
  readonly #waiting: Array<{ id: string; body: string }> = [];
  #inFlight = 0;
  #idle: Array<() => void> = [];
  readonly deliveries: WebhookDeliveries = { delivered: 0, failed: 0, dropped: 0, answerMs: [] };

  constructor(
    instance: SimInstance,
    options: SimWebhookOptions,
    site: () => string,
    release: () => Release = () => DEFAULT_RELEASE,
  ) {
    if (!/^https?:\/\//.test(options.url))
      throw new Error(`the webhook URL must be http(s), not "${options.url}"`);
    this.#instance = instance;
    this.#options = options;
    this.#signer = new Webhook(options.secret);
    this.#site = site;
    this.#release = release;
    this.#events = options.events === undefined ? null : new Set(options.events);
  }

  /** Queues one POST per change the add-on would send; they go out in the background. */
  send(changes: readonly SimChange[]): void {
    for (const change of changes) {
      if (this.#events !== null && !this.#events.has(change.action)) continue;
      if (this.#waiting.length >= MAX_WAITING) {
        this.deliveries.dropped += 1;
        continue;
      }
      const payload = this.payload(change);
      // The body is signed as it is sent; a receiver must verify these bytes, not a re-encoding.
      const body = isAtLeast(this.#release(), '2026')
        ? JSON.stringify(payload)
        : pythonJson(payload);
      this.#waiting.push({ id: changeUuid(change), body });
    }
    this.#pump();
  }

  /** Resolves once nothing waits or is in flight. */
  idle(): Promise<void> {
    if (this.#inFlight === 0 && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** The add-on's payload of a change (keys with nothing to say left out, as Weblate does). */
  payload(change: SimChange): Record<string, unknown> {
    const { index } = this.#instance;
    const data: Record<string, unknown> = {
      change_id: change.id,
      action: change.actionName,
      timestamp: pythonIsoformat(change.timestampUs),
    };
    if (change.target !== '') data.target = splitPlural(change.target);
    if (change.old !== '') data.old = splitPlural(change.old);
    const unit = change.unitId === null ? undefined : index.unitById.get(change.unitId);
    if (unit !== undefined) {
      data.source = unit.source;
      if (isAtLeast(this.#release(), '2026')) data.context = unit.context;
    }
    const url = this.#pageUrl(change);
    if (url !== null) data.url = url;
    if (change.author !== null) data.author = change.author;
    if (change.user !== null) data.user = change.user;
    const project = index.projectById.get(change.projectId);
    if (project !== undefined) data.project = project.slug;
    const component =
      change.componentId === null ? undefined : index.componentById.get(change.componentId);
    if (component !== undefined) data.component = component.slug;
    const translation =
      change.translationId === null ? undefined : index.translationById.get(change.translationId);
    const language =
      translation === undefined ? undefined : index.languageById.get(translation.languageId);
    if (language !== undefined) data.translation = language.code;
    return data;
  }

  #pageUrl(change: SimChange): string | null {
    const { index } = this.#instance;
    const component =
      change.componentId === null ? undefined : index.componentById.get(change.componentId);
    if (component !== undefined)
      return `${this.#site()}projects/${componentPath(this.#instance, component)}`;
    const project = index.projectById.get(change.projectId);
    return project === undefined ? null : `${this.#site()}projects/${projectPath(project)}`;
  }

  #pump(): void {
    while (this.#inFlight < IN_FLIGHT && this.#waiting.length > 0) {
      const next = this.#waiting.shift()!;
      this.#inFlight += 1;
      void this.#deliver(next.id, next.body).finally(() => {
        this.#inFlight -= 1;
        this.#pump();
        if (this.#inFlight === 0 && this.#waiting.length === 0) {
          for (const resolve of this.#idle.splice(0)) resolve();
        }
      });
    }
  }

  async #deliver(id: string, body: string): Promise<void> {
    const seconds = Date.now() / 1000;
    const headers = {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': pythonFloat(seconds),
      'webhook-signature': this.#signer.sign(id, new Date(seconds * 1000), body),
    };
    const sent = performance.now();
    try {
      const response = await fetch(this.#options.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await response.arrayBuffer();
      const { answerMs } = this.deliveries;
      answerMs.push(performance.now() - sent);
      if (answerMs.length > MAX_SAMPLES) answerMs.splice(0, answerMs.length - MAX_SAMPLES);
      if (response.ok) this.deliveries.delivered += 1;
      else this.deliveries.failed += 1;
    } catch {
      this.deliveries.failed += 1;
    }
  }
}

/** A stable UUID per change, in hex (Weblate's `Change.get_uuid().hex`). */
function changeUuid(change: SimChange): string {
  return createHash('sha256').update(`change:${change.id}`).digest('hex').slice(0, 32);
}

/** Plural forms, as Weblate's split_plural (joined by "\x1e\x1e" when stored). */
function splitPlural(text: string): string[] {
  return text.split('\x1e\x1e');
}

/** `datetime.isoformat()` of an aware UTC time: "+00:00", no fraction when it is zero. */
function pythonIsoformat(micros: number): string {
  return formatInstant(micros, 0).replace('.000000+', '+');
}

/** Python's `str(float)` of a positive time in seconds, e.g. "1764030000.123456". */
function pythonFloat(seconds: number): string {
  const text = String(Math.round(seconds * 1e6) / 1e6);
  return text.includes('.') ? text : `${text}.0`;
}

/** Python's `json.dumps(value)` with its defaults: ", " and ": " separators, ASCII only. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`);
    return `{${entries.join(', ')}}`;
  }
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  return JSON.stringify(value);
}

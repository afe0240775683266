/*
 * Watching, in one vocabulary (docs/watching.md): rules say what to watch, alerts are the
 * conditions that hold, events are an alert's firing or resolution, channels carry events and
 * digests to people, and gates and badges answer "is it ready" without anybody asking Weblate.
 */

/** Which part of the mirror a rule, a digest or a gate looks at; absent or empty means all. */
export interface WatchScope {
  projects?: string[];
  /** `project/component`. */
  components?: string[];
  /** `project/category path`, as `report --category` takes it. */
  categories?: string[];
  /** Label names, as `report --label` takes them. */
  labels?: string[];
  languages?: string[];
}

export const RULE_TYPES = [
  'stalled',
  'readiness',
  'review-waiting',
  'new-source-words',
  'failing-checks',
  'mirror-stale',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** Which strings count as done, and what is counted: as `ready --basis/--by` take them. */
export type ReadyBasis = 'translated' | 'approved';
export type ReadyUnit = 'strings' | 'words';

interface RuleBase {
  /** Unique in the file; part of every alert key, so renaming a rule starts its alerts anew. */
  name: string;
  scope: WatchScope;
  /** Channel names; absent: every channel of the file. */
  channels: string[] | null;
  /** 1-based line of the rule in the rules file (0 for a built-in default). */
  line: number;
}

export type WatchRule =
  /** A language of a project with strings left and no translating change for `days`. */
  | (RuleBase & { type: 'stalled'; days: number })
  /** A language of a project at or above `level` percent (fires upward, resolves below). */
  | (RuleBase & { type: 'readiness'; level: number; basis: ReadyBasis; by: ReadyUnit })
  /** A language of a project with a string waiting for review longer than `days`. */
  | (RuleBase & { type: 'review-waiting'; days: number })
  /** A project with more than `words` new source words in the current day or ISO week. */
  | (RuleBase & { type: 'new-source-words'; words: number; per: 'day' | 'week' })
  /** A language of a project whose failing strings grew by more than `by` over `days`. */
  | (RuleBase & { type: 'failing-checks'; by: number; days: number })
  /** No successful sync for `minutes`, or `failedRuns` failed runs in a row. */
  | (RuleBase & { type: 'mirror-stale'; minutes: number; failedRuns: number });

export type ChannelSpec =
  | {
      name: string;
      type: 'webhook';
      url: string;
      /** Signs like Weblate's webhook add-on (Standard Webhooks); null: unsigned. */
      secret: string | null;
    }
  | { name: string; type: 'slack' | 'mattermost'; url: string }
  | {
      name: string;
      type: 'email';
      /** smtp:// (STARTTLS, required off loopback) or smtps:// (TLS), credentials in the URL. */
      smtpUrl: string;
      from: string;
      to: string[];
      /** A PEM file of certificate authorities to trust besides the system's (a private relay). */
      caFile: string | null;
    };

export interface DigestSpec {
  channel: string;
  every: 'day' | 'week';
  scope: WatchScope;
}

export interface WatchConfig {
  /** The rules file's path; null: the built-in default rules and no channels. */
  file: string | null;
  rules: WatchRule[];
  channels: ChannelSpec[];
  digests: DigestSpec[];
}

/** One firing or resolution of an alert, as every channel receives it. */
export interface WatchEvent {
  /** Stable and unique: `<alert key>#<generation>/<fired|resolved>`; receivers dedupe on it. */
  key: string;
  alertKey: string;
  type: 'fired' | 'resolved';
  rule: string;
  ruleType: RuleType;
  /** When the mirror saw the condition start or end (ISO 8601 UTC, microseconds). */
  occurredAt: string;
  /** One line for people, e.g. "weblate / de reached 90.0 % translated strings". */
  title: string;
  project: string | null;
  language: string | null;
  /** The figures the rule compared, as exact decimal strings where they are counts. */
  figures: Record<string, string | number | null>;
  /** Where in Weblate to act on it; null when the mirror does not know the instance's URL. */
  url: string | null;
  /** When the data the event was decided from was synced (the last succeeded sync's end). */
  dataAsOf: string | null;
}

/** What sending to one channel reports; a failure carries one line saying what to check. */
export type SendResult = { ok: true } | { ok: false; error: string; retryable: boolean };

/** A digest as every channel may send it: built once (src/watch/digest/), rendered for each kind. */
export interface RenderedDigest {
  /** Stable and unique: `digest/<day|week>/<first day of the period>`; receivers dedupe on it. */
  key: string;
  every: 'day' | 'week';
  /** The period's first and last UTC day, inclusive (YYYY-MM-DD). */
  from: string;
  to: string;
  /** The e-mail subject and the first line of every other form. */
  subject: string;
  text: string;
  html: string;
  /** Slack Block Kit blocks. */
  blocks: unknown[];
  /** The JSON document of `digest --format json` and the generic webhook's `digest` field. */
  document: Record<string, unknown>;
}

/** A message for a channel: an alert event, or a digest. */
export type WatchMessage =
  { kind: 'event'; event: WatchEvent } | { kind: 'digest'; digest: RenderedDigest };

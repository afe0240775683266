import type { RuleType, WatchRule } from './model.ts';

// Pure: from what a rule reads (src/db/queries/watch-conditions.ts) to the conditions that
// hold now, each under its stable alert key. A key names the rule and the subject, never a
// figure, so a condition that holds across syncs keeps its key.

export interface Condition {
  /** `<rule>/<project>/<language>`, `<rule>/<project>/<period start>` or `<rule>`. */
  key: string;
  rule: string;
  ruleType: RuleType;
  project: string | null;
  language: string | null;
  /** One line for people, naming the subject and the figure. */
  title: string;
  /** The line of the resolution, when the condition ends. */
  resolvedTitle: string;
  figures: Record<string, string | number | null>;
  url: string | null;
}

/** What the database said for one rule, in the shape its type reads. */
export type RuleInput =
  | {
      type: 'stalled';
      rows: Array<
        Subject & { untranslated: string; idle_since: string | null; days_idle: number | null }
      >;
    }
  | { type: 'readiness'; rows: Array<Subject & { done: string; total: string; percent: string }> }
  | {
      type: 'review-waiting';
      rows: Array<Subject & { waiting: string; waiting_longer: string; oldest_days: number }>;
    }
  | {
      type: 'new-source-words';
      rows: Array<{
        project_slug: string;
        period_start: string;
        strings_added: string;
        words_added: string;
      }>;
    }
  | {
      type: 'failing-checks';
      rows: Array<Subject & { failing_then: string; failing_now: string; then_day: string }>;
    }
  | {
      type: 'mirror-stale';
      lastSuccess: string | null;
      minutesSince: number | null;
      recent: string[];
    };

interface Subject {
  project_slug: string;
  language_code: string;
  language_name: string | null;
}

/** Compares two exact decimal strings (non-negative, as the figures are). */
export function compareDecimal(a: string, b: string): number {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const ia = ai.replace(/^0+(?=\d)/, '');
  const ib = bi.replace(/^0+(?=\d)/, '');
  if (ia.length !== ib.length) return ia.length < ib.length ? -1 : 1;
  if (ia !== ib) return ia < ib ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const fa = af.padEnd(width, '0');
  const fb = bf.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

function projectLanguageUrl(root: string | null, project: string, language: string): string | null {
  return root === null
    ? null
    : `${root}projects/${encodeURIComponent(project)}/-/${encodeURIComponent(language)}/`;
}

function label(row: Subject): string {
  return `${row.project_slug} / ${row.language_name ?? row.language_code} (${row.language_code})`;
}

/** The conditions of `rule` that hold, given its input; `root` is the instance's web root. */
export function conditionsOf(rule: WatchRule, input: RuleInput, root: string | null): Condition[] {
  const base = { rule: rule.name, ruleType: rule.type };
  const perLanguage = (row: Subject) => ({
    ...base,
    key: `${rule.name}/${row.project_slug}/${row.language_code}`,
    project: row.project_slug,
    language: row.language_code,
    url: projectLanguageUrl(root, row.project_slug, row.language_code),
  });
  if (rule.type === 'stalled' && input.type === 'stalled') {
    return input.rows
      .filter((r) => r.days_idle === null || r.days_idle >= rule.days)
      .map((r) => ({
        ...perLanguage(r),
        title: `${label(r)} stalled: no translating for ${r.days_idle ?? '?'} days, ${r.untranslated} strings left`,
        resolvedTitle: `${label(r)} moves again (was stalled)`,
        figures: {
          days_idle: r.days_idle,
          idle_since: r.idle_since,
          untranslated: r.untranslated,
          days: rule.days,
        },
      }));
  }
  if (rule.type === 'readiness' && input.type === 'readiness') {
    const what = `${rule.basis} ${rule.by}`;
    return input.rows
      .filter((r) => compareDecimal(r.percent, String(rule.level)) >= 0)
      .map((r) => ({
        ...perLanguage(r),
        title: `${label(r)} reached ${rule.level} %: ${r.percent} % ${what}`,
        resolvedTitle: `${label(r)} fell below ${rule.level} % ${what}`,
        figures: {
          percent: r.percent,
          done: r.done,
          total: r.total,
          level: rule.level,
          basis: rule.basis,
          by: rule.by,
        },
      }));
  }
  if (rule.type === 'review-waiting' && input.type === 'review-waiting') {
    return input.rows
      .filter((r) => BigInt(r.waiting_longer) > 0n)
      .map((r) => ({
        ...perLanguage(r),
        title: `${label(r)}: ${r.waiting_longer} strings waiting for review longer than ${rule.days} days (oldest ${r.oldest_days})`,
        resolvedTitle: `${label(r)}: no string waits for review longer than ${rule.days} days`,
        figures: {
          waiting: r.waiting,
          waiting_longer: r.waiting_longer,
          oldest_days: r.oldest_days,
          days: rule.days,
        },
      }));
  }
  if (rule.type === 'new-source-words' && input.type === 'new-source-words') {
    return input.rows
      .filter((r) => compareDecimal(r.words_added, String(rule.words)) > 0)
      .map((r) => ({
        ...base,
        key: `${rule.name}/${r.project_slug}/${r.period_start}`,
        project: r.project_slug,
        language: null,
        url: root === null ? null : `${root}projects/${encodeURIComponent(r.project_slug)}/`,
        title: `${r.project_slug}: ${r.words_added} new source words (${r.strings_added} strings) this ${rule.per}, more than ${rule.words}`,
        resolvedTitle: `${r.project_slug}: the ${rule.per} from ${r.period_start} ended`,
        figures: {
          words_added: r.words_added,
          strings_added: r.strings_added,
          period_start: r.period_start,
          per: rule.per,
          words: rule.words,
        },
      }));
  }
  if (rule.type === 'failing-checks' && input.type === 'failing-checks') {
    return input.rows
      .filter((r) => BigInt(r.failing_now) - BigInt(r.failing_then) > BigInt(rule.by))
      .map((r) => ({
        ...perLanguage(r),
        title: `${label(r)}: failing checks rose from ${r.failing_then} to ${r.failing_now} strings since ${r.then_day}`,
        resolvedTitle: `${label(r)}: failing checks no longer rising by more than ${rule.by} over ${rule.days} days`,
        figures: {
          failing_then: r.failing_then,
          failing_now: r.failing_now,
          then_day: r.then_day,
          by: rule.by,
          days: rule.days,
        },
      }));
  }
  if (rule.type === 'mirror-stale' && input.type === 'mirror-stale') {
    const stale = input.minutesSince === null || input.minutesSince >= rule.minutes;
    const failing =
      input.recent.length >= rule.failedRuns &&
      input.recent.slice(0, rule.failedRuns).every((s) => s === 'failed');
    if (!stale && !failing) return [];
    const why = [
      stale
        ? input.lastSuccess === null
          ? 'no successful sync yet'
          : `no successful sync for ${input.minutesSince} minutes`
        : null,
      failing ? `the last ${rule.failedRuns} runs failed` : null,
    ].filter((x) => x !== null);
    return [
      {
        ...base,
        key: rule.name,
        project: null,
        language: null,
        url: null,
        title: `the mirror is stale: ${why.join(', and ')}`,
        resolvedTitle: 'the mirror is fresh again: a sync succeeded',
        figures: {
          last_success: input.lastSuccess,
          minutes_since: input.minutesSince,
          minutes: rule.minutes,
          failed_runs: rule.failedRuns,
        },
      },
    ];
  }
  throw new Error(`rule ${rule.name} (${rule.type}) was given ${input.type} input`);
}

/** An alert as the warehouse holds it (weblate.watch_alerts). */
export interface StoredAlert {
  key: string;
  rule: string;
  firing: boolean;
  generation: number;
}

export interface Transitions<A extends StoredAlert = StoredAlert> {
  /** Conditions that started: each fires an event (generation: the alert's new generation). */
  fire: Array<{ condition: Condition; generation: number }>;
  /** Alerts whose condition ended: each resolves. */
  resolve: Array<{ alert: A }>;
  /** Conditions recorded without an event: a rule's first look (its baseline). */
  baseline: Condition[];
  /** Conditions still holding, whose figures are refreshed without an event. */
  holding: Condition[];
}

/**
 * Pure: what changes between the alerts stored for the evaluated rules and the conditions
 * that hold now. A rule seen for the first time records what holds as its baseline, without
 * events: the mirror cannot say when those conditions started, and a new rule over a large
 * instance must not flood its channels (docs/watching.md). mirror-stale has no baseline.
 */
export function decideTransitions<A extends StoredAlert>(
  conditions: readonly Condition[],
  stored: readonly A[],
  evaluatedRules: ReadonlySet<string>,
  firstLook: ReadonlySet<string>,
): Transitions<A> {
  const byKey = new Map(stored.map((a) => [a.key, a]));
  const holdingKeys = new Set(conditions.map((c) => c.key));
  const out: Transitions<A> = { fire: [], resolve: [], baseline: [], holding: [] };
  for (const condition of conditions) {
    const alert = byKey.get(condition.key);
    if (alert?.firing === true) out.holding.push(condition);
    else if (firstLook.has(condition.rule) && condition.ruleType !== 'mirror-stale')
      out.baseline.push(condition);
    else out.fire.push({ condition, generation: (alert?.generation ?? 0) + 1 });
  }
  for (const alert of stored)
    if (alert.firing && evaluatedRules.has(alert.rule) && !holdingKeys.has(alert.key))
      out.resolve.push({ alert });
  return out;
}

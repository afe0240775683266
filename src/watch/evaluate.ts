import { type Kysely, sql } from 'kysely';

import { LOCK_NAMESPACE, lockKey } from '../db/advisory-lock.ts';
import type { DbHandle } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import { lastSucceededSyncAt } from '../db/queries/sync-runs.ts';
import {
  insertEvent,
  listStoredAlerts,
  readEvaluations,
  recordEvaluations,
  refreshAlertFigures,
  resolveAlert,
  upsertFiringAlert,
} from '../db/queries/watch-alerts.ts';
import {
  type ConditionFilter,
  readFailingGrowth,
  readIdleness,
  readInstanceRoot,
  readMirrorFreshness,
  readNewSourceWords,
  readProjectLanguagePercents,
  readReviewWaiting,
} from '../db/queries/watch-conditions.ts';
import { toUtcMicros } from '../lib/timestamps.ts';
import type { Logger } from '../logger.ts';
import { resolveCategory, resolveLabel } from '../report/resolve-scope.ts';
import { type Condition, conditionsOf, decideTransitions, type RuleInput } from './conditions.ts';
import type { WatchConfig, WatchEvent, WatchRule } from './model.ts';

// After a sync, the rules whose inputs moved are evaluated in one transaction, under one lock
// across processes: what started fires, what ended resolves, each as an event with a unique key
// and a pending delivery per channel (src/watch/outbox.ts sends them). docs/watching.md.

export const EVALUATE_LOCK = 'watch:evaluate';

export interface EvaluationResult {
  evaluated: string[];
  fired: number;
  resolved: number;
  baseline: number;
}

/** Pure: the rules to evaluate now, given when each was last evaluated. */
export function rulesDue(
  rules: readonly WatchRule[],
  evaluations: ReadonlyArray<{ rule: string; today: boolean; changed_since: boolean }>,
  options: { force: boolean },
): WatchRule[] {
  const last = new Map(evaluations.map((e) => [e.rule, e]));
  return rules.filter((rule) => {
    if (options.force || rule.type === 'mirror-stale') return true;
    const seen = last.get(rule.name);
    // A rule in days also moves with the calendar: once a day even when no sync wrote.
    return seen === undefined || seen.changed_since || !seen.today;
  });
}

/** The rule's scope as the condition reads take it; labels and categories looked up by name. */
async function filterOf(db: Kysely<Database>, rule: WatchRule): Promise<ConditionFilter> {
  const { scope } = rule;
  const projects = new Set(scope.projects ?? []);
  const components: string[] = [];
  for (const component of scope.components ?? []) {
    const [project = '', slug = ''] = component.split('/');
    projects.add(project);
    components.push(slug);
  }
  for (const name of scope.categories ?? []) {
    const category = await resolveCategory(db, name, [...(scope.projects ?? [])]);
    projects.add(category.project);
    components.push(...category.components);
  }
  let labelIds: number[] | null = null;
  for (const name of scope.labels ?? []) {
    const label = await resolveLabel(db, name, [...(scope.projects ?? [])]);
    labelIds = [...(labelIds ?? []), ...label.ids];
  }
  const hasComponents = (scope.components ?? []).length + (scope.categories ?? []).length > 0;
  return {
    projects: [...projects],
    components: hasComponents ? components : null,
    languages: scope.languages ?? null,
    labelIds,
  };
}

async function readInput(db: Kysely<Database>, rule: WatchRule, at: string): Promise<RuleInput> {
  if (rule.type === 'mirror-stale')
    return { type: rule.type, ...(await readMirrorFreshness(db, rule.failedRuns, at)) };
  const filter = await filterOf(db, rule);
  switch (rule.type) {
    case 'stalled':
      return { type: rule.type, rows: await readIdleness(db, filter, at) };
    case 'readiness':
      return { type: rule.type, rows: await readProjectLanguagePercents(db, filter, rule) };
    case 'review-waiting':
      return { type: rule.type, rows: await readReviewWaiting(db, filter, rule.days, at) };
    case 'new-source-words':
      return { type: rule.type, rows: await readNewSourceWords(db, filter, rule.per, at) };
    case 'failing-checks':
      return { type: rule.type, rows: await readFailingGrowth(db, filter, rule.days, at) };
  }
}

/** Pure: the event a transition sends. */
export function eventOf(
  condition: Pick<
    Condition,
    'key' | 'rule' | 'ruleType' | 'project' | 'language' | 'figures' | 'url'
  > & {
    title: string;
  },
  type: 'fired' | 'resolved',
  generation: number,
  occurredAt: string,
  dataAsOf: string | null,
): WatchEvent {
  return {
    key: `${condition.key}#${generation}/${type}`,
    alertKey: condition.key,
    type,
    rule: condition.rule,
    ruleType: condition.ruleType,
    occurredAt,
    title: condition.title,
    project: condition.project,
    language: condition.language,
    figures: condition.figures,
    url: condition.url,
    dataAsOf,
  };
}

/**
 * Evaluates the rules that are due and records what changed. `force` evaluates every rule (the
 * first evaluation after a start, and tests); `runId` is the run whose end led here.
 */
export async function evaluateWatch(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  config: WatchConfig,
  options: { runId?: number | null; force?: boolean; log: Logger; now?: () => Date },
): Promise<EvaluationResult> {
  const result: EvaluationResult = { evaluated: [], fired: 0, resolved: 0, baseline: 0 };
  if (config.rules.length === 0) return result;
  // One connection: the lock is the transaction's, released with it.
  return handle.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}::int4, ${lockKey(EVALUATE_LOCK)}::int4)`.execute(
      trx,
    );
    // One instant for the whole evaluation: every age and period is taken at it.
    const at = toUtcMicros((options.now?.() ?? new Date()).toISOString());
    const evaluations = await readEvaluations(trx, at);
    const due = rulesDue(config.rules, evaluations, { force: options.force ?? false });
    if (due.length === 0) return result;
    const seen = new Set(evaluations.map((e) => e.rule));
    const root = await readInstanceRoot(trx);
    const conditions: Condition[] = [];
    const evaluated = new Set<string>();
    for (const rule of due) {
      try {
        conditions.push(...conditionsOf(rule, await readInput(trx, rule, at), root));
        evaluated.add(rule.name);
      } catch (err) {
        // A scope naming a category or label the mirror no longer has: the rule waits.
        options.log.warn(
          { rule: rule.name, line: rule.line },
          `watch rule ${rule.name} not evaluated: ${(err as Error).message}`,
        );
      }
    }
    const firstLook = new Set([...evaluated].filter((name) => !seen.has(name)));
    const stored = await listStoredAlerts(trx);
    const t = decideTransitions(conditions, stored, evaluated, firstLook);
    const occurredAt = at;
    const dataAsOf = await lastSucceededSyncAt(trx);
    const channelsOf = new Map(
      config.rules.map((r) => [r.name, r.channels ?? config.channels.map((c) => c.name)]),
    );
    const runId = options.runId ?? null;
    for (const { condition, generation } of t.fire) {
      await upsertFiringAlert(trx, condition, generation);
      const event = eventOf(condition, 'fired', generation, occurredAt, dataAsOf);
      if (await insertEvent(trx, event, runId, channelsOf.get(condition.rule) ?? []))
        result.fired += 1;
    }
    for (const { alert } of t.resolve) {
      await resolveAlert(trx, alert.key);
      const event = eventOf(
        { ...alert, title: alert.resolvedTitle },
        'resolved',
        alert.generation,
        occurredAt,
        dataAsOf,
      );
      if (await insertEvent(trx, event, runId, channelsOf.get(alert.rule) ?? []))
        result.resolved += 1;
    }
    for (const condition of t.baseline) await upsertFiringAlert(trx, condition, 0);
    for (const condition of t.holding) await refreshAlertFigures(trx, condition);
    result.baseline = t.baseline.length;
    result.evaluated = [...evaluated];
    await recordEvaluations(trx, result.evaluated, runId, at);
    return result;
  });
}

import { type Kysely, sql } from 'kysely';

import type { Condition, StoredAlert } from '../../watch/conditions.ts';
import type { WatchEvent } from '../../watch/model.ts';
import type { Database } from '../database.ts';

// The watch's state in the warehouse (migration 0022): alerts, their events, each event's
// delivery to each channel, digests claimed and sent, and when each rule was last evaluated.
// An event's key is unique: inserting it again does nothing, which is what keeps a replayed
// evaluation, a restart or a second replica from sending it twice.

const ISO = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** An alert as stored, with what its resolution event says. */
export interface AlertRow extends StoredAlert, Omit<Condition, 'title'> {
  title: string;
}

export async function listStoredAlerts(db: Kysely<Database>): Promise<AlertRow[]> {
  const { rows } = await sql<AlertRow>`
    select key, rule, rule_type as "ruleType", project_slug as project, language_code as language,
           firing, generation, title, resolved_title as "resolvedTitle", url, figures
    from weblate.watch_alerts order by key`.execute(db);
  return rows;
}

/** When each rule was last evaluated, and whether a run wrote rows since (its inputs moved). */
export async function readEvaluations(
  db: Kysely<Database>,
  at: string,
): Promise<Array<{ rule: string; evaluated_at: string; today: boolean; changed_since: boolean }>> {
  const { rows } = await sql<{
    rule: string;
    evaluated_at: string;
    today: boolean;
    changed_since: boolean;
  }>`
    select e.rule, ${ISO('e.evaluated_at')} as evaluated_at,
           (e.evaluated_at at time zone 'UTC')::date = (${at}::timestamptz at time zone 'UTC')::date as today,
           exists (select from weblate.sync_runs r
                   where r.finished_at > coalesce(e.runs_seen_until, '-infinity') and r.rows_written > 0)
             as changed_since
    from weblate.watch_evaluations e`.execute(db);
  return rows;
}

export async function recordEvaluations(
  db: Kysely<Database>,
  rules: readonly string[],
  runId: number | null,
  at: string,
): Promise<void> {
  if (rules.length === 0) return;
  await sql`
    insert into weblate.watch_evaluations (rule, evaluated_at, runs_seen_until, run_id)
    select r, ${at}::timestamptz, (select max(finished_at) from weblate.sync_runs), ${runId}::integer
    from unnest(${rules}::text[]) r
    on conflict (rule) do update set evaluated_at = excluded.evaluated_at,
      runs_seen_until = excluded.runs_seen_until, run_id = excluded.run_id`.execute(db);
}

/** Records the condition as a firing alert (generation 0 for a baseline, without an event). */
export async function upsertFiringAlert(
  db: Kysely<Database>,
  condition: Condition,
  generation: number,
): Promise<void> {
  await sql`
    insert into weblate.watch_alerts (key, rule, rule_type, project_slug, language_code, firing,
      generation, fired_at, resolved_at, title, resolved_title, url, figures, updated_at)
    values (${condition.key}, ${condition.rule}, ${condition.ruleType}, ${condition.project},
      ${condition.language}, true, ${generation}, now(), null, ${condition.title},
      ${condition.resolvedTitle}, ${condition.url}, ${JSON.stringify(condition.figures)}::jsonb, now())
    on conflict (key) do update set firing = true, generation = excluded.generation,
      fired_at = excluded.fired_at, resolved_at = null, title = excluded.title,
      resolved_title = excluded.resolved_title, url = excluded.url, figures = excluded.figures,
      updated_at = now()`.execute(db);
}

/** A holding condition's figures, refreshed without an event. */
export async function refreshAlertFigures(
  db: Kysely<Database>,
  condition: Condition,
): Promise<void> {
  await sql`
    update weblate.watch_alerts set figures = ${JSON.stringify(condition.figures)}::jsonb,
      title = ${condition.title}, updated_at = now()
    where key = ${condition.key} and figures is distinct from ${JSON.stringify(condition.figures)}::jsonb`.execute(
    db,
  );
}

export async function resolveAlert(db: Kysely<Database>, key: string): Promise<void> {
  await sql`
    update weblate.watch_alerts set firing = false, resolved_at = now(), updated_at = now()
    where key = ${key}`.execute(db);
}

/**
 * Inserts the event and a pending delivery per channel; returns false (and inserts nothing)
 * when an event of that key exists already.
 */
export async function insertEvent(
  db: Kysely<Database>,
  event: WatchEvent,
  runId: number | null,
  channels: readonly string[],
): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    insert into weblate.watch_events (key, alert_key, type, occurred_at, run_id, payload)
    values (${event.key}, ${event.alertKey}, ${event.type}, ${event.occurredAt}::timestamptz,
      ${runId}::integer, ${JSON.stringify(event)}::jsonb)
    on conflict (key) do nothing
    returning id::text`.execute(db);
  const id = rows[0]?.id;
  if (id === undefined) return false;
  if (channels.length > 0)
    await sql`
      insert into weblate.watch_deliveries (event_id, channel)
      select ${id}::bigint, c from unnest(${channels}::text[]) c`.execute(db);
  return true;
}

export interface PendingDelivery {
  event_id: string;
  event: WatchEvent;
  attempts: number;
  /** Whether its next attempt is due (no backoff pending). */
  due: boolean;
}

/** The oldest undelivered events of a channel, in the order they happened. */
export async function listPendingDeliveries(
  db: Kysely<Database>,
  channel: string,
  limit: number,
): Promise<PendingDelivery[]> {
  const { rows } = await sql<PendingDelivery>`
    select d.event_id::text as event_id, e.payload as event, d.attempts,
           (d.next_attempt_at is null or d.next_attempt_at <= now()) as due
    from weblate.watch_deliveries d
    join weblate.watch_events e on e.id = d.event_id
    where d.channel = ${channel} and d.delivered_at is null
    order by d.event_id
    limit ${limit}`.execute(db);
  return rows;
}

export async function markDelivered(
  db: Kysely<Database>,
  channel: string,
  eventId: string,
): Promise<void> {
  await sql`
    update weblate.watch_deliveries set delivered_at = now(), attempts = attempts + 1, last_error = null,
      next_attempt_at = null
    where channel = ${channel} and event_id = ${eventId}::bigint`.execute(db);
}

export async function markFailed(
  db: Kysely<Database>,
  channel: string,
  eventId: string,
  error: string,
  retryInSeconds: number,
): Promise<void> {
  await sql`
    update weblate.watch_deliveries set attempts = attempts + 1, last_error = ${error},
      next_attempt_at = now() + make_interval(secs => ${retryInSeconds})
    where channel = ${channel} and event_id = ${eventId}::bigint`.execute(db);
}

/** Claims a digest for a channel and period; false when it was claimed (sent or sending) before. */
export async function claimDigest(
  db: Kysely<Database>,
  digest: { channel: string; key: string; every: string; from: string; to: string },
): Promise<boolean> {
  const { rows } = await sql<{ key: string }>`
    insert into weblate.watch_digests (channel, key, every, period_from, period_to)
    values (${digest.channel}, ${digest.key}, ${digest.every}, ${digest.from}::date, ${digest.to}::date)
    on conflict (channel, key) do nothing
    returning key`.execute(db);
  return rows.length > 0;
}

/** Digests claimed but not delivered (a channel was down): sent again, in order. */
export async function listUndeliveredDigests(
  db: Kysely<Database>,
  channel: string,
): Promise<
  Array<{ key: string; every: 'day' | 'week'; from: string; to: string; attempts: number }>
> {
  const { rows } = await sql<{
    key: string;
    every: 'day' | 'week';
    from: string;
    to: string;
    attempts: number;
  }>`
    select key, every, period_from::text as from, period_to::text as to, attempts
    from weblate.watch_digests
    where channel = ${channel} and delivered_at is null
    order by period_from, key`.execute(db);
  return rows;
}

export async function markDigest(
  db: Kysely<Database>,
  channel: string,
  key: string,
  error: string | null,
): Promise<void> {
  await sql`
    update weblate.watch_digests set attempts = attempts + 1, last_error = ${error},
      delivered_at = case when ${error}::text is null then now() end
    where channel = ${channel} and key = ${key}`.execute(db);
}

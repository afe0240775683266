import { type Kysely, sql } from 'kysely';

// Watching (docs/watching.md): the alerts the rules found, each firing and resolution as an
// event with a stable key, each event's delivery to each channel, and each digest sent. The
// unique keys are what make an event fire once and a digest go out once, whatever restarts,
// replays or replicas do. Frozen once merged; add a new migration.

const UP: readonly string[] = [
  `create table weblate.watch_alerts (
    key text primary key,
    rule text not null,
    rule_type text not null,
    project_slug text,
    language_code text,
    firing boolean not null,
    generation integer not null,
    fired_at timestamptz not null,
    resolved_at timestamptz,
    title text not null,
    resolved_title text not null,
    url text,
    figures jsonb not null,
    updated_at timestamptz not null default now()
  )`,
  `create table weblate.watch_events (
    id bigint generated always as identity primary key,
    key text not null unique,
    alert_key text not null references weblate.watch_alerts (key) on delete cascade,
    type text not null check (type in ('fired', 'resolved')),
    occurred_at timestamptz not null,
    run_id integer references weblate.sync_runs (id) on delete set null,
    payload jsonb not null
  )`,
  `create index watch_events_alert_idx on weblate.watch_events (alert_key, id)`,
  `create table weblate.watch_deliveries (
    event_id bigint not null references weblate.watch_events (id) on delete cascade,
    channel text not null,
    delivered_at timestamptz,
    attempts integer not null default 0,
    next_attempt_at timestamptz,
    last_error text,
    primary key (channel, event_id)
  )`,
  `create index watch_deliveries_pending_idx on weblate.watch_deliveries (channel, event_id) where delivered_at is null`,
  `create table weblate.watch_digests (
    channel text not null,
    key text not null,
    every text not null check (every in ('day', 'week')),
    period_from date not null,
    period_to date not null,
    claimed_at timestamptz not null default now(),
    delivered_at timestamptz,
    attempts integer not null default 0,
    last_error text,
    primary key (channel, key)
  )`,
  `create table weblate.watch_evaluations (
    rule text primary key,
    evaluated_at timestamptz not null,
    runs_seen_until timestamptz,
    run_id integer references weblate.sync_runs (id) on delete set null
  )`,
];

const DOWN: readonly string[] = [
  'drop table if exists weblate.watch_evaluations',
  'drop table if exists weblate.watch_digests',
  'drop table if exists weblate.watch_deliveries',
  'drop table if exists weblate.watch_events',
  'drop table if exists weblate.watch_alerts',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

import { measuredDaily } from './0003_add_reporting_views.ts';
import {
  ARGUMENT_TYPES,
  createFunction,
  type Figure,
  grantReader,
  SUMMARIES,
  type Summary,
} from './0005_add_progress_functions.ts';

// Progress history before the first statistics snapshot, estimated from the change log
// (`weblate-mirror backfill`, docs/history.md). Estimates live in a table of their own (a
// row for each day an estimate moved, holding until the next) and reach the daily views
// only for the days before a translation's first snapshot, with
// `origin` = 'estimated'; a measured day always wins. The daily summaries gain `origin`
// ('estimated' when any translation of the group is) and `estimated_translations`.
// Frozen once merged; add a new migration.

/** A UTC day; views must not depend on the session's time zone. */
const DAY_OF = (column: string) => `(${column} at time zone 'UTC')::date`;

/** Where every translation of the group has a failing count (estimates have none). */
const ALL_FAILING_KNOWN = 'count(x.failing) = count(x.translation_id)';

/**
 * What changes in a daily summary: failing checks are unknown (null) on a day when any of
 * its translations is estimated, rather than summed from the others; and two new figures
 * say how much of the group is estimated.
 */
export const ORIGIN_FIGURES: readonly Figure[] = [
  {
    name: 'failing',
    type: 'bigint',
    sum: `case when ${ALL_FAILING_KNOWN} then coalesce(sum(x.failing), 0)::bigint end`,
  },
  {
    name: 'failing_percent',
    type: 'numeric',
    sum: `case when ${ALL_FAILING_KNOWN} then weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0)) end`,
  },
  {
    name: 'estimated_translations',
    type: 'bigint',
    sum: `count(x.translation_id) filter (where x.origin = 'estimated')`,
  },
  {
    name: 'origin',
    type: 'text',
    sum: `case when bool_or(x.origin = 'estimated') then 'estimated' else 'measured' end`,
  },
];

const DAILY_SUMMARIES: readonly Summary[] = SUMMARIES.filter((s) => s.source === 'daily');

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table weblate.translation_progress_estimated (
      translation_id integer not null,
      day date not null,
      total integer not null,
      total_words integer,
      translated integer not null,
      translated_words integer,
      fuzzy integer not null,
      fuzzy_words integer,
      approved integer not null,
      approved_words integer,
      anchored_at timestamptz not null,
      built_at timestamptz not null default now(),
      primary key (translation_id, day)
    )`.execute(db);
  await sql`comment on table weblate.translation_progress_estimated is
    'Progress at the end of a UTC day before a translation''s first statistics snapshot (anchored_at), holding until the next row, estimated from the change log by weblate-mirror backfill: never a measurement (docs/history.md).'`.execute(
    db,
  );
  await dropDailySummaries(db);
  await sql`create or replace view weblate.translation_progress_daily as ${dailyWithEstimates()}`.execute(
    db,
  );
  for (const summary of DAILY_SUMMARIES) {
    await createFunction(db, summary, ORIGIN_FIGURES);
    await createView(db, summary);
  }
  await grantReader(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropDailySummaries(db);
  // create or replace cannot take a column away.
  await sql`drop view weblate.translation_progress_daily`.execute(db);
  await sql`create view weblate.translation_progress_daily as ${measuredDaily()}`.execute(db);
  for (const summary of DAILY_SUMMARIES) {
    await createFunction(db, summary);
    await createView(db, summary);
  }
  await grantReader(db);
  await sql`drop table weblate.translation_progress_estimated`.execute(db);
}

/** The daily summaries' views and functions, whose columns change here. */
async function dropDailySummaries(db: Kysely<unknown>): Promise<void> {
  for (const { fn, view } of DAILY_SUMMARIES) {
    if (view !== null) await sql`drop view ${sql.table(`weblate.${view}`)}`.execute(db);
    await sql`drop function ${sql.raw(`weblate.${fn}${ARGUMENT_TYPES}`)}`.execute(db);
  }
}

async function createView(db: Kysely<unknown>, summary: Summary): Promise<void> {
  if (summary.view === null) return;
  await sql`create view ${sql.table(`weblate.${summary.view}`)} as
    select * from ${sql.raw(`weblate.${summary.fn}()`)}`.execute(db);
}

/**
 * translation_progress_daily: the measured days of 0003, then the estimated ones up to the
 * day before a translation's first snapshot (0014 replaces it; its down restores this).
 */
export function dailyWithEstimates() {
  return sql`
    select m.*, 'measured'::text as origin from (${measuredDaily()}) m
    union all
    select g.day::date as day,
           t.id as translation_id,
           c.project_id,
           p.slug as project_slug,
           c.id as component_id,
           c.slug as component_slug,
           t.language_code,
           e.total,
           e.total_words,
           e.translated,
           e.translated_words,
           weblate.truncated_percent(e.translated, e.total, true) as translated_percent,
           weblate.truncated_percent(e.translated_words, e.total_words, true) as translated_words_percent,
           e.fuzzy,
           e.fuzzy_words,
           weblate.truncated_percent(e.fuzzy, e.total) as fuzzy_percent,
           e.approved,
           e.approved_words,
           weblate.truncated_percent(e.approved, e.total) as approved_percent,
           null::integer as failing,
           null::numeric as failing_percent,
           e.total - e.translated as untranslated,
           e.total_words - e.translated_words as untranslated_words,
           null::timestamptz as captured_at,
           'estimated'::text as origin
    from (
      select e.*,
             lead(e.day) over (partition by e.translation_id order by e.day) as next_day,
             (select ${sql.raw(DAY_OF('min(s.captured_at)'))} from weblate.translation_statistics s
              where s.translation_id = e.translation_id) as measured_from
      from weblate.translation_progress_estimated e
    ) e
    join weblate.translations t on t.id = e.translation_id
    join weblate.components c on c.id = t.component_id
    join weblate.projects p on p.id = c.project_id
    -- A row holds until the next one; a measured day always wins, so estimates stop the day
    -- before the first snapshot. (least() ignores nulls.)
    cross join lateral generate_series(
      e.day::timestamp,
      (least(e.next_day, e.measured_from) - 1)::timestamp,
      interval '1 day'
    ) as g(day)
    where t.is_source is not true`;
}

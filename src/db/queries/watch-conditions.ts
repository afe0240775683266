import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { Database } from '../database.ts';
import { readInstance } from './instances.ts';
import { componentsArgument, projectsArgument, type ReportFilter } from './report-scope.ts';

// What each watch rule compares, read from the functions that define each figure (docs/metrics.md):
// one row per project and language (per project and period for new source words), with the
// figures as exact decimal strings. src/watch/conditions.ts decides what holds. Ages are taken
// at `at`, the evaluation's instant, rather than the database's now().

/** A rule's scope as the functions take it, with languages as a list. */
export interface ConditionFilter extends Pick<ReportFilter, 'projects' | 'components'> {
  languages: readonly string[] | null;
  /** Ids of the labels whose strings the figures count (readiness only); null: all strings. */
  labelIds: readonly number[] | null;
}

export interface ProjectLanguageRow {
  project_slug: string;
  language_code: string;
  language_name: string | null;
}

function languageCondition(column: string, filter: ConditionFilter): RawBuilder<unknown> {
  return filter.languages === null || filter.languages.length === 0
    ? sql`true`
    : sql`${sql.ref(column)} in (${sql.join(filter.languages.map((l) => sql`${l}`))})`;
}

/** Per project and language with strings left: when translating last moved, and what is left. */
export async function readIdleness(
  db: Kysely<Database>,
  filter: ConditionFilter,
  at: string,
): Promise<
  Array<
    ProjectLanguageRow & {
      untranslated: string;
      idle_since: string | null;
      days_idle: number | null;
    }
  >
> {
  const { rows } = await sql<
    ProjectLanguageRow & {
      untranslated: string;
      idle_since: string | null;
      days_idle: number | null;
    }
  >`
    select i.project_slug, i.language_code, min(l.name) as language_name,
           sum(i.untranslated)::text as untranslated,
           to_char(max(i.idle_since) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as idle_since,
           floor(extract(epoch from ${at}::timestamptz - max(i.idle_since)) / 86400)::integer as days_idle
    from weblate.idle_translations(${projectsArgument(filter)}, null, ${componentsArgument(filter)}) i
    left join weblate.languages l on l.code = i.language_code
    where ${languageCondition('i.language_code', filter)}
    group by i.project_slug, i.language_code
    order by i.project_slug, i.language_code`.execute(db);
  return rows;
}

export interface PercentRow extends ProjectLanguageRow {
  done: string;
  total: string;
  /** weblate.truncated_percent of the sums: the metric's own definition. */
  percent: string;
}

/** Per project and language: translated or approved strings or words, and their percent. */
export async function readProjectLanguagePercents(
  db: Kysely<Database>,
  filter: ConditionFilter,
  options: { basis: 'translated' | 'approved'; by: 'strings' | 'words' },
): Promise<PercentRow[]> {
  const words = options.by === 'words';
  const done = sql.ref(`x.${options.basis}${words ? '_words' : ''}`);
  const total = sql.ref(words ? 'x.total_words' : 'x.total');
  // Translated percentages treat a group without strings as complete, approved ones do not
  // (translated_percent and approved_percent in docs/metrics.md).
  const zeroComplete = options.basis === 'translated';
  const source =
    filter.labelIds === null
      ? sql`(select x.project_slug, x.language_code, x.language_name, x.component_slug, x.total,
                    x.total_words, x.translated, x.translated_words, x.approved, x.approved_words
             from weblate.translation_progress x)`
      : sql`(select x.project_slug, x.language_code, null::text as language_name, null::text as component_slug,
                    x.total, x.total_words, x.translated, x.translated_words, x.approved, x.approved_words
             from weblate.progress_by_label(${projectsArgument(filter)}, null, ${componentsArgument(filter)}) x
             where x.label_id in (${sql.join(filter.labelIds.map((id) => sql`${id}`))}))`;
  const { rows } = await sql<PercentRow>`
    select x.project_slug, x.language_code, coalesce(min(x.language_name), min(l.name)) as language_name,
           coalesce(sum(${done}), 0)::text as done, coalesce(sum(${total}), 0)::text as total,
           weblate.truncated_percent(coalesce(sum(${done}), 0), coalesce(sum(${total}), 0), ${zeroComplete})::text as percent
    from ${source} x
    left join weblate.languages l on l.code = x.language_code
    where (${projectsArgument(filter)} is null or x.project_slug = any(${projectsArgument(filter)}))
      and (${componentsArgument(filter)} is null or x.component_slug is null
           or x.component_slug = any(${componentsArgument(filter)}))
      and ${languageCondition('x.language_code', filter)}
    group by x.project_slug, x.language_code
    order by x.project_slug, x.language_code`.execute(db);
  return rows;
}

/** Per project and language: strings awaiting review, and how long the oldest has waited. */
export async function readReviewWaiting(
  db: Kysely<Database>,
  filter: ConditionFilter,
  olderThanDays: number,
  at: string,
): Promise<
  Array<ProjectLanguageRow & { waiting: string; waiting_longer: string; oldest_days: number }>
> {
  const { rows } = await sql<
    ProjectLanguageRow & { waiting: string; waiting_longer: string; oldest_days: number }
  >`
    select r.project_slug, r.language_code, min(l.name) as language_name,
           count(*)::text as waiting,
           count(*) filter (where r.waiting_since < ${at}::timestamptz - make_interval(days => ${olderThanDays}))::text as waiting_longer,
           floor(extract(epoch from ${at}::timestamptz - min(r.waiting_since)) / 86400)::integer as oldest_days
    from weblate.strings_awaiting_review(${projectsArgument(filter)}, ${componentsArgument(filter)}, null) r
    left join weblate.languages l on l.code = r.language_code
    where ${languageCondition('r.language_code', filter)}
    group by r.project_slug, r.language_code
    order by r.project_slug, r.language_code`.execute(db);
  return rows;
}

/** Per project: source strings and words added in the current day or ISO week (UTC). */
export async function readNewSourceWords(
  db: Kysely<Database>,
  filter: ConditionFilter,
  per: 'day' | 'week',
  at: string,
): Promise<
  Array<{ project_slug: string; period_start: string; strings_added: string; words_added: string }>
> {
  const { rows } = await sql<{
    project_slug: string;
    period_start: string;
    strings_added: string;
    words_added: string;
  }>`
    select s.project_slug, s.period_start::text as period_start,
           sum(s.strings_added)::text as strings_added, sum(s.words_added)::text as words_added
    from weblate.source_string_changes(${per}, ${projectsArgument(filter)}, ${componentsArgument(filter)},
      since => date_trunc(${per}, ${at}::timestamptz at time zone 'UTC') at time zone 'UTC') s
    group by s.project_slug, s.period_start
    order by s.project_slug, s.period_start`.execute(db);
  return rows;
}

/**
 * Per project and language: strings with failing checks now and on the UTC day `days` before
 * today (the measured statistics span holding that day), over translations known on both.
 */
export async function readFailingGrowth(
  db: Kysely<Database>,
  filter: ConditionFilter,
  days: number,
  at: string,
): Promise<
  Array<ProjectLanguageRow & { failing_then: string; failing_now: string; then_day: string }>
> {
  const { rows } = await sql<
    ProjectLanguageRow & { failing_then: string; failing_now: string; then_day: string }
  >`
    with then_day as (select (${at}::timestamptz at time zone 'UTC')::date - ${days}::integer as day),
    then_spans as (
      select s.translation_id, s.failing
      from weblate.translation_progress_spans(${projectsArgument(filter)}, null, ${componentsArgument(filter)}) s, then_day d
      where s.origin = 'measured' and s.first_day <= d.day and (s.last_day is null or s.last_day >= d.day)
    )
    select x.project_slug, x.language_code, min(x.language_name) as language_name,
           sum(t.failing)::text as failing_then, sum(x.failing)::text as failing_now,
           (select day::text from then_day) as then_day
    from weblate.translation_progress x
    join then_spans t on t.translation_id = x.translation_id
    where ${languageCondition('x.language_code', filter)}
    group by x.project_slug, x.language_code
    order by x.project_slug, x.language_code`.execute(db);
  return rows;
}

/** The mirror's own freshness: its last success and the newest ended runs. */
export async function readMirrorFreshness(
  db: Kysely<Database>,
  recentRuns: number,
  at: string,
): Promise<{ lastSuccess: string | null; minutesSince: number | null; recent: string[] }> {
  const { rows } = await sql<{ last_success: string | null; minutes: number | null }>`
    select to_char(f.last_success at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_success,
           floor(extract(epoch from ${at}::timestamptz - f.last_success) / 60)::integer as minutes
    from weblate.sync_freshness f`.execute(db);
  const runs = await sql<{ status: string }>`
    select status from weblate.sync_runs where status <> 'running'
    order by id desc limit ${recentRuns}`.execute(db);
  return {
    lastSuccess: rows[0]?.last_success ?? null,
    minutesSince: rows[0]?.minutes ?? null,
    recent: runs.rows.map((r) => r.status),
  };
}

/** The instance root the mirror holds (for links into Weblate), or null. */
export async function readInstanceRoot(db: Kysely<Database>): Promise<string | null> {
  const instance = await readInstance(db);
  // The recorded root is the API's (…/api/); links go to the instance's pages.
  return instance === null ? null : instance.api_root.replace(/api\/?$/, '');
}

import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import { answerArguments, WHOLE_WINDOW } from './report-answers.ts';
import {
  type DayRange,
  filterConditions,
  iso,
  progressArguments,
  type ReportFilter,
} from './report-scope.ts';

// Movement, activity and people (see report-scope.ts).

export interface MoverRow {
  project_slug: string;
  component_slug: string;
  language_code: string;
  from_day: string;
  from_origin: 'measured' | 'estimated';
  translated_percent_then: string | null;
  translated_percent_now: string | null;
  translated_percent_change: string | null;
  translated_words_before: number | null;
  translated_words_now: number | null;
  translated_words_change: number | null;
  matching: string;
}

export interface ContributorSectionRow {
  author_name: string;
  credited_changes: string;
  credited_words: string;
  languages: string[];
  last_day: string;
  matching: string;
}

export interface ActivityDayRow {
  day: string;
  changes: string;
  words_translated: string;
  authors: string;
}

export interface ActivityTotalRow {
  changes: string;
  words_translated: string;
  words_translated_without_author: string;
}

export interface ActivityDailyRow {
  day: string;
  project_slug: string;
  component_slug: string | null;
  language_code: string | null;
  author_name: string | null;
  action: number;
  action_name: string | null;
  changes: string;
  words: string;
}

export interface ContributorRow {
  author_name: string;
  language_code: string;
  changes_7d: string;
  changes_30d: string;
  changes_365d: string;
  words_7d: string;
  words_30d: string;
  words_365d: string;
  first_contribution: string;
  last_contribution: string;
}

/** The columns of activity_daily that a filter narrows. */
const ACTIVITY_COLUMNS = {
  project: 'a.project_slug',
  language: 'a.language_code',
  component: 'a.component_slug',
  day: 'a.day',
} as const;

/**
 * Translations whose translated strings or words moved between the end of `baselineDay`
 * and `today` (translation_progress_spans), biggest percentage change first. A translation
 * the history does not reach back to `baselineDay` for is compared with its earliest day
 * (`from_day`). `matching` is the number of movers before the limit.
 */
export async function listMovers(
  db: Kysely<Database>,
  filter: ReportFilter,
  window: { baselineDay: string; today: string; limit: number },
): Promise<MoverRow[]> {
  // Spans (migration 0014) rather than translation_progress_daily: the window's days of
  // every translation are never made, only the spans that hold on the baseline and today.
  const result = await sql<MoverRow>`
    with spans as materialized (
      select s.*, weblate.truncated_percent(s.translated, s.total, true) as translated_percent
      from weblate.translation_progress_spans(${progressArguments(filter)}) s
      where s.first_day <= ${window.today}::date and s.last_day >= ${window.baselineDay}::date
    ), now_rows as (
      select s.* from spans s where ${window.today}::date between s.first_day and s.last_day
    ), base as (
      select distinct on (s.translation_id) s.*,
             greatest(s.first_day, ${window.baselineDay}::date) as day
      from spans s
      order by s.translation_id, s.first_day
    )
    select n.project_slug, n.component_slug, n.language_code, b.day::text as from_day,
           b.origin as from_origin,
           b.translated_percent as translated_percent_then,
           n.translated_percent as translated_percent_now,
           n.translated_percent - b.translated_percent as translated_percent_change,
           b.translated_words as translated_words_before,
           n.translated_words as translated_words_now,
           n.translated_words - b.translated_words as translated_words_change,
           count(*) over () as matching
    from now_rows n
    join base b on b.translation_id = n.translation_id
    where n.translated is distinct from b.translated
       or n.translated_words is distinct from b.translated_words
       or n.total is distinct from b.total
    order by abs(n.translated_percent - b.translated_percent) desc nulls last,
             abs(n.translated_words - b.translated_words) desc nulls last,
             n.project_slug, n.component_slug, n.language_code
    limit ${window.limit}`.execute(db);
  return result.rows;
}

/**
 * People as Weblate credits them over the filter's days: content changes and their source
 * words (contributions, whole window, each language's figures summed), most changes first;
 * the last day each was active at all (activity_daily).
 */
export async function listContributorSection(
  db: Kysely<Database>,
  filter: ReportFilter & DayRange,
  limit: number,
): Promise<ContributorSectionRow[]> {
  const args = answerArguments(filter, { window: filter });
  const result = await sql<ContributorSectionRow>`
    with people as (
      select c.username as author_name, sum(c.content_changes)::bigint as credited_changes,
             sum(c.content_words)::bigint as credited_words,
             coalesce(jsonb_agg(c.language_code order by c.language_code)
                        filter (where c.language_code is not null and c.content_changes > 0),
                      '[]'::jsonb) as languages
      from weblate.contributions(${WHOLE_WINDOW}, ${args}) c
      where c.scope = 'language'
      group by c.username
      having sum(c.content_changes) > 0
    ), last_days as (
      select a.author_name, max(a.day)::text as last_day
      from weblate.activity_daily a
      where a.author_name is not null ${filterConditions(filter, ACTIVITY_COLUMNS)}
      group by a.author_name
    )
    select p.*, d.last_day, count(*) over () as matching
    from people p
    left join last_days d using (author_name)
    order by p.credited_changes desc, p.credited_words desc, p.author_name
    limit ${limit}`.execute(db);
  return result.rows;
}

/** Changes, words translated and distinct authors per day of the filter with any change. */
export async function listActivityDays(
  db: Kysely<Database>,
  filter: ReportFilter,
): Promise<ActivityDayRow[]> {
  const result = await sql<ActivityDayRow>`
    select a.day::text as day, sum(a.changes)::bigint as changes,
           sum(a.words)::bigint as words_translated,
           count(distinct a.author_name) as authors
    from weblate.activity_daily a
    where true ${filterConditions(filter, ACTIVITY_COLUMNS)}
    group by a.day
    order by a.day`.execute(db);
  return result.rows;
}

/**
 * Changes and words translated over all the days of the filter together, and the words of
 * the changes without an author (credited to nobody in the people's figures).
 */
export async function readActivityTotal(
  db: Kysely<Database>,
  filter: ReportFilter,
): Promise<ActivityTotalRow> {
  const result = await sql<ActivityTotalRow>`
    select coalesce(sum(a.changes), 0)::bigint as changes,
           coalesce(sum(a.words), 0)::bigint as words_translated,
           coalesce(sum(a.words) filter (where a.author_name is null), 0)::bigint
             as words_translated_without_author
    from weblate.activity_daily a
    where true ${filterConditions(filter, ACTIVITY_COLUMNS)}`.execute(db);
  return result.rows[0]!;
}

/** Changes (and words translated) per UTC day, project, component, language, author and action. */
export async function listActivityDaily(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ActivityDailyRow[]> {
  const result = await sql<ActivityDailyRow>`
    select a.day::text as day, a.project_slug, a.component_slug, a.language_code, a.author_name,
           a.action, a.action_name, a.changes, a.words
    from weblate.activity_daily a
    where true ${filterConditions(filter, ACTIVITY_COLUMNS)}
    order by a.day, a.project_slug, a.component_slug, a.language_code, a.author_name, a.action`.execute(
    db,
  );
  return result.rows;
}

/** Contributors per language (the view has no project), most words translated in the last 30 days first. */
export async function listContributors(
  db: Kysely<Database>,
  filter: ReportFilter = {},
): Promise<ContributorRow[]> {
  const result = await sql<ContributorRow>`
    select c.author_name, c.language_code, c.changes_7d, c.changes_30d, c.changes_365d,
           c.words_7d, c.words_30d, c.words_365d,
           ${iso(sql`c.first_contribution`)} as first_contribution,
           ${iso(sql`c.last_contribution`)} as last_contribution
    from weblate.contributors c
    where true ${filterConditions(filter, { language: 'c.language_code' })}
    order by c.words_30d desc, c.author_name, c.language_code`.execute(db);
  return result.rows;
}

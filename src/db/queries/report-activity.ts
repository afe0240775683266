import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import {
  type DayRange,
  iso,
  languageFilter,
  projectFilter,
  type ReportScope,
} from './report-scope.ts';

// Movement and people sections of `weblate-mirror report` (see report-scope.ts).

export interface MoverRow {
  project_slug: string;
  component_slug: string;
  language_code: string;
  from_day: string;
  translated_percent_before: string | null;
  translated_percent_now: string | null;
  translated_percent_change: string | null;
  translated_words_before: number | null;
  translated_words_now: number | null;
  translated_words_change: number | null;
  matching: string;
}

export interface ContributorSectionRow {
  author_name: string;
  changes: string;
  words: string;
  languages: string[];
  last_day: string;
  matching: string;
}

export interface StalledSectionRow {
  project_slug: string;
  component_slug: string;
  language_code: string;
  total: number | null;
  untranslated: number | null;
  untranslated_words: number | null;
  translated_percent: string | null;
  idle_since: string;
  days_since_last_change: number;
  last_author: string | null;
  matching: string;
}

export interface ActivityDayRow {
  day: string;
  changes: string;
  words: string;
  authors: string;
}

/**
 * Translations whose translated strings or words moved between the end of `baselineDay`
 * and `today` (translation_progress_daily), biggest percentage change first. A translation
 * the history does not reach back to `baselineDay` for is compared with its earliest day
 * (`from_day`). `matching` is the number of movers before the limit.
 */
export async function listMovers(
  db: Kysely<Database>,
  scope: ReportScope,
  window: { baselineDay: string; today: string; limit: number },
): Promise<MoverRow[]> {
  const filters = sql`${projectFilter(scope, 'd.project_slug')} ${languageFilter(scope, 'd.language_code')}`;
  const result = await sql<MoverRow>`
    with now_rows as (
      select d.* from weblate.translation_progress_daily d
      where d.day = ${window.today}::date ${filters}
    ), base as (
      select distinct on (d.translation_id) d.*
      from weblate.translation_progress_daily d
      where d.day between ${window.baselineDay}::date and ${window.today}::date ${filters}
      order by d.translation_id, d.day
    )
    select n.project_slug, n.component_slug, n.language_code, b.day::text as from_day,
           b.translated_percent as translated_percent_before,
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
 * Authors by words translated, then changes, over the days of `range` (activity_daily;
 * every change with an author counts, project-level ones too).
 */
export async function listContributorSection(
  db: Kysely<Database>,
  scope: ReportScope,
  range: DayRange & { limit: number },
): Promise<ContributorSectionRow[]> {
  const result = await sql<ContributorSectionRow>`
    select a.author_name,
           sum(a.changes)::bigint as changes,
           sum(a.words)::bigint as words,
           coalesce(jsonb_agg(distinct a.language_code order by a.language_code)
                      filter (where a.language_code is not null), '[]'::jsonb) as languages,
           max(a.day)::text as last_day,
           count(*) over () as matching
    from weblate.activity_daily a
    where a.author_name is not null
      and a.day between ${range.from}::date and ${range.to}::date
      ${projectFilter(scope, 'a.project_slug')} ${languageFilter(scope, 'a.language_code')}
    group by a.author_name
    order by words desc, changes desc, a.author_name
    limit ${range.limit}`.execute(db);
  return result.rows;
}

/**
 * Live translations with strings left and no change since `since` began (UTC),
 * longest idle first (stalled_translations).
 */
export async function listStalledSection(
  db: Kysely<Database>,
  scope: ReportScope,
  options: { since: string; limit: number },
): Promise<StalledSectionRow[]> {
  const result = await sql<StalledSectionRow>`
    select s.project_slug, s.component_slug, s.language_code, s.total, s.untranslated,
           s.untranslated_words, s.translated_percent, ${iso(sql`s.idle_since`)} as idle_since,
           s.days_since_last_change, s.last_author,
           count(*) over () as matching
    from weblate.stalled_translations s
    where s.idle_since < (${options.since}::date)::timestamp at time zone 'UTC'
      ${projectFilter(scope, 's.project_slug')} ${languageFilter(scope, 's.language_code')}
    order by s.idle_since, s.untranslated_words desc nulls last, s.translation_id
    limit ${options.limit}`.execute(db);
  return result.rows;
}

/** Changes, words translated and distinct authors per day of `range` with any change. */
export async function listActivityDays(
  db: Kysely<Database>,
  scope: ReportScope,
  range: DayRange,
): Promise<ActivityDayRow[]> {
  const result = await sql<ActivityDayRow>`
    select a.day::text as day, sum(a.changes)::bigint as changes, sum(a.words)::bigint as words,
           count(distinct a.author_name) as authors
    from weblate.activity_daily a
    where a.day between ${range.from}::date and ${range.to}::date
      ${projectFilter(scope, 'a.project_slug')} ${languageFilter(scope, 'a.language_code')}
    group by a.day
    order by a.day`.execute(db);
  return result.rows;
}

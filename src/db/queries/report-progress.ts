import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import {
  type DayRange,
  iso,
  languageFilter,
  projectFilter,
  type ReportScope,
} from './report-scope.ts';

// Progress sections of `weblate-mirror report` (see report-scope.ts): sums with the
// views' own expressions, so that a report narrowed to projects or a language stays
// consistent with the unfiltered views.

/** Summed progress figures of a group of translations. */
export interface SummedProgressRow {
  translations: string;
  total: string;
  translated: string;
  translated_percent: string | null;
  total_words: string;
  translated_words: string;
  translated_words_percent: string | null;
  fuzzy: string;
  approved: string;
  failing: string;
  untranslated: string;
  untranslated_words: string;
  last_change: string | null;
}

export interface ProjectSectionRow extends SummedProgressRow {
  project_slug: string;
  project_name: string;
  components: string;
}

export interface ComponentSectionRow extends SummedProgressRow {
  project_slug: string;
  component_slug: string;
  component_name: string;
}

export interface LanguageSectionRow extends SummedProgressRow {
  language_code: string;
  language_name: string | null;
  projects: string;
  components: string;
}

export interface LanguageDayRow {
  day: string;
  language_code: string;
  translations: string;
  total: string;
  translated: string;
  translated_percent: string | null;
  total_words: string;
  translated_words: string;
  translated_words_percent: string | null;
}

/** The progress views' sums over rows of translation_progress named `x`. */
const SUMMED = sql`
  count(x.translation_id)::bigint as translations,
  coalesce(sum(x.total), 0)::bigint as total,
  coalesce(sum(x.translated), 0)::bigint as translated,
  weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true)
    as translated_percent,
  coalesce(sum(x.total_words), 0)::bigint as total_words,
  coalesce(sum(x.translated_words), 0)::bigint as translated_words,
  weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true)
    as translated_words_percent,
  coalesce(sum(x.fuzzy), 0)::bigint as fuzzy,
  coalesce(sum(x.approved), 0)::bigint as approved,
  coalesce(sum(x.failing), 0)::bigint as failing,
  coalesce(sum(x.untranslated), 0)::bigint as untranslated,
  coalesce(sum(x.untranslated_words), 0)::bigint as untranslated_words,
  ${iso(sql`max(x.last_change)`)} as last_change`;

/**
 * Current progress per live project, as project_progress. With a language, only projects
 * that have a translation into it, with that translation's figures.
 */
export async function listProjectSection(
  db: Kysely<Database>,
  scope: ReportScope,
): Promise<ProjectSectionRow[]> {
  const result = await sql<ProjectSectionRow>`
    select p.slug as project_slug, p.name as project_name,
           (select count(*) from weblate.components c
            where c.project_id = p.id and c.deleted_at is null) as components,
           ${SUMMED}
    from weblate.projects p
    left join weblate.translation_progress x on x.project_id = p.id
      ${languageFilter(scope, 'x.language_code')}
    where p.deleted_at is null ${projectFilter(scope, 'p.slug')}
    group by p.id
    ${scope.language === null ? sql`` : sql`having count(x.translation_id) > 0`}
    order by p.slug`.execute(db);
  return result.rows;
}

/** Current progress per live component, as component_progress (narrowed like projects). */
export async function listComponentSection(
  db: Kysely<Database>,
  scope: ReportScope,
): Promise<ComponentSectionRow[]> {
  const result = await sql<ComponentSectionRow>`
    select p.slug as project_slug, c.slug as component_slug, c.name as component_name,
           ${SUMMED}
    from weblate.components c
    join weblate.projects p on p.id = c.project_id
    left join weblate.translation_progress x on x.component_id = c.id
      ${languageFilter(scope, 'x.language_code')}
    where c.deleted_at is null and p.deleted_at is null ${projectFilter(scope, 'p.slug')}
    group by c.id, p.id
    ${scope.language === null ? sql`` : sql`having count(x.translation_id) > 0`}
    order by p.slug, c.slug`.execute(db);
  return result.rows;
}

/** Current progress per language over the projects in scope, as language_progress. */
export async function listLanguageSection(
  db: Kysely<Database>,
  scope: ReportScope,
): Promise<LanguageSectionRow[]> {
  const result = await sql<LanguageSectionRow>`
    select x.language_code, min(x.language_name) as language_name,
           count(distinct x.project_id) as projects,
           count(distinct x.component_id) as components,
           ${SUMMED}
    from weblate.translation_progress x
    where true ${projectFilter(scope, 'x.project_slug')} ${languageFilter(scope, 'x.language_code')}
    group by x.language_code
    order by x.language_code`.execute(db);
  return result.rows;
}

/**
 * Each language's progress at the end of each day of `range`: language_progress_daily,
 * or the same sums over the projects in scope when it names projects.
 */
export async function listLanguageDays(
  db: Kysely<Database>,
  scope: ReportScope,
  range: DayRange,
): Promise<LanguageDayRow[]> {
  const source =
    scope.projects.length === 0
      ? sql`weblate.language_progress_daily x`
      : sql`(
          select d.day, d.language_code,
                 count(d.translation_id)::bigint as translations,
                 coalesce(sum(d.total), 0)::bigint as total,
                 coalesce(sum(d.translated), 0)::bigint as translated,
                 weblate.truncated_percent(coalesce(sum(d.translated), 0), coalesce(sum(d.total), 0), true)
                   as translated_percent,
                 coalesce(sum(d.total_words), 0)::bigint as total_words,
                 coalesce(sum(d.translated_words), 0)::bigint as translated_words,
                 weblate.truncated_percent(coalesce(sum(d.translated_words), 0),
                                           coalesce(sum(d.total_words), 0), true)
                   as translated_words_percent
          from weblate.translation_progress_daily d
          where true ${projectFilter(scope, 'd.project_slug')}
          group by d.day, d.language_code
        ) x`;
  const result = await sql<LanguageDayRow>`
    select x.day::text as day, x.language_code, x.translations, x.total, x.translated,
           x.translated_percent, x.total_words, x.translated_words, x.translated_words_percent
    from ${source}
    where x.day between ${range.from}::date and ${range.to}::date
      ${languageFilter(scope, 'x.language_code')}
    order by x.language_code, x.day`.execute(db);
  return result.rows;
}

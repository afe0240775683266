import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import { answerArguments, type PeriodUnit, WHOLE_WINDOW } from './report-answers.ts';
import type { DayRange, ReportFilter } from './report-scope.ts';

// Who and what made the work of a window: new source text, contributors ranked, and how
// translations were made (see report-scope.ts for the types of the figures).

export interface NewWorkRow {
  period_start: string;
  strings_added: string;
  words_added: string;
  strings_removed: string;
  words_removed: string;
}

export interface ContributorRankRow {
  rank: string;
  username: string;
  /** The person's full name where the server showed it (weblate.users), else null. */
  full_name: string | null;
  strings_translated: string;
  words_translated: string;
  strings_approved: string;
  words_approved: string;
  strings_suggested: string;
  comments: string;
  languages: string[];
  matching: string;
}

export interface TranslationMethodRow {
  period_start: string;
  method: string;
  strings_saved: string;
  words_saved: string;
}

/**
 * Source strings and words added and removed per period over the projects in scope
 * (source_string_changes summed); a language filter does not apply to source strings.
 */
export async function listNewWork(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { window: DayRange; period: PeriodUnit },
): Promise<NewWorkRow[]> {
  const args = answerArguments(filter, { window: options.window, hasLanguage: false });
  const result = await sql<NewWorkRow>`
    select s.period_start::text as period_start,
           sum(s.strings_added)::bigint as strings_added, sum(s.words_added)::bigint as words_added,
           sum(s.strings_removed)::bigint as strings_removed,
           sum(s.words_removed)::bigint as words_removed
    from weblate.source_string_changes(${options.period}, ${args}) s
    group by s.period_start
    order by s.period_start`.execute(db);
  return result.rows;
}

/**
 * People ranked by words, then strings translated over the whole window (contributions,
 * each language's figures summed: a string belongs to one language, so nothing counts
 * twice); `matching` is the number of people before the limit.
 */
export async function listContributorRanking(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { window: DayRange; limit: number },
): Promise<ContributorRankRow[]> {
  const args = answerArguments(filter, { window: options.window });
  const result = await sql<ContributorRankRow>`
    with people as (
      select c.username,
             sum(c.strings_translated)::bigint as strings_translated,
             sum(c.words_translated)::bigint as words_translated,
             sum(c.strings_approved)::bigint as strings_approved,
             sum(c.words_approved)::bigint as words_approved,
             sum(c.strings_suggested)::bigint as strings_suggested,
             sum(c.comments)::bigint as comments,
             coalesce(
               array_agg(c.language_code order by c.language_code)
                 filter (where c.language_code is not null),
               '{}'
             ) as languages
      from weblate.contributions(${WHOLE_WINDOW}, ${args}) c
      where c.scope = 'language'
      group by c.username
    )
    select rank() over (order by p.words_translated desc, p.strings_translated desc) as rank,
           p.*, u.full_name, count(*) over () as matching
    from people p
    left join weblate.users u on u.username = p.username and u.full_name <> ''
    order by p.words_translated desc, p.strings_translated desc, p.username
    limit ${options.limit}`.execute(db);
  return result.rows;
}

/** Changes that saved a target and their words, per period and method (translation_methods summed). */
export async function listTranslationMethods(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { window: DayRange; period: PeriodUnit },
): Promise<TranslationMethodRow[]> {
  const args = answerArguments(filter, { window: options.window });
  const result = await sql<TranslationMethodRow>`
    select m.period_start::text as period_start, m.method,
           sum(m.strings)::bigint as strings_saved, sum(m.words)::bigint as words_saved
    from weblate.translation_methods(${options.period}, ${args}) m
    group by m.period_start, m.method
    order by m.period_start, m.method`.execute(db);
  return result.rows;
}

import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { Database } from '../database.ts';
import type { SummedDayProgress } from './report-progress.ts';
import { type DayRange, progressArguments, type ReportFilter } from './report-scope.ts';

// Labels for the report (see report-scope.ts): progress per label and language from
// weblate.progress_by_label of migration 0012 (the strings that carry the label, on
// themselves or on their source string), their recorded history from
// progress_by_label_daily, and, for --label, the figures of the chosen labels summed per
// language, per day, and together. Sums and percentages are SQL's, as everywhere else.

/** Which labels: their ids, or null for every label. */
export type LabelIds = readonly number[] | null;

/** A live label of a live project. */
export interface LabelNameRow {
  label_id: number;
  label_name: string;
  project_slug: string;
}

export interface LabelProgressRow {
  label_id: number;
  label_name: string;
  project_slug: string;
  language_code: string;
  translations: string;
  total: string;
  total_words: string;
  translated: string;
  translated_words: string;
  translated_percent: string | null;
  translated_words_percent: string | null;
  fuzzy: string;
  approved: string;
  approved_percent: string | null;
  failing: string;
  untranslated: string;
  untranslated_words: string;
  /** First day of the window with recorded history (null: none recorded in the window). */
  history_from_day: string | null;
  translated_percent_then: string | null;
  translated_percent_change: string | null;
}

export interface LabelLanguageRow extends SummedDayProgress {
  language_code: string;
  language_name: string | null;
  projects: string;
}

export interface LabelLanguageDayRow extends SummedDayProgress {
  day: string;
  language_code: string;
}

const COUNTS = [
  'translations',
  'total',
  'total_words',
  'translated',
  'translated_words',
  'fuzzy',
  'fuzzy_words',
  'approved',
  'approved_words',
  'failing',
  'untranslated',
  'untranslated_words',
] as const;

/** [percentage, part, whole, whether a group without strings is complete], as the views compute them. */
const PERCENTAGES = [
  ['translated_percent', 'translated', 'total', true],
  ['translated_words_percent', 'translated_words', 'total_words', true],
  ['fuzzy_percent', 'fuzzy', 'total', false],
  ['approved_percent', 'approved', 'total', false],
  ['failing_percent', 'failing', 'total', false],
] as const;

function summed(name: string): RawBuilder<unknown> {
  return sql`coalesce(sum(${sql.ref(`f.${name}`)}), 0)::bigint`;
}

/** Counts of the label functions summed over rows `f`, then Weblate's percentages of them. */
const SUMMED_FIGURES = sql.join([
  ...COUNTS.map((name) => sql`${summed(name)} as ${sql.ref(name)}`),
  ...PERCENTAGES.map(
    ([name, part, whole, isZeroComplete]) =>
      sql`weblate.truncated_percent(${summed(part)}, ${summed(whole)}, ${sql.lit(isZeroComplete)}) as ${sql.ref(name)}`,
  ),
]);

/** Rows `f` of progress_by_label_daily: each label's figures per language and recorded day. */
function dailyRows(filter: ReportFilter, window: DayRange): RawBuilder<unknown> {
  return sql`(
    select * from weblate.progress_by_label_daily(${progressArguments(filter)}) d
    where d.day between ${window.from}::date and ${window.to}::date
  ) f`;
}

function labelCondition(ids: LabelIds): RawBuilder<unknown> {
  if (ids === null) return sql`true`;
  if (ids.length === 0) return sql`false`;
  return sql`f.label_id in (${sql.join(ids.map((id) => sql`${id}`))})`;
}

/** Every live label of the live projects among `projects` (all when empty). */
export async function listLabelNames(
  db: Kysely<Database>,
  projects: readonly string[],
): Promise<LabelNameRow[]> {
  const only =
    projects.length === 0
      ? sql`true`
      : sql`l.project_slug in (${sql.join(projects.map((p) => sql`${p}`))})`;
  const result = await sql<LabelNameRow>`
    select l.id as label_id, l.name as label_name, l.project_slug
    from weblate.labels l
    join weblate.projects p on p.id = l.project_id and p.deleted_at is null
    where l.deleted_at is null and ${only}
    order by l.project_slug, lower(l.name), l.id`.execute(db);
  return result.rows;
}

/**
 * Each label's progress per language over the translations in the filter, with its
 * translated % on the window's first day of recorded history (history starts with the
 * first sync that records label statistics; a day without a row is not recorded).
 */
export async function listLabelProgress(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { labels: LabelIds; window: DayRange },
): Promise<LabelProgressRow[]> {
  const result = await sql<LabelProgressRow>`
    with first_day as (
      select distinct on (f.label_id, f.language_code) f.label_id, f.language_code, f.day,
             f.translated_percent
      from ${dailyRows(filter, options.window)}
      order by f.label_id, f.language_code, f.day
    )
    select f.label_id, f.label_name, f.project_slug, f.language_code, f.translations, f.total,
           f.total_words, f.translated, f.translated_words, f.translated_percent,
           f.translated_words_percent, f.fuzzy, f.approved, f.approved_percent, f.failing,
           f.untranslated, f.untranslated_words, t.day::text as history_from_day,
           t.translated_percent as translated_percent_then,
           f.translated_percent - t.translated_percent as translated_percent_change
    from weblate.progress_by_label(${progressArguments(filter)}) f
    left join first_day t on t.label_id = f.label_id and t.language_code = f.language_code
    where ${labelCondition(options.labels)}
    order by f.project_slug, lower(f.label_name), f.label_id, f.language_code`.execute(db);
  return result.rows;
}

/**
 * The chosen labels' figures per language, summed over the labels (a string carrying two
 * of them counts for each).
 */
export async function listLabelLanguageProgress(
  db: Kysely<Database>,
  filter: ReportFilter,
  labels: LabelIds,
): Promise<LabelLanguageRow[]> {
  const result = await sql<LabelLanguageRow>`
    select f.language_code, max(l.name) as language_name,
           count(distinct f.project_id) as projects, ${SUMMED_FIGURES}
    from weblate.progress_by_label(${progressArguments(filter)}) f
    left join weblate.languages l on l.code = f.language_code
    where ${labelCondition(labels)}
    group by f.language_code
    order by f.language_code`.execute(db);
  return result.rows;
}

/** The chosen labels' figures over every language together: one row (zeros when none). */
export async function readLabelTotal(
  db: Kysely<Database>,
  filter: ReportFilter,
  labels: LabelIds,
): Promise<SummedDayProgress> {
  const result = await sql<SummedDayProgress>`
    select ${SUMMED_FIGURES}
    from weblate.progress_by_label(${progressArguments(filter)}) f
    where ${labelCondition(labels)}`.execute(db);
  return result.rows[0]!;
}

/** The chosen labels' figures per language at the end of each recorded day of the window. */
export async function listLabelLanguageDaily(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { labels: LabelIds; window: DayRange },
): Promise<LabelLanguageDayRow[]> {
  const result = await sql<LabelLanguageDayRow>`
    select f.day::text as day, f.language_code, ${SUMMED_FIGURES}
    from ${dailyRows(filter, options.window)}
    where ${labelCondition(options.labels)}
    group by f.day, f.language_code
    order by f.language_code, f.day`.execute(db);
  return result.rows;
}

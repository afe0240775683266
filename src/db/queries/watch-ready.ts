import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { ReadyBasis, ReadyUnit } from '../../watch/model.ts';
import type { Database } from '../database.ts';
import { progressArguments, type ReportFilter } from './report-scope.ts';

// The figures of `ready` and the badges (docs/watching.md): each language's translated or
// approved percentage of strings or words over a scope, as the progress functions of
// migrations 0005 and 0012 sum and truncate them (weblate.truncated_percent). Nothing is
// summed or rounded here; percentages come back as exact decimal strings.

/** Which part of the mirror: a ReportFilter, and the ids of the labels --label matched. */
export interface ReadyFilter extends ReportFilter {
  /** Only the strings that carry these labels; null for every string. */
  labels?: readonly number[] | null;
}

/** What counts as done, and what is counted. */
export interface ReadyMeasure {
  basis: ReadyBasis;
  by: ReadyUnit;
}

/** One language's figure over the scope. */
export interface LanguageReadinessRow {
  code: string;
  name: string | null;
  /** The metric's value: translated_percent, approved_percent or their words forms. */
  percent: string;
  /** Strings (or source words) in the scope, and those done. */
  total: string;
  done: string;
}

/** [part, whole, whether a group without strings is complete], as the progress functions take them. */
function measureColumns(measure: ReadyMeasure): [string, string, boolean] {
  const whole = measure.by === 'words' ? 'total_words' : 'total';
  const part = `${measure.basis}${measure.by === 'words' ? '_words' : ''}`;
  return [part, whole, measure.basis === 'translated'];
}

/** Per-language sums of the filter's strings: progress_by_language, or progress_by_label's summed. */
function languageSums(filter: ReadyFilter): RawBuilder<unknown> {
  const labels = filter.labels ?? null;
  if (labels === null)
    return sql`(select f.language_code, f.language_name, f.total, f.total_words, f.translated,
                       f.translated_words, f.approved, f.approved_words
                from weblate.progress_by_language(${progressArguments(filter)}) f) s`;
  const only =
    labels.length === 0
      ? sql`false`
      : sql`f.label_id in (${sql.join(labels.map((id) => sql`${id}`))})`;
  // A string that carries two of the labels counts for each, as the report's --label sums.
  return sql`(select f.language_code, max(l.name) as language_name,
                     sum(f.total) as total, sum(f.total_words) as total_words,
                     sum(f.translated) as translated, sum(f.translated_words) as translated_words,
                     sum(f.approved) as approved, sum(f.approved_words) as approved_words
              from weblate.progress_by_label(${progressArguments(filter)}) f
              left join weblate.languages l on l.code = f.language_code
              where ${only}
              group by f.language_code) s`;
}

/**
 * Each language with a live translation in the filter, with the measure's percentage
 * (Weblate's truncation), its whole and its done count; ordered by code.
 */
export async function listLanguageReadiness(
  db: Kysely<Database>,
  filter: ReadyFilter,
  measure: ReadyMeasure,
): Promise<LanguageReadinessRow[]> {
  const [part, whole, isZeroComplete] = measureColumns(measure);
  const result = await sql<LanguageReadinessRow>`
    select s.language_code as code, s.language_name as name,
           weblate.truncated_percent(${sql.ref(`s.${part}`)}, ${sql.ref(`s.${whole}`)},
             ${sql.lit(isZeroComplete)})::text as percent,
           ${sql.ref(`s.${whole}`)}::text as total, ${sql.ref(`s.${part}`)}::text as done
    from ${languageSums(filter)}
    order by s.language_code`.execute(db);
  return result.rows;
}

/** A live project with its translated % over its live translations (null: it has none). */
export interface ProjectPercentRow {
  slug: string;
  name: string;
  percent: string | null;
}

/** Every live project's translated_percent, as progress_by_project gives it; ordered by slug. */
export async function listProjectPercents(db: Kysely<Database>): Promise<ProjectPercentRow[]> {
  const result = await sql<ProjectPercentRow>`
    select p.slug, p.name, f.translated_percent::text as percent
    from weblate.projects p
    left join weblate.progress_by_project(null::text[], null::text, null::text[]) f
      on f.project_id = p.id
    where p.deleted_at is null
    order by p.slug`.execute(db);
  return result.rows;
}

/** Every language code the mirror knows (as a language or in a translation), sorted. */
export async function listKnownLanguageCodes(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{ code: string }>`
    select code from weblate.languages
    union
    select language_code from weblate.translations
    order by 1`.execute(db);
  return result.rows.map((r) => r.code);
}

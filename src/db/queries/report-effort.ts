import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import { answerArguments, WHOLE_WINDOW } from './report-answers.ts';
import { type DayRange, iso, type ReportFilter } from './report-scope.ts';

// The effort sections: translator work, the remaining cost, machine translation and time in
// each state (migrations 0018–0020, docs/schema.md). Figures come back as decimal strings.

/** Weblate's translator work figures: user-days and strings and source words a day. */
export interface TranslatorWorkFigures {
  user_days_included: string;
  user_days_excluded: string;
  strings_median: string | null;
  strings_mean: string | null;
  strings_p75: string | null;
  strings_p90: string | null;
  words_median: string | null;
  words_mean: string | null;
  words_p75: string | null;
  words_p90: string | null;
}

export interface TranslatorWorkRow extends TranslatorWorkFigures {
  translators: string;
  authors_unverified: string;
}

export interface TranslatorWorkPersonRow extends TranslatorWorkFigures {
  username: string;
  matching: string;
}

/** The rates of the cost estimate, in percent of the base rate, by Weblate's bucket slugs. */
export interface CostRates {
  repetition: number;
  tm_100: number;
  tm_fuzzy: number;
  needs_editing: number;
  new: number;
}

export interface CostOptions {
  base_rate: number;
  /** Quality from which a memory match counts as fuzzy (Weblate's default: 80). */
  tm_threshold: number;
  rates: CostRates;
}

/** Weblate's cost estimate form's defaults. */
export const DEFAULT_COST: CostOptions = {
  base_rate: 1,
  tm_threshold: 80,
  rates: { repetition: 0, tm_100: 0, tm_fuzzy: 50, needs_editing: 50, new: 100 },
};

export interface CostBucketRow {
  bucket: string;
  estimate_strings: string;
  estimate_words: string;
  estimate_chars: string;
  rate: string;
  cost: string;
  approximate: boolean;
  approximation: string | null;
}

export interface MachineTranslationRow {
  project_slug: string;
  language_code: string;
  filled: string;
  kept: string;
  edited: string;
  replaced: string;
  superseded: string;
  edits_0: string;
  edits_1_10: string;
  edits_11_30: string;
  edits_31_60: string;
  edits_over_60: string;
  median_edit_percent: string | null;
  p90_edit_percent: string | null;
  median_hours_to_person: string | null;
  p90_hours_to_person: string | null;
  matching: string;
}

export interface StateTimeRow {
  project_slug: string;
  language_code: string;
  state: string;
  spans: string;
  ended: string;
  still_open: string;
  median_hours_in_state: string | null;
  p90_hours_in_state: string | null;
  matching: string;
}

export interface OverTargetRow {
  unit_id: string;
  project_slug: string;
  component_slug: string;
  language_code: string;
  source: string[];
  state: string;
  since: string;
  days_in_state: number;
  matching: string;
}

const WORK_FIGURES = sql`w.user_days_included, w.user_days_excluded, w.strings_median,
  w.strings_mean, w.strings_p75, w.strings_p90, w.words_median, w.words_mean, w.words_p75,
  w.words_p90`;

/** Translator work of everyone in scope over the window, with Weblate's default limits. */
export async function readTranslatorWork(
  db: Kysely<Database>,
  filter: ReportFilter,
  window: DayRange,
): Promise<TranslatorWorkRow> {
  const result = await sql<TranslatorWorkRow>`
    select ${WORK_FIGURES}, w.translators, w.authors_unverified
    from weblate.translator_work(${answerArguments(filter, { window })}) w`.execute(db);
  return result.rows[0]!;
}

/** Each translator's work (weblate_effort_reader's function), most user-days first. */
export async function listTranslatorWorkByPerson(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { window: DayRange; limit: number },
): Promise<TranslatorWorkPersonRow[]> {
  const args = answerArguments(filter, { window: options.window });
  const result = await sql<TranslatorWorkPersonRow>`
    select w.username, ${WORK_FIGURES}, count(*) over () as matching
    from weblate.translator_work_by_person(${args}) w
    order by w.user_days_included desc, w.username
    limit ${options.limit}`.execute(db);
  return result.rows;
}

/** The remaining work in Weblate's buckets, in Weblate's order, then the total. */
export async function listCostEstimate(
  db: Kysely<Database>,
  filter: ReportFilter,
  cost: CostOptions,
): Promise<CostBucketRow[]> {
  const { rates } = cost;
  const result = await sql<CostBucketRow>`
    select c.bucket, c.strings as estimate_strings, c.words as estimate_words,
           c.chars as estimate_chars, c.rate, c.cost, c.approximate, c.approximation
    from weblate.cost_estimate(${answerArguments(filter)},
      tm_threshold => ${cost.tm_threshold}::integer, base_rate => ${cost.base_rate}::numeric,
      rate_repetition => ${rates.repetition}::numeric, rate_tm_100 => ${rates.tm_100}::numeric,
      rate_tm_fuzzy => ${rates.tm_fuzzy}::numeric,
      rate_needs_editing => ${rates.needs_editing}::numeric, rate_new => ${rates.new}::numeric) c
    order by c.position`.execute(db);
  return result.rows;
}

/** Automatic fills of the window per project and language, the most filled first. */
export async function listMachineTranslation(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { window: DayRange; limit: number },
): Promise<MachineTranslationRow[]> {
  const args = answerArguments(filter, { window: options.window });
  const result = await sql<MachineTranslationRow>`
    select m.project_slug, m.language_code, m.filled, m.kept, m.edited, m.replaced,
           m.superseded, m.edits_0, m.edits_1_10, m.edits_11_30, m.edits_31_60, m.edits_over_60,
           m.median_edit_percent, m.p90_edit_percent, m.median_hours_to_person,
           m.p90_hours_to_person, count(*) over () as matching
    from weblate.machine_translation_outcomes(${WHOLE_WINDOW}, ${args}) m
    where m.scope = 'project and language'
    order by m.filled desc, m.project_slug, m.language_code
    limit ${options.limit}`.execute(db);
  return result.rows;
}

/**
 * Time in each state of the spans that ended in the window (or are still open), per project,
 * language and state; the slowest p90 first.
 */
export async function listTimeInState(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { window: DayRange; limit: number },
): Promise<StateTimeRow[]> {
  const args = answerArguments(filter, { window: options.window });
  const result = await sql<StateTimeRow>`
    select s.project_slug, s.language_code, s.state, s.spans, s.ended, s.still_open,
           s.median_hours_in_state, s.p90_hours_in_state, count(*) over () as matching
    from weblate.time_in_state(${WHOLE_WINDOW}, ${args}) s
    where s.scope = 'project and language'
    order by s.p90_hours_in_state desc nulls last, s.project_slug, s.language_code, s.state
    limit ${options.limit}`.execute(db);
  return result.rows;
}

/** Strings in `state` for longer than `days`, oldest first. */
export async function listStringsOverTarget(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { state: string; days: number; limit: number },
): Promise<OverTargetRow[]> {
  const result = await sql<OverTargetRow>`
    select o.unit_id, o.project_slug, o.component_slug, o.language_code, o.source, o.state, ${iso(sql`o.since`)} as since,
           o.days_in_state, count(*) over () as matching
    from weblate.strings_over_target(${options.state}::text,
      make_interval(days => ${options.days}::integer), ${answerArguments(filter)}) o
    order by o.since, o.unit_id
    limit ${options.limit}`.execute(db);
  return result.rows;
}

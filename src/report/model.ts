/**
 * The report as data: what `weblate-mirror report` prints as tables, JSON or CSV and draws
 * as HTML. Keys are snake_case like the reporting views' columns (and stable: the JSON
 * output is this object). Counts and percentages are numbers; percentages are the views'
 * truncated ones (one decimal, computed from summed counts); days are `YYYY-MM-DD` (UTC)
 * and timestamps ISO 8601 in UTC.
 */

/** Summed figures of a group of translations (source-language translations left out). */
export interface Progress {
  translations: number;
  /** Strings. */
  total: number;
  translated: number;
  translated_percent: number | null;
  total_words: number;
  translated_words: number;
  translated_words_percent: number | null;
  fuzzy: number;
  approved: number;
  failing: number;
  untranslated: number;
  untranslated_words: number;
  last_change: string | null;
}

export interface ProjectProgress extends Progress {
  project_slug: string;
  project_name: string;
  components: number;
}

export interface ComponentProgress extends Progress {
  project_slug: string;
  component_slug: string;
  component_name: string;
}

export interface LanguageProgress extends Progress {
  language_code: string;
  language_name: string | null;
  projects: number;
  components: number;
}

/** A translation whose figures moved over a window. */
export interface Mover {
  project_slug: string;
  component_slug: string;
  language_code: string;
  /** The day compared with: the window's baseline, or the translation's first day since. */
  from_day: string;
  /** Whether the figures of `from_day` are measured or estimated (docs/history.md). */
  from_origin: 'measured' | 'estimated';
  translated_percent_before: number | null;
  translated_percent_now: number | null;
  translated_percent_change: number | null;
  translated_words_before: number | null;
  translated_words_now: number | null;
  translated_words_change: number | null;
}

/** A list cut to the report's limit; `matching` counts the rows before the cut. */
export interface RankedList<Row> {
  matching: number;
  rows: Row[];
}

export interface MoverWindow extends RankedList<Mover> {
  /** `7d`, `30d`, or `since` for a window that --since starts. */
  name: string;
  /** First day of the window; movement is measured from the end of the day before. */
  from: string;
  to: string;
  baseline_day: string;
}

export interface Contributor {
  author_name: string;
  changes: number;
  /** Source words of the strings the author translated (activity_daily's `words`). */
  words: number;
  languages: string[];
  last_day: string;
}

export interface StalledTranslation {
  project_slug: string;
  component_slug: string;
  language_code: string;
  total: number | null;
  untranslated: number | null;
  untranslated_words: number | null;
  translated_percent: number | null;
  idle_since: string;
  days_since_last_change: number;
  last_author: string | null;
}

/** One language's figures at the end of one day. */
export interface LanguageDay {
  day: string;
  language_code: string;
  translations: number;
  total: number;
  translated: number;
  translated_percent: number | null;
  total_words: number;
  translated_words: number;
  translated_words_percent: number | null;
  /**
   * `estimated` when any of the day's translations is estimated from the change log (before
   * its first statistics snapshot, docs/history.md), else `measured`.
   */
  origin: 'measured' | 'estimated';
  /** Of `translations`, those estimated. */
  estimated_translations: number;
}

/** Every day of the window, with zeros on days without changes. */
export interface ActivityDay {
  day: string;
  changes: number;
  words: number;
  authors: number;
}

/**
 * Sums over the whole report, made by the database like every other figure, so that no
 * renderer adds anything up.
 */
export interface ReportTotals {
  /** Every translation in scope together (what the rows of `languages` add up to). */
  progress: Progress;
  /** The window's days together (what the days of `activity` add up to). */
  activity: { changes: number; words: number };
}

export interface ReportFilters {
  /** Project slugs; empty for every project. */
  projects: string[];
  language: string | null;
  since: string | null;
}

export interface Report {
  generated_at: string;
  filters: ReportFilters;
  /** Days of activity, contributors and charts; stalled means idle since before `from`. */
  window: { from: string; to: string };
  projects: ProjectProgress[];
  languages: LanguageProgress[];
  components: ComponentProgress[];
  movers: MoverWindow[];
  contributors: RankedList<Contributor>;
  stalled: RankedList<StalledTranslation>;
  language_history: LanguageDay[];
  activity: ActivityDay[];
  totals: ReportTotals;
}

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
  /** Null with --label: the label functions do not count components. */
  components: number | null;
}

/**
 * A category's figures: its own components and those of every category inside it (a
 * nested category's strings count in each of its ancestors too).
 */
export interface CategoryProgress extends Progress {
  project_slug: string;
  category_id: number;
  category_slug: string;
  category_name: string;
  parent_id: number | null;
  /** Slugs from the project's top category down, joined by '/' (what --category takes). */
  path: string;
  /** 0 at the top of the project, 1 inside a top category, … */
  depth: number;
  components: number;
}

/**
 * One label's strings in one language: those that carry it, on themselves or on their
 * source string (as Weblate's `label:` search finds them).
 */
export interface LabelProgress {
  label_id: number;
  label_name: string;
  project_slug: string;
  language_code: string;
  translations: number;
  total: number;
  total_words: number;
  translated: number;
  translated_words: number;
  translated_percent: number | null;
  translated_words_percent: number | null;
  fuzzy: number;
  approved: number;
  approved_percent: number | null;
  failing: number;
  untranslated: number;
  untranslated_words: number;
  /**
   * The window's first day with recorded label history (recorded from the first sync of a
   * release with label statistics on); null when none in the window.
   */
  history_from_day: string | null;
  /** Translated % at the end of `history_from_day`, and the change since. */
  translated_percent_then: number | null;
  translated_percent_change: number | null;
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
  translated_percent_then: number | null;
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

/** A person as Weblate credits them (docs/metrics.md: credited_changes, credited_words). */
export interface Contributor {
  author_name: string;
  /** Content changes the person authored (Weblate's credits). */
  credited_changes: number;
  /** Source words of those changes (Weblate's contributor statistics). */
  credited_words: number;
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
  words_translated: number;
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
  activity: { changes: number; words_translated: number; words_translated_without_author: number };
}

/** Source strings and words added and removed in one period (new work to translate). */
export interface NewWorkPeriod {
  period_start: string;
  strings_added: number;
  words_added: number;
  strings_removed: number;
  words_removed: number;
}

/** A person's work over the window, ranked by words translated, then strings translated. */
export interface ContributorRank {
  rank: number;
  username: string;
  /** The full name the server shows for the person, or null. */
  full_name: string | null;
  strings_translated: number;
  words_translated: number;
  strings_approved: number;
  words_approved: number;
  strings_suggested: number;
  comments: number;
  /** Languages the person translated, approved, suggested or commented in. */
  languages: string[];
}

/** Strings of one project and language waiting for review. */
export interface ReviewWaiting {
  project_slug: string;
  language_code: string;
  strings_waiting: number;
  words_waiting: number;
  /** When the longest-waiting string's translation was saved. */
  waiting_since: string;
  oldest_days: number;
  /** Strings waiting 7 days or more. */
  over_7_days: number;
}

/** Approvals of one project and language in the window, and how long they took. */
export interface ApprovalTime {
  project_slug: string;
  language_code: string;
  approvals: number;
  /** Approvals whose translation is in the change history (those the hours measure). */
  measured: number;
  median_hours: number | null;
  average_hours: number | null;
  max_hours: number | null;
}

/** Changes that saved a translation in one period by one method (person, automatic, upload, …). */
export interface MethodPeriod {
  period_start: string;
  method: string;
  strings_saved: number;
  words_saved: number;
}

/** One project and language against one threshold of translated words. */
export interface Readiness {
  project_slug: string;
  language_code: string;
  threshold: number;
  total_words: number;
  translated_words: number;
  translated_words_percent: number | null;
  is_reached: boolean;
  words_needed: number;
  /** Net words translated a day over the last 30 days; null where the pace is unknown. */
  words_per_day: number | null;
  /** When the threshold would be reached at that pace; null when reached or without pace. */
  projected_date: string | null;
  /** Translations of the project and language, and those whose pace is known. */
  translations: number;
  pace_translations: number;
  /** Net words translated over the last 30 days by the translations whose pace is known. */
  words_translated_30d: number | null;
  /** Whether the pace reads estimated history; null where it is unknown. */
  pace_origin: 'measured' | 'estimated' | null;
  /** Where no translation's history reaches back 30 days: the day it will. */
  pace_known_from: string | null;
  /** `reached`, the projected day, or why there is none (release_readiness words it). */
  status: string;
}

/** Strings with failing checks at the end of one period (its last measured day). */
export interface FailingPeriod {
  period_start: string;
  day: string;
  translations: number;
  failing: number;
  total: number;
  failing_percent: number | null;
}

/** Weblate's translator work: user-days kept and strings and source words a day over them. */
export interface TranslatorWorkFigures {
  user_days_included: number;
  user_days_excluded: number;
  strings_median: number | null;
  strings_mean: number | null;
  strings_p75: number | null;
  strings_p90: number | null;
  words_median: number | null;
  words_mean: number | null;
  words_p75: number | null;
  words_p90: number | null;
}

export interface TranslatorWork extends TranslatorWorkFigures {
  /** People whose changes count. */
  translators: number;
  /** Of them, those whose user record does not say whether they are active people. */
  authors_unverified: number;
}

export interface TranslatorWorkPerson extends TranslatorWorkFigures {
  username: string;
}

/** One of Weblate's cost buckets (repetition, tm_100, tm_fuzzy, needs_editing, new) or total. */
export interface CostBucket {
  bucket: string;
  estimate_strings: number;
  estimate_words: number;
  estimate_chars: number;
  /** Percent of the base rate; null on the total. */
  rate: number | null;
  cost: number;
  /** Whether the mirror can only approximate the bucket, and why. */
  approximate: boolean;
  approximation: string | null;
}

/** Strings filled automatically in the window, per project and language, and what became of them. */
export interface MachineTranslation {
  project_slug: string;
  language_code: string;
  filled: number;
  kept: number;
  edited: number;
  replaced: number;
  superseded: number;
  edits_0: number;
  edits_1_10: number;
  edits_11_30: number;
  edits_31_60: number;
  edits_over_60: number;
  median_edit_percent: number | null;
  p90_edit_percent: number | null;
  median_hours_to_person: number | null;
  p90_hours_to_person: number | null;
}

/** How long strings of a project and language stayed in one state. */
export interface StateTime {
  project_slug: string;
  language_code: string;
  state: string;
  spans: number;
  ended: number;
  still_open: number;
  median_hours_in_state: number | null;
  p90_hours_in_state: number | null;
}

/** A string in a state for longer than the target. */
export interface OverTarget {
  project_slug: string;
  component_slug: string;
  language_code: string;
  unit_id: number;
  /** Its source, every plural form. */
  source: string[];
  state: string;
  since: string;
  days_in_state: number;
}

export interface Effort {
  /** Weblate's limits of a user-day: min_changes to max_changes strings, at most max_words. */
  work_limits: { min_changes: number; max_changes: number; max_words: number };
  translator_work: TranslatorWork;
  /** Each translator's work: only with --people (weblate_effort_reader's figures). */
  translator_work_people: RankedList<TranslatorWorkPerson> | null;
  /** The rates the cost is computed with; null without --cost. */
  cost_rates: { base_rate: number; tm_threshold: number } | null;
  /** Only with --cost (or its rates): it reads every string left and searches the memory. */
  cost: CostBucket[] | null;
  machine_translation: RankedList<MachineTranslation>;
  time_in_state: RankedList<StateTime>;
  /** The target of over_target: a state and days in it. */
  target: { state: string; days: number };
  over_target: RankedList<OverTarget>;
}

export interface ReportFilters {
  /** Project slugs; empty for every project. */
  projects: string[];
  language: string | null;
  since: string | null;
  /** `project/path` of the category whose components the report covers; null for all. */
  category: string | null;
  /** The label as given to --label; null for none. */
  label: string | null;
}

/**
 * The sections that --label leaves out, because they count whole translations or changes,
 * which cannot be narrowed to the strings that carry a label: in the data they are empty.
 */
export const LABEL_LEFT_OUT = [
  'projects',
  'components',
  'categories',
  'movers',
  'contributors',
  'stalled',
  'activity',
  'new_work',
  'contributor_ranking',
  'review',
  'translation_methods',
  'release_readiness',
  'quality',
  'effort',
] as const;

export type SectionName = (typeof LABEL_LEFT_OUT)[number];

export interface Report {
  generated_at: string;
  /** API root of the instance the database mirrors (weblate.instances); null: none recorded. */
  instance: string | null;
  filters: ReportFilters;
  /** Days of activity, contributors and charts; stalled means idle since before `from`. */
  window: { from: string; to: string };
  projects: ProjectProgress[];
  languages: LanguageProgress[];
  components: ComponentProgress[];
  /** Per live category in scope, in tree order (a parent before what it holds). */
  categories: CategoryProgress[];
  /** Per live label in scope and language (with --label, those labels only). */
  labels: LabelProgress[];
  /** The labels --label matched, `project/name` each; empty without it. */
  matched_labels: string[];
  /** Sections left out (empty in the data): LABEL_LEFT_OUT with --label, else none. */
  left_out: SectionName[];
  movers: MoverWindow[];
  contributors: RankedList<Contributor>;
  stalled: RankedList<StalledTranslation>;
  language_history: LanguageDay[];
  activity: ActivityDay[];
  /** Periods of new_work, translation_methods and quality: weeks, or months over long windows. */
  period: 'week' | 'month';
  new_work: NewWorkPeriod[];
  contributor_ranking: RankedList<ContributorRank>;
  review: { waiting: RankedList<ReviewWaiting>; approval: RankedList<ApprovalTime> };
  translation_methods: MethodPeriod[];
  /** Per project and language, one row per threshold (80, 90, 95 % of words). */
  release_readiness: Readiness[];
  quality: FailingPeriod[];
  /** Translator work, the remaining cost, machine translation and time in each state. */
  effort: Effort;
  totals: ReportTotals;
}

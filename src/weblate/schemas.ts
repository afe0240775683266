import { z } from 'zod';

import { fastCheck } from './fast-parse.ts';

/**
 * Shapes of the API records weblate-mirror reads (weblate/api/serializers.py; docs/schema.md for what the mirror keeps).
 * Identity fields are required; every other field is optional so that a Weblate version
 * that omits it still mirrors (the column is null, `raw` keeps what was sent). A field
 * that is present with the wrong type is an error, never a silent null.
 */

const DECIMAL = /^-?\d+$/;

/**
 * Whether a decimal string (as matched by DECIMAL) is a signed 64-bit value. Strings of
 * equal length compare as numbers: no BigInt for the two hashes of every unit.
 */
function inInt64Range(decimal: string): boolean {
  const negative = decimal.startsWith('-');
  const digits = (negative ? decimal.slice(1) : decimal).replace(/^0+(?=\d)/, '');
  if (digits.length !== 19) return digits.length < 19;
  return digits <= (negative ? '9223372036854775808' : '9223372036854775807');
}

/** A whole number as exact decimal text, or undefined when it is not a signed 64-bit whole number. */
function readInt64(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  return typeof value === 'string' && DECIMAL.test(value) && inInt64Range(value)
    ? value
    : undefined;
}

/**
 * A whole number as an exact decimal string; values beyond 2^53 arrive as strings from
 * parseJsonLossless. One transform, not a union and refinements, with a fast check of its
 * own (see fast-parse.ts): it runs three times for every unit.
 */
export const int64 = fastCheck(
  z.unknown().transform((value, ctx): string => {
    const exact = readInt64(value);
    if (exact !== undefined) return exact;
    const message =
      typeof value === 'string' && DECIMAL.test(value)
        ? 'outside the signed 64-bit range'
        : Number.isInteger(value)
          ? // parseJsonLossless reads longer literals as text; a number here was already rounded.
            'a whole number beyond 2^53 that was not read exactly'
          : 'expected a whole number';
    ctx.issues.push({ code: 'custom', message, input: value });
    return z.NEVER;
  }),
  readInt64,
);

const int = z.number().int();

/**
 * ISO 8601 with a UTC offset or Z, any fraction. A timestamp without an offset is refused:
 * its zone would be a guess (Weblate emits aware timestamps unless misconfigured).
 */
export const timestamp = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i,
    'expected an ISO 8601 timestamp with a UTC offset or Z',
  );

const text = z.string().nullish();
const flag = z.boolean().nullish();
const count = int.nullish();
const percent = z.number().nullish();
const url = z.string().nullish();

export const weblateLanguage = z.object({
  id: int,
  code: z.string().min(1),
  name: z.string(),
  direction: text,
  population: z.number().int().nullish(),
  aliases: z.array(z.string()).nullish(),
  plural: z
    .object({ id: count, source: count, number: count, formula: text, type: count })
    .nullish(),
  web_url: url,
  url: url,
  statistics_url: url,
});
export type WeblateLanguage = z.infer<typeof weblateLanguage>;

export const weblateProject = z.object({
  id: int,
  slug: z.string().min(1),
  name: z.string(),
  web: text,
  web_url: url,
  url: url,
  components_list_url: url,
  repository_url: url,
  statistics_url: url,
  categories_url: url,
  changes_list_url: url,
  languages_url: url,
  labels_url: url,
  translation_review: flag,
  source_review: flag,
  set_language_team: flag,
  instructions: text,
  enable_hooks: flag,
  language_aliases: text,
});
export type WeblateProject = z.infer<typeof weblateProject>;

const languageRef = z.object({ code: z.string(), id: int.nullish() });

export const weblateComponent = z.object({
  id: int,
  slug: z.string().min(1),
  name: z.string(),
  source_language: languageRef.nullish(),
  project: z.object({ id: int, slug: z.string() }).nullish(),
  vcs: text,
  repo: text,
  git_export: text,
  branch: text,
  push_branch: text,
  filemask: text,
  screenshot_filemask: text,
  template: text,
  edit_template: flag,
  intermediate: text,
  new_base: text,
  file_format: text,
  license: text,
  license_url: text,
  agreement: text,
  web_url: url,
  url: url,
  repository_url: url,
  translations_url: url,
  statistics_url: url,
  lock_url: url,
  links_url: url,
  changes_list_url: url,
  task_url: url,
  new_lang: text,
  language_code_style: text,
  push: text,
  check_flags: text,
  priority: count,
  enforced_checks: z.array(z.string()).nullish(),
  restricted: flag,
  repoweb: text,
  report_source_bugs: text,
  merge_style: text,
  commit_message: text,
  add_message: text,
  delete_message: text,
  merge_message: text,
  addon_message: text,
  pull_message: text,
  allow_translation_propagation: flag,
  manage_units: flag,
  enable_suggestions: flag,
  suggestion_voting: flag,
  suggestion_autoaccept: count,
  push_on_commit: flag,
  commit_pending_age: count,
  auto_lock_error: flag,
  language_regex: text,
  variant_regex: text,
  addons: z.array(z.unknown()).nullish(),
  is_glossary: flag,
  glossary_color: text,
  category: text,
  linked_component: text,
});
export type WeblateComponent = z.infer<typeof weblateComponent>;

/** CategorySerializer (Weblate 5.0+); 2026.x adds links and effective settings, kept in raw. */
export const weblateCategory = z.object({
  id: int,
  name: z.string(),
  slug: z.string().min(1),
  project: url,
  category: url,
  url: url,
  statistics_url: url,
});
export type WeblateCategory = z.infer<typeof weblateCategory>;

/** LabelSerializer: a project's label, as its list and each unit's `labels` give it. */
export const weblateLabel = z.object({
  id: int,
  name: z.string(),
  description: text,
  color: text,
});
export type WeblateLabel = z.infer<typeof weblateLabel>;

/** A user as any signed-in token sees one (Weblate's BasicUserSerializer, or more for admins). */
export const weblateUser = z.object({
  id: int,
  username: z.string(),
  full_name: text,
});
export type WeblateUser = z.infer<typeof weblateUser>;

export const weblateTranslation = z.object({
  id: int,
  language_code: z.string().min(1),
  language: languageRef.nullish(),
  /** Present in the global list and the detail, absent in a component's list. */
  component: z.object({ id: int, slug: z.string() }).nullish(),
  filename: text,
  revision: text,
  web_url: url,
  share_url: url,
  translate_url: url,
  url: z.string(),
  is_template: flag,
  is_source: flag,
  total: count,
  total_words: count,
  translated: count,
  translated_words: count,
  translated_percent: percent,
  fuzzy: count,
  fuzzy_words: count,
  fuzzy_percent: percent,
  failing_checks: count,
  failing_checks_words: count,
  failing_checks_percent: percent,
  have_suggestion: count,
  have_comment: count,
  last_change: timestamp.nullish(),
  last_author: text,
  repository_url: url,
  file_url: url,
  statistics_url: url,
  changes_list_url: url,
  units_list_url: url,
});
export type WeblateTranslation = z.infer<typeof weblateTranslation>;

export const weblateUnit = z.object({
  id: int64,
  translation: z.string(),
  source: z.array(z.string()),
  previous_source: text,
  target: z.array(z.string()),
  id_hash: int64,
  content_hash: int64,
  location: text,
  context: text,
  note: text,
  flags: text,
  explanation: text,
  extra_flags: text,
  labels: z.array(z.unknown()).nullish(),
  state: int,
  fuzzy: flag,
  translated: flag,
  approved: flag,
  position: count,
  has_suggestion: flag,
  has_comment: flag,
  has_failing_check: flag,
  num_words: count,
  source_unit: url,
  priority: count,
  web_url: url,
  url: url,
  pending: flag,
  timestamp: timestamp.nullish(),
  last_updated: timestamp.nullish(),
  /** Weblate 2026 and later: whether the target came from automatic translation. */
  automatically_translated: flag,
});
export type WeblateUnit = z.infer<typeof weblateUnit>;

export const weblateChange = z.object({
  id: int64,
  action: int,
  action_name: text,
  unit: url,
  component: url,
  translation: url,
  user: z.string({ error: 'expected a user URL or null' }).nullish(),
  author: z.string({ error: 'expected a user URL or null' }).nullish(),
  timestamp,
  target: text,
  old: text,
  details: z.unknown().optional(),
  url: url,
});
export type WeblateChange = z.infer<typeof weblateChange>;

export const weblateStatistics = z.object({
  total: count,
  total_words: count,
  total_chars: count,
  translated: count,
  translated_words: count,
  translated_chars: count,
  translated_percent: percent,
  translated_words_percent: percent,
  translated_chars_percent: percent,
  fuzzy: count,
  fuzzy_words: count,
  fuzzy_chars: count,
  fuzzy_percent: percent,
  fuzzy_words_percent: percent,
  fuzzy_chars_percent: percent,
  approved: count,
  approved_words: count,
  approved_chars: count,
  approved_percent: percent,
  approved_words_percent: percent,
  approved_chars_percent: percent,
  readonly: count,
  readonly_words: count,
  readonly_chars: count,
  readonly_percent: percent,
  readonly_words_percent: percent,
  readonly_chars_percent: percent,
  failing: count,
  failing_percent: percent,
  suggestions: count,
  comments: count,
  recent_changes: count,
  last_change: timestamp.nullish(),
  code: text,
  name: text,
  url: url,
  translate_url: url,
});
export type WeblateStatistics = z.infer<typeof weblateStatistics>;

/**
 * A subscription's project or component: nested as an object before Weblate 5.15 (a
 * component with its project), its API URL since.
 */
const slugRef = z.union([
  z.object({
    id: int.nullish(),
    slug: z.string(),
    project: z.object({ slug: z.string() }).nullish().catch(null),
  }),
  z.string(),
]);

export const weblateSubscription = z.object({
  id: int,
  notification: z.string(),
  scope: int,
  frequency: int,
  project: slugRef.nullish(),
  component: slugRef.nullish(),
});
export type WeblateSubscription = z.infer<typeof weblateSubscription>;

/** One line naming what is wrong with a record, e.g. `field "state": expected number, received string`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.length > 0 ? `field "${issue.path.join('.')}"` : 'record';
      return `${path}: ${issue.message}`;
    })
    .join('; ')
    .concat(error.issues.length > 3 ? `; and ${error.issues.length - 3} more` : '');
}

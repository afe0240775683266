import type { Kysely } from 'kysely';

import type { Database } from '../db/database.ts';
import { listCategoryProgress } from '../db/queries/report-categories.ts';
import {
  type LabelIds,
  listLabelLanguageDaily,
  listLabelLanguageProgress,
  listLabelProgress,
  readLabelTotal,
} from '../db/queries/report-labels.ts';
import type { SummedDayProgress } from '../db/queries/report-progress.ts';
import type { DayRange, ReportFilter } from '../db/queries/report-scope.ts';
import type {
  CategoryProgress,
  LabelProgress,
  LanguageDay,
  LanguageProgress,
  Progress,
} from './model.ts';
import { toNumber, toNumberOrNull } from './numbers.ts';

// The report's sections of categories and labels, and, with --label, its progress
// overview, languages and history from the label functions (migration 0012).

/** Figures of a day or of now; the last change where the row has one (label rows do not). */
export function toProgress(row: SummedDayProgress & { last_change?: string | null }): Progress {
  return {
    translations: toNumber(row.translations),
    total: toNumber(row.total),
    translated: toNumber(row.translated),
    translated_percent: toNumberOrNull(row.translated_percent),
    total_words: toNumber(row.total_words),
    translated_words: toNumber(row.translated_words),
    translated_words_percent: toNumberOrNull(row.translated_words_percent),
    fuzzy: toNumber(row.fuzzy),
    approved: toNumber(row.approved),
    failing: toNumber(row.failing),
    untranslated: toNumber(row.untranslated),
    untranslated_words: toNumber(row.untranslated_words),
    last_change: row.last_change ?? null,
  };
}

/** Progress of each category in scope, rolled up, in tree order. */
export async function buildCategories(
  db: Kysely<Database>,
  scope: ReportFilter,
): Promise<CategoryProgress[]> {
  const rows = await listCategoryProgress(db, scope);
  return rows.map((r) => ({
    ...toProgress(r),
    project_slug: r.project_slug,
    category_id: r.category_id,
    category_slug: r.category_slug,
    category_name: r.category_name,
    parent_id: r.parent_id,
    path: r.path,
    depth: r.path.split('/').length - 1,
    components: toNumber(r.components),
  }));
}

/** Each label's figures per language, with its translated % when the window's history starts. */
export async function buildLabels(
  db: Kysely<Database>,
  scope: ReportFilter,
  options: { labels: LabelIds; window: DayRange },
): Promise<LabelProgress[]> {
  const rows = await listLabelProgress(db, scope, options);
  return rows.map((r) => ({
    label_id: r.label_id,
    label_name: r.label_name,
    project_slug: r.project_slug,
    language_code: r.language_code,
    translations: toNumber(r.translations),
    total: toNumber(r.total),
    total_words: toNumber(r.total_words),
    translated: toNumber(r.translated),
    translated_words: toNumber(r.translated_words),
    translated_percent: toNumberOrNull(r.translated_percent),
    translated_words_percent: toNumberOrNull(r.translated_words_percent),
    fuzzy: toNumber(r.fuzzy),
    approved: toNumber(r.approved),
    approved_percent: toNumberOrNull(r.approved_percent),
    failing: toNumber(r.failing),
    untranslated: toNumber(r.untranslated),
    untranslated_words: toNumber(r.untranslated_words),
    history_from_day: r.history_from_day,
    translated_percent_then: toNumberOrNull(r.translated_percent_then),
    translated_percent_change: toNumberOrNull(r.translated_percent_change),
  }));
}

/**
 * With --label: the figures of the strings that carry the labels, per language and
 * together, and per language on each recorded day of the window (always measured: label
 * history is recorded, never estimated).
 */
export async function buildLabelProgress(
  db: Kysely<Database>,
  scope: ReportFilter,
  options: { labels: number[]; window: DayRange },
): Promise<{ languages: LanguageProgress[]; total: Progress; history: LanguageDay[] }> {
  const languages = await listLabelLanguageProgress(db, scope, options.labels);
  const total = await readLabelTotal(db, scope, options.labels);
  const days = await listLabelLanguageDaily(db, scope, options);
  return {
    languages: languages.map((r) => ({
      ...toProgress(r),
      language_code: r.language_code,
      language_name: r.language_name,
      projects: toNumber(r.projects),
      components: null,
    })),
    total: toProgress(total),
    history: days.map((r) => ({
      day: r.day,
      language_code: r.language_code,
      translations: toNumber(r.translations),
      total: toNumber(r.total),
      translated: toNumber(r.translated),
      translated_percent: toNumberOrNull(r.translated_percent),
      total_words: toNumber(r.total_words),
      translated_words: toNumber(r.translated_words),
      translated_words_percent: toNumberOrNull(r.translated_words_percent),
      origin: 'measured',
      estimated_translations: 0,
    })),
  };
}

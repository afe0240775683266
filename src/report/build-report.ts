import type { Kysely } from 'kysely';

import type { DatabaseKind } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import { readInstance } from '../db/queries/instances.ts';
import {
  listActivityDays,
  listContributorSection,
  listMovers,
  readActivityTotal,
} from '../db/queries/report-activity.ts';
import { listStalledSection } from '../db/queries/report-backlog.ts';
import {
  listComponentProgress,
  listLanguageProgress,
  listLanguageProgressDaily,
  listProjectProgress,
  readProgressTotal,
} from '../db/queries/report-progress.ts';
import { type DayRange, readReportClock, type ReportFilter } from '../db/queries/report-scope.ts';
import { inOneSnapshot, type SnapshotRead } from '../db/snapshot.ts';
import { buildAnswers } from './build-answers.ts';
import { buildEffort, DEFAULT_EFFORT, type EffortOptions, emptyEffort } from './build-effort.ts';
import { buildCategories, buildLabelProgress, buildLabels, toProgress } from './build-groups.ts';
import { addDays, daysBetween } from './days.ts';
import type {
  ActivityDay,
  CategoryProgress,
  ComponentProgress,
  LanguageDay,
  LanguageProgress,
  MoverWindow,
  Progress,
  ProjectProgress,
  Report,
  ReportFilters,
} from './model.ts';
import { LABEL_LEFT_OUT } from './model.ts';
import { ranked, toNumber, toNumberOrNull } from './numbers.ts';
import type { CategoryScope, LabelScope } from './resolve-scope.ts';

export interface ReportOptions extends Omit<ReportFilters, 'category' | 'label'> {
  /** Rows per ranked list (movers, contributors, stalled translations, review). */
  limit: number;
  /** --category, resolved (resolve-scope.ts): every section covers its components only. */
  category?: CategoryScope | null;
  /** --label, resolved: progress, languages and history of the strings that carry it. */
  label?: LabelScope | null;
  /** The effort sections' options (--people, the cost's rates, the target); Weblate's defaults. */
  effort?: EffortOptions;
}

/** The movers' windows without --since, in days (today included). */
export const DEFAULT_MOVER_DAYS = [7, 30] as const;
/** The activity window without --since, in days (today included). */
export const DEFAULT_ACTIVITY_DAYS = 30;

async function buildMovers(
  db: Kysely<Database>,
  scope: ReportFilter,
  options: ReportOptions,
  today: string,
): Promise<MoverWindow[]> {
  // With --since: that window, and the default ones that fit inside it (a long history then
  // still shows what moved lately).
  const defaults = DEFAULT_MOVER_DAYS.map((days) => ({
    name: `${days}d`,
    from: addDays(today, 1 - days),
  }));
  const since = options.since;
  const windows =
    since === null
      ? defaults
      : [{ name: 'since', from: since }, ...defaults.filter((w) => w.from > since)];
  const result: MoverWindow[] = [];
  for (const { name, from } of windows) {
    const baselineDay = addDays(from, -1);
    const rows = await listMovers(db, scope, { baselineDay, today, limit: options.limit });
    result.push({
      name,
      from,
      to: today,
      baseline_day: baselineDay,
      ...ranked(rows, (row) => ({
        ...row,
        translated_percent_then: toNumberOrNull(row.translated_percent_then),
        translated_percent_now: toNumberOrNull(row.translated_percent_now),
        translated_percent_change: toNumberOrNull(row.translated_percent_change),
      })),
    });
  }
  return result;
}

async function buildActivity(
  db: Kysely<Database>,
  filter: ReportFilter & { from: string; to: string },
): Promise<ActivityDay[]> {
  const byDay = new Map((await listActivityDays(db, filter)).map((r) => [r.day, r]));
  return daysBetween(filter).map((day) => {
    const row = byDay.get(day);
    return {
      day,
      changes: row ? toNumber(row.changes) : 0,
      words_translated: row ? toNumber(row.words_translated) : 0,
      authors: row ? toNumber(row.authors) : 0,
    };
  });
}

/** Progress by project, language and component, and of everything in scope together. */
async function buildProgress(
  db: Kysely<Database>,
  scope: ReportFilter,
): Promise<Pick<Report, 'projects' | 'languages' | 'components'> & { total: Progress }> {
  const projects = await listProjectProgress(db, scope);
  const languages = await listLanguageProgress(db, scope);
  const components = await listComponentProgress(db, scope);
  return {
    projects: projects.map((r): ProjectProgress => ({
      ...toProgress(r),
      project_slug: r.project_slug,
      project_name: r.project_name,
      components: toNumber(r.components),
    })),
    languages: languages.map((r): LanguageProgress => ({
      ...toProgress(r),
      language_code: r.language_code,
      language_name: r.language_name,
      projects: toNumber(r.projects),
      components: toNumber(r.components),
    })),
    components: components.map((r): ComponentProgress => ({
      ...toProgress(r),
      project_slug: r.project_slug,
      component_slug: r.component_slug,
      component_name: r.component_name,
    })),
    total: toProgress(await readProgressTotal(db, scope)),
  };
}

async function buildLanguageHistory(
  db: Kysely<Database>,
  filter: ReportFilter,
): Promise<LanguageDay[]> {
  const rows = await listLanguageProgressDaily(db, filter);
  return rows.map((r) => ({
    day: r.day,
    language_code: r.language_code,
    translations: toNumber(r.translations),
    total: toNumber(r.total),
    translated: toNumber(r.translated),
    translated_percent: toNumberOrNull(r.translated_percent),
    total_words: toNumber(r.total_words),
    translated_words: toNumber(r.translated_words),
    translated_words_percent: toNumberOrNull(r.translated_words_percent),
    origin: r.origin,
    estimated_translations: toNumber(r.estimated_translations),
  }));
}

function filtersOf(options: ReportOptions): ReportFilters {
  return {
    projects: [...options.projects],
    language: options.language,
    since: options.since,
    category: options.category?.name ?? null,
    label: options.label?.name ?? null,
  };
}

/**
 * With --category, that category and those inside it: its ancestors hold the same
 * components, and would repeat its figures under another name.
 */
function inCategory(rows: CategoryProgress[], category: CategoryScope | null): CategoryProgress[] {
  if (category === null) return rows;
  return rows.filter(
    (r) =>
      r.project_slug === category.project &&
      (r.path === category.path || r.path.startsWith(`${category.path}/`)),
  );
}

/** What the report covers: with --category, its project and components only. */
function scopeOf(options: ReportOptions): ReportFilter {
  const category = options.category ?? null;
  return {
    projects: category === null ? options.projects : [category.project],
    language: options.language,
    components: category?.components ?? null,
  };
}

/**
 * With --label: the progress overview, languages, history and labels of the strings that
 * carry the label; the sections of LABEL_LEFT_OUT are empty.
 */
async function buildLabelReport(
  db: Kysely<Database>,
  options: ReportOptions & { label: LabelScope },
  clock: { now: string; window: DayRange; instance: string | null },
): Promise<Report> {
  const { now, window, instance } = clock;
  const scope = scopeOf(options);
  const labels = { labels: options.label.ids, window };
  const { languages, total, history } = await buildLabelProgress(db, scope, labels);
  return {
    generated_at: now,
    instance,
    filters: filtersOf(options),
    window,
    projects: [],
    languages,
    components: [],
    categories: [],
    labels: await buildLabels(db, scope, labels),
    matched_labels: options.label.matched,
    left_out: [...LABEL_LEFT_OUT],
    movers: [],
    contributors: { matching: 0, rows: [] },
    stalled: { matching: 0, rows: [] },
    language_history: history,
    activity: [],
    period: 'week',
    new_work: [],
    contributor_ranking: { matching: 0, rows: [] },
    review: { waiting: { matching: 0, rows: [] }, approval: { matching: 0, rows: [] } },
    translation_methods: [],
    release_readiness: [],
    quality: [],
    effort: emptyEffort(options.effort ?? DEFAULT_EFFORT),
    totals: {
      progress: total,
      activity: { changes: 0, words_translated: 0, words_translated_without_author: 0 },
    },
  };
}

/**
 * Reads side by side on PostgreSQL: three, for the slowest three sections (the cost estimate,
 * time in each state and the strings over target) on a server of two cores or more.
 */
export function readWidth(kind: DatabaseKind): number {
  return kind === 'postgres' ? 3 : 1;
}

/**
 * Reads every section of the report, all in one snapshot of the database (so that its figures
 * agree while a sync writes), `width` reads side by side (inOneSnapshot: 1 on the embedded
 * database). `today` is the database's UTC date, as in the views; the activity window starts at
 * `since`, or DEFAULT_ACTIVITY_DAYS before today.
 */
export async function buildReport(
  db: Kysely<Database>,
  options: ReportOptions,
  width = 1,
): Promise<Report> {
  return inOneSnapshot(db, width, (read) => readReport(read, options));
}

async function readReport(read: SnapshotRead, options: ReportOptions): Promise<Report> {
  const { now, today } = await read(readReportClock);
  const instance = (await read(readInstance))?.api_root ?? null;
  const window = { from: options.since ?? addDays(today, 1 - DEFAULT_ACTIVITY_DAYS), to: today };
  const label = options.label ?? null;
  if (label !== null)
    return read((db) => buildLabelReport(db, { ...options, label }, { now, window, instance }));
  const scope = scopeOf(options);
  const inWindow = { ...scope, ...window };
  const limit = options.limit;
  // The effort sections hold the slowest reads: they start first.
  const effortRead = buildEffort(read, scope, {
    window,
    limit,
    effort: options.effort ?? DEFAULT_EFFORT,
  });
  const [
    { total, ...progress },
    categories,
    labels,
    movers,
    contributors,
    stalled,
    history,
    activity,
    activityTotal,
    answers,
    effort,
  ] = await Promise.all([
    read((db) => buildProgress(db, scope)),
    read(async (db) => inCategory(await buildCategories(db, scope), options.category ?? null)),
    read((db) => buildLabels(db, scope, { labels: null, window })),
    read((db) => buildMovers(db, scope, options, today)),
    read((db) => listContributorSection(db, inWindow, limit)),
    read((db) => listStalledSection(db, scope, { since: window.from, limit })),
    read((db) => buildLanguageHistory(db, inWindow)),
    read((db) => buildActivity(db, inWindow)),
    read((db) => readActivityTotal(db, inWindow)),
    read((db) => buildAnswers(db, scope, { window, limit })),
    effortRead,
  ]);
  return {
    generated_at: now,
    instance,
    filters: filtersOf(options),
    window,
    ...progress,
    categories,
    labels,
    matched_labels: [],
    left_out: [],
    movers,
    contributors: ranked(contributors, (r) => ({
      author_name: r.author_name,
      credited_changes: toNumber(r.credited_changes),
      credited_words: toNumber(r.credited_words),
      languages: r.languages,
      last_day: r.last_day,
    })),
    stalled: ranked(stalled, (r) => ({
      ...r,
      translated_percent: toNumberOrNull(r.translated_percent),
    })),
    language_history: history,
    activity,
    ...answers,
    effort,
    totals: {
      progress: total,
      activity: {
        changes: toNumber(activityTotal.changes),
        words_translated: toNumber(activityTotal.words_translated),
        words_translated_without_author: toNumber(activityTotal.words_translated_without_author),
      },
    },
  };
}

import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { Database } from '../database.ts';

// Typed reads of the reporting views and functions, every sum SQL's
// (docs/schema.md#reporting-views). Counts and percentages come back as exact decimal strings,
// integers as numbers, days as YYYY-MM-DD and timestamps as ISO 8601 UTC strings.

/** Which part of the mirror a read covers; every field is optional, and absent means any. */
export interface ReportFilter {
  /** Project slugs; absent or empty for every project. */
  projects?: readonly string[];
  /** A language code; absent or null for every language. */
  language?: string | null;
  /**
   * Component slugs (a category's subtree); absent or null for every component, empty for
   * none. A slug is unique only within its project, so a report sets `projects` beside it.
   */
  components?: readonly string[] | null;
  /** First UTC day (inclusive, `YYYY-MM-DD`) of a read by day. */
  from?: string;
  /** Last UTC day (inclusive) of a read by day. */
  to?: string;
}

/** An inclusive range of UTC days, `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

/** A timestamptz as ISO 8601 in UTC with microseconds, whatever the session's time zone. */
export function iso(expression: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** `array[…]::text[]`, empty included. */
function textArray(values: readonly string[]): RawBuilder<unknown> {
  return values.length === 0
    ? sql`array[]::text[]`
    : sql`array[${sql.join(values.map((v) => sql`${v}`))}]::text[]`;
}

/** The project filter as an `only_projects` argument: null for every project. */
export function projectsArgument(filter: ReportFilter): RawBuilder<unknown> {
  const projects = filter.projects ?? [];
  return projects.length === 0 ? sql`null::text[]` : textArray(projects);
}

/** The component filter as an `only_components` argument: null for every component. */
export function componentsArgument(filter: ReportFilter): RawBuilder<unknown> {
  return filter.components == null ? sql`null::text[]` : textArray(filter.components);
}

/**
 * The arguments `only_projects, only_language, only_components` of the progress functions
 * (migrations 0005 and 0012).
 */
export function progressArguments(filter: ReportFilter): RawBuilder<unknown> {
  return sql`${projectsArgument(filter)}, ${filter.language ?? null}::text, ${componentsArgument(filter)}`;
}

/**
 * `and …` for each field of the filter that is set, on the given columns of a view; a
 * field without a column is not applied.
 */
export function filterConditions(
  filter: ReportFilter,
  columns: { project?: string; language?: string; component?: string; day?: string },
): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [];
  const projects = filter.projects ?? [];
  if (columns.project !== undefined && projects.length > 0)
    conditions.push(
      sql`${sql.ref(columns.project)} in (${sql.join(projects.map((p) => sql`${p}`))})`,
    );
  if (columns.language !== undefined && filter.language != null)
    conditions.push(sql`${sql.ref(columns.language)} = ${filter.language}`);
  if (columns.component !== undefined && filter.components != null)
    conditions.push(
      filter.components.length === 0
        ? sql`false`
        : sql`${sql.ref(columns.component)} in (${sql.join(filter.components.map((c) => sql`${c}`))})`,
    );
  if (columns.day !== undefined && filter.from !== undefined)
    conditions.push(sql`${sql.ref(columns.day)} >= ${filter.from}::date`);
  if (columns.day !== undefined && filter.to !== undefined)
    conditions.push(sql`${sql.ref(columns.day)} <= ${filter.to}::date`);
  if (conditions.length === 0) return sql``;
  return sql`and ${sql.join(conditions, sql` and `)}`;
}

/** The database's clock: now, and today's UTC date (the views' "today"). */
export async function readReportClock(
  db: Kysely<Database>,
): Promise<{ now: string; today: string }> {
  const result = await sql<{ now: string; today: string }>`
    select ${iso(sql`now()`)} as now, (now() at time zone 'UTC')::date::text as today`.execute(db);
  return result.rows[0]!;
}

/** Whether the reporting views of migration 0003 and the functions of 0005 (as 0012 left them) exist. */
export async function hasReportingViews(db: Kysely<Database>): Promise<boolean> {
  const result = await sql<{ ok: boolean }>`
    select to_regclass('weblate.translation_progress') is not null
       and to_regprocedure('weblate.progress_total(text[], text, text[])') is not null as ok`.execute(
    db,
  );
  return result.rows[0]?.ok === true;
}

/** Slugs of the live projects among `slugs`. */
export async function findLiveProjects(
  db: Kysely<Database>,
  slugs: readonly string[],
): Promise<string[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .selectFrom('weblate.projects')
    .select('slug')
    .where('deleted_at', 'is', null)
    .where('slug', 'in', [...slugs])
    .execute();
  return rows.map((r) => r.slug);
}

/** Whether the mirror knows the language code (as a language or in any translation). */
export async function isKnownLanguage(db: Kysely<Database>, code: string): Promise<boolean> {
  const result = await sql<{ known: boolean }>`
    select exists (select from weblate.languages where code = ${code})
        or exists (select from weblate.translations where language_code = ${code}) as known`.execute(
    db,
  );
  return result.rows[0]?.known === true;
}

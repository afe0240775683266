import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { Database } from '../database.ts';

// Reads behind `weblate-mirror report`, over the reporting views of migration 0003
// (documented in docs/schema.md). The views aggregate over everything; a report narrowed
// to projects and a language sums the per-translation views itself, with the views' own
// expressions, so unfiltered results equal project_progress, component_progress,
// language_progress and language_progress_daily. Percentages are always computed from
// summed counts with weblate.truncated_percent, never averaged. Counts (bigint) and
// percentages (numeric) come back as exact decimal strings, days as YYYY-MM-DD and
// timestamps as ISO 8601 UTC strings.

/** Which part of the mirror a report covers; an empty `projects` means every project. */
export interface ReportScope {
  projects: readonly string[];
  language: string | null;
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

/** `and <column> in (…)` when the scope names projects. */
export function projectFilter(scope: ReportScope, column: string): RawBuilder<unknown> {
  return scope.projects.length === 0
    ? sql``
    : sql`and ${sql.ref(column)} in (${sql.join(scope.projects.map((p) => sql`${p}`))})`;
}

/** `and <column> = …` when the scope names a language. */
export function languageFilter(scope: ReportScope, column: string): RawBuilder<unknown> {
  return scope.language === null ? sql`` : sql`and ${sql.ref(column)} = ${scope.language}`;
}

/** The database's clock: now, and today's UTC date (the views' "today"). */
export async function readReportClock(
  db: Kysely<Database>,
): Promise<{ now: string; today: string }> {
  const result = await sql<{ now: string; today: string }>`
    select ${iso(sql`now()`)} as now, (now() at time zone 'UTC')::date::text as today`.execute(db);
  return result.rows[0]!;
}

/** Whether the reporting views of migration 0003 exist. */
export async function hasReportingViews(db: Kysely<Database>): Promise<boolean> {
  const result = await sql<{ ok: boolean }>`
    select to_regclass('weblate.translation_progress') is not null as ok`.execute(db);
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

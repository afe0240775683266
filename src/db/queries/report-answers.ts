import { type RawBuilder, sql } from 'kysely';

import {
  componentsArgument,
  type DayRange,
  projectsArgument,
  type ReportFilter,
} from './report-scope.ts';

// The arguments of the answer functions of migration 0010 (docs/schema.md, "Answer
// functions"), for the report's reads of them (report-work.ts, report-review.ts,
// report-readiness.ts).

/** A period unit of the answer functions: the report uses weeks, or months over long windows. */
export type PeriodUnit = 'week' | 'month';

/**
 * The period unit that makes a report's whole window one period (period_start null), so
 * that a function counting strings once per period counts them once over the window.
 */
export const WHOLE_WINDOW = sql`null::text`;

/**
 * The named arguments `only_projects`, `only_components`, `only_language` (unless
 * `hasLanguage` is false) and, with a window of UTC days, `since` and `until` (the day
 * after its last).
 */
export function answerArguments(
  filter: ReportFilter,
  options: { window?: DayRange; hasLanguage?: boolean } = {},
): RawBuilder<unknown> {
  const args = [
    sql`only_projects => ${projectsArgument(filter)}`,
    sql`only_components => ${componentsArgument(filter)}`,
  ];
  if (options.hasLanguage !== false)
    args.push(sql`only_language => ${filter.language ?? null}::text`);
  const window = options.window;
  if (window !== undefined)
    args.push(
      sql`since => (${window.from}::date)::timestamp at time zone 'UTC'`,
      sql`until => (${window.to}::date + 1)::timestamp at time zone 'UTC'`,
    );
  return sql.join(args);
}

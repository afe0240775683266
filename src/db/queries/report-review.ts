import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import { answerArguments, WHOLE_WINDOW } from './report-answers.ts';
import { type DayRange, iso, type ReportFilter } from './report-scope.ts';

// The review queue: strings waiting for approval and how long approvals took (see
// report-scope.ts for the types of the figures).

export interface ReviewWaitingRow {
  project_slug: string;
  language_code: string;
  strings_waiting: string;
  words_waiting: string;
  waiting_since: string;
  oldest_days: number;
  over_7_days: string;
  matching: string;
}

export interface ApprovalTimeRow {
  project_slug: string;
  language_code: string;
  approvals: string;
  measured: string;
  median_hours: string | null;
  average_hours: string | null;
  max_hours: string | null;
  matching: string;
}

/**
 * Strings waiting for review per project and language (strings_awaiting_review), longest
 * waiting first; `matching` is the number of groups before the limit.
 */
export async function listReviewWaiting(
  db: Kysely<Database>,
  filter: ReportFilter,
  limit: number,
): Promise<ReviewWaitingRow[]> {
  const result = await sql<ReviewWaitingRow>`
    select r.project_slug, r.language_code, count(*) as strings_waiting,
           coalesce(sum(r.num_words), 0)::bigint as words_waiting,
           ${iso(sql`min(r.waiting_since)`)} as waiting_since,
           max(r.days_waiting) as oldest_days,
           count(*) filter (where r.days_waiting >= 7) as over_7_days,
           count(*) over () as matching
    from weblate.strings_awaiting_review(${answerArguments(filter)}) r
    group by r.project_slug, r.language_code
    order by min(r.waiting_since), count(*) desc, r.project_slug, r.language_code
    limit ${limit}`.execute(db);
  return result.rows;
}

/**
 * Approvals of the window per project and language and the hours from translation to
 * approval (time_to_approval over the window as one period), most approvals first.
 */
export async function listApprovalTimes(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { window: DayRange; limit: number },
): Promise<ApprovalTimeRow[]> {
  const args = answerArguments(filter, { window: options.window });
  const result = await sql<ApprovalTimeRow>`
    select a.project_slug, a.language_code, a.approvals, a.measured, a.median_hours,
           a.average_hours, a.max_hours, count(*) over () as matching
    from weblate.time_to_approval(${WHOLE_WINDOW}, ${args}) a
    order by a.approvals desc, a.project_slug, a.language_code
    limit ${options.limit}`.execute(db);
  return result.rows;
}

import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';

// Answers that lag: Weblate dates a translation's statistics (and the counts its record
// carries) by the newest change of that translation, and recomputes them only after the
// transaction that saved the change commits (Translation.invalidate_cache, on commit). Its
// webhooks are queued on the same commit, so a sync that a webhook starts, or any read in
// that moment, can meet the change already listed and the statistics still as before it.
// A language's sums may lag its translations for longer (docs/weblate-compatibility.md).
// Such an answer is recognised by its `last_change`, older than what the mirror already
// holds, and read again rather than recorded as current.

/**
 * How long a translation whose answers keep lagging its changes is read again before the
 * mirror takes the answer as the server gives it (with a warning). Weblate catches up in a
 * moment; a server whose dates never agree with its changes costs a request per lagging
 * component per run for this long, not forever.
 */
export const LAG_PATIENCE_SECONDS = 600;

type Ref = ReturnType<typeof sql.ref>;

/** Whether the mirror holds a change of translation `id` newer than `at` (or any, if null). */
const lagsItsChanges = (id: Ref, at: Ref) => sql`exists (
  select 1 from weblate.changes c
  where c.translation_id = ${id} and (${at} is null or c.timestamp > ${at}))`;

/**
 * Ids among `ids` of the live translations in scope (of `projects`, or all when null) whose
 * mirrored record lags: its `last_change` is null or older than the newest change the
 * mirror holds for it. One index probe each.
 */
export async function findLaggingTranslations(
  db: Kysely<Database>,
  ids: ReadonlyArray<string | number>,
  projects: readonly string[] | null,
): Promise<string[]> {
  const inScope =
    projects === null
      ? sql`true`
      : projects.length === 0
        ? sql`false`
        : sql`t.project_slug in (${sql.join(projects)})`;
  const lagging: string[] = [];
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000).map(String);
    if (chunk.length === 0) continue;
    const rows = await sql<{ id: string }>`
      select t.id::text as id from weblate.translations t
      where t.id in (${sql.join(chunk)}) and t.deleted_at is null and ${inScope}
        and ${lagsItsChanges(sql.ref('t.id'), sql.ref('t.last_change'))}`.execute(db);
    lagging.push(...rows.rows.map((r) => r.id));
  }
  return lagging;
}

/** A translation's statistics as a server answered them: which translation, dated how. */
export interface StatisticsAnswer {
  translationId: number;
  lastChange: string | null;
}

/**
 * Ids of the translations whose statistics answer lags: its `last_change` is null or older
 * than the newest change the mirror holds for that translation. One index probe each.
 */
export async function findLaggingAnswers(
  db: Kysely<Database>,
  answers: readonly StatisticsAnswer[],
): Promise<Set<number>> {
  if (answers.length === 0) return new Set();
  const json = JSON.stringify(answers.map((a) => ({ id: a.translationId, at: a.lastChange })));
  const rows = await sql<{ id: string }>`
    select a.id::text as id from jsonb_to_recordset(${json}::jsonb) as a(id bigint, at timestamptz)
    where ${lagsItsChanges(sql.ref('a.id'), sql.ref('a.at'))}`.execute(db);
  return new Set(rows.rows.map((r) => Number(r.id)));
}

/** The newest `last_change` of a language's live translations in the mirror, as an SQL expression. */
const newestTranslationChange = (code: Ref | string) => sql`(
  select max(t.last_change) from weblate.translations t
  where t.language_code = ${code} and t.deleted_at is null)`;

/**
 * Ids of the languages among `codes` whose latest statistics are older than the newest
 * `last_change` of their live translations in the mirror. Weblate 5.14 may answer a
 * language's sums from a stale per-process cache (docs/weblate-compatibility.md), so such a
 * snapshot lags and is worth reading again.
 */
export async function findLaggingLanguages(
  db: Kysely<Database>,
  codes: readonly string[],
): Promise<number[]> {
  if (codes.length === 0) return [];
  const rows = await sql<{ id: number }>`
    select l.id from weblate.languages l
    join lateral (
      select s.last_change from weblate.language_statistics s
      where s.language_code = l.code order by s.captured_at desc limit 1
    ) latest on true
    where l.code in (${sql.join(codes)})
      and latest.last_change < ${newestTranslationChange(sql.ref('l.code'))}`.execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * Whether a language's statistics answer is known to be stale: the mirror already holds a
 * snapshot of it, and the answer's `last_change` is older than one of the language's live
 * translations. Recording it would step history back to what a stale cache remembers.
 */
export async function isStaleLanguageAnswer(
  db: Kysely<Database>,
  code: string,
  lastChange: string | null,
): Promise<boolean> {
  if (lastChange === null) return false;
  const row = await sql<{ stale: boolean }>`
    select exists (select 1 from weblate.language_statistics where language_code = ${code})
      and ${lastChange}::timestamptz < ${newestTranslationChange(code)} as stale`.execute(db);
  return row.rows[0]?.stale === true;
}

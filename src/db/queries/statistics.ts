import { type Kysely, sql } from 'kysely';

import type {
  Database,
  NewLanguageStatistics,
  NewTranslationStatistics,
  StatisticsValues,
} from '../database.ts';
import { type CompleteRow, dedupeByKey, jsonRecordset } from './upsert.ts';

export type TranslationStatisticsRow = CompleteRow<NewTranslationStatistics>;
export type LanguageStatisticsRow = CompleteRow<NewLanguageStatistics>;

const VALUE_COLUMN_SET: Record<keyof StatisticsValues, true> = {
  total: true,
  total_words: true,
  total_chars: true,
  translated: true,
  translated_words: true,
  translated_chars: true,
  translated_percent: true,
  translated_words_percent: true,
  translated_chars_percent: true,
  fuzzy: true,
  fuzzy_words: true,
  fuzzy_chars: true,
  fuzzy_percent: true,
  fuzzy_words_percent: true,
  fuzzy_chars_percent: true,
  approved: true,
  approved_words: true,
  approved_chars: true,
  approved_percent: true,
  approved_words_percent: true,
  approved_chars_percent: true,
  readonly: true,
  readonly_words: true,
  readonly_chars: true,
  readonly_percent: true,
  readonly_words_percent: true,
  readonly_chars_percent: true,
  failing: true,
  failing_percent: true,
  suggestions: true,
  comments: true,
  recent_changes: true,
  last_change: true,
};
/** The statistic values; a snapshot row is appended only when one of these differs. */
export const STATISTICS_VALUE_COLUMNS = Object.keys(VALUE_COLUMN_SET) as Array<
  keyof StatisticsValues
>;

export interface SnapshotResult {
  /** New history rows (some value differed from the object's latest row, or it had none). */
  appended: number;
  /** Objects whose values were unchanged: only `last_seen_at` of their latest row moved. */
  unchanged: number;
}

/** Records translation statistics as history: see `recordSnapshots`. */
export function recordTranslationStatistics(
  db: Kysely<Database>,
  rows: TranslationStatisticsRow[],
): Promise<SnapshotResult> {
  return recordSnapshots(db, 'weblate.translation_statistics', 'translation_id', rows);
}

/** Records language statistics as history: see `recordSnapshots`. */
export function recordLanguageStatistics(
  db: Kysely<Database>,
  rows: LanguageStatisticsRow[],
): Promise<SnapshotResult> {
  return recordSnapshots(db, 'weblate.language_statistics', 'language_code', rows);
}

/** The newest `last_change` of a language's live translations in the mirror, as an SQL expression. */
const newestTranslationChange = (code: ReturnType<typeof sql.ref> | string) => sql`(
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

/**
 * Appends a snapshot row per object only when a value differs from that object's latest
 * row; otherwise sets `last_seen_at` on the latest row. History grows with change, not
 * with time: the value at time T is the latest row with captured_at <= T. Each object's
 * latest row is found through the primary key (key, captured_at), one index probe per
 * object: a join the planner costs from its estimates would scan the whole history on a
 * table not analyzed yet, once per page.
 */
async function recordSnapshots(
  db: Kysely<Database>,
  table: string,
  key: string,
  rows: Array<TranslationStatisticsRow | LanguageStatisticsRow>,
): Promise<SnapshotResult> {
  if (rows.length === 0) return { appended: 0, unchanged: 0 };
  const unique = dedupeByKey(rows, [key]);
  const columns = Object.keys(unique[0]!);
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const k = sql.ref(key);
  const values = (alias: string) =>
    sql.join(STATISTICS_VALUE_COLUMNS.map((c) => sql.ref(`${alias}.${c}`)));
  const result = await sql<SnapshotResult>`
    with incoming as (select * from ${jsonRecordset(table, unique)}),
    latest as (
      select l.* from incoming i cross join lateral (
        select s.* from ${sql.table(table)} s where s.${k} = i.${k}
        order by s.captured_at desc limit 1
      ) l
    ),
    same as (
      select i.${k} as key, l.captured_at as latest_at, i.last_seen_at as seen_at
      from incoming i join latest l on l.${k} = i.${k}
      where (${values('l')}) is not distinct from (${values('i')})
    ),
    touched as (
      update ${sql.table(table)} s set last_seen_at = greatest(s.last_seen_at, same.seen_at)
      from same where s.${k} = same.key and s.captured_at = same.latest_at
      returning 1
    ),
    appended as (
      insert into ${sql.table(table)} (${list})
      select ${list} from incoming i where not exists (select 1 from same where same.key = i.${k})
      returning 1
    )
    select (select count(*) from appended)::int as appended, (select count(*) from touched)::int as unchanged
  `.execute(db);
  return result.rows[0] ?? { appended: 0, unchanged: 0 };
}

/**
 * Records the label counts of the translations whose units moved since the last call
 * (weblate.record_label_statistics, migration 0012): a row where a label's counts in a
 * translation changed. Returns how many.
 */
export async function recordLabelStatistics(db: Kysely<Database>, runId: number): Promise<number> {
  const result = await sql<{ recorded: number }>`
    select weblate.record_label_statistics(${runId}::integer) as recorded`.execute(db);
  return result.rows[0]?.recorded ?? 0;
}

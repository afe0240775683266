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

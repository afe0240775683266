import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';

/**
 * Actions that create a string (docs/history.md): 13 Source string added, 31 String added,
 * 71 String added in the repository, 73 String added in the upload. Before one, its unit
 * did not exist.
 */
export const CREATING_ACTIONS = [13, 31, 71, 73] as const;

/** Actions that remove a string: 63 String removed. After one, its unit no longer exists. */
export const REMOVING_ACTIONS = [63] as const;

export interface BackfillResult {
  /** Translations that got an estimate (a first snapshot and changes before it). */
  translations: number;
  /** Rows written: a translation's first day, and each day its estimate moved. */
  rows: number;
  /** Translation-days the estimate covers (each row holds until the next one). */
  days: number;
  /** Rows whose estimated counts went below zero or above the total and were clamped. */
  clamped: number;
}

const list = (values: readonly number[]) => sql.raw(values.join(', '));

/**
 * Rebuilds weblate.translation_progress_estimated in one transaction, counted back from each
 * translation's first snapshot through the change log (the rules: docs/history.md). Idempotent.
 */
export async function rebuildEstimates(db: Kysely<Database>): Promise<BackfillResult> {
  return db.transaction().execute(async (trx) => {
    await sql`delete from weblate.translation_progress_estimated`.execute(trx);
    const result = await sql<Omit<BackfillResult, 'days'> & { days: string }>`
      with anchor as (
        select distinct on (s.translation_id)
               s.translation_id, s.captured_at as anchored_at,
               (s.captured_at at time zone 'UTC')::date as anchor_day,
               s.total, s.total_words, s.translated, s.translated_words,
               s.fuzzy, s.fuzzy_words, s.approved, s.approved_words
        from weblate.translation_statistics s
        where s.total is not null and s.translated is not null
          and s.fuzzy is not null and s.approved is not null
        order by s.translation_id, s.captured_at
      ),
      -- The changes that say something about a string's state, with what they say:
      -- -1 is "no string", null "not logged".
      links as (
        select ch.id, ch.timestamp,
               coalesce(ch.translation_id, u.translation_id) as translation_id,
               coalesce(ch.unit_id, -ch.id) as chain,
               coalesce(u.num_words, 0) as words,
               u.state as mirrored_state,
               u.id is not null and u.deleted_at is null as is_live,
               coalesce(ch.target, '') <> '' as has_target,
               case when ch.action in (${list(CREATING_ACTIONS)}) then -1
                    when ch.details ? 'old_state' then (ch.details ->> 'old_state')::int
               end as logged_before,
               case when ch.action in (${list(REMOVING_ACTIONS)}) then -1
                    when ch.details ? 'state' then (ch.details ->> 'state')::int
               end as logged_after
        from weblate.changes ch
        left join weblate.units u on u.id = ch.unit_id
        where ch.action in (${list([...CREATING_ACTIONS, ...REMOVING_ACTIONS])})
           or (ch.details ? 'old_state' and ch.details ? 'state' and ch.unit_id is not null)
      ),
      chained as (
        select l.*,
               lead(l.id) over w as next_id,
               lead(l.logged_before) over w as next_before,
               lag(l.logged_after) over w as previous_after
        from links l
        -- In the order Weblate wrote them: changes written in one batch share a timestamp.
        window w as (partition by l.chain order by l.id)
      ),
      moves as (
        select c.translation_id, c.timestamp, c.words,
               coalesce(c.logged_before, c.previous_after, c.mirrored_state,
                        case when c.has_target then 20 else 0 end) as before_state,
               case when c.logged_after = -1 then -1
                    when c.next_id is not null and c.next_before is not null then c.next_before
                    when c.next_id is null and c.is_live then c.mirrored_state
                    else coalesce(c.logged_after, c.mirrored_state, 0)
               end as after_state
        from chained c
      ),
      vectors as (
        select m.translation_id, (m.timestamp at time zone 'UTC')::date as day,
               (m.after_state >= 0)::int - (m.before_state >= 0)::int as total,
               (m.after_state >= 20)::int - (m.before_state >= 20)::int as translated,
               (m.after_state between 10 and 19)::int - (m.before_state between 10 and 19)::int as fuzzy,
               (m.after_state = 30)::int - (m.before_state = 30)::int as approved,
               m.words
        from moves m join anchor a on a.translation_id = m.translation_id
        where m.timestamp < a.anchored_at
      ),
      per_day as (
        select v.translation_id, v.day,
               sum(v.total) as total, sum(v.total * v.words) as total_words,
               sum(v.translated) as translated, sum(v.translated * v.words) as translated_words,
               sum(v.fuzzy) as fuzzy, sum(v.fuzzy * v.words) as fuzzy_words,
               sum(v.approved) as approved, sum(v.approved * v.words) as approved_words
        from vectors v
        group by v.translation_id, v.day
      ),
      -- A translation's estimate starts with the first change of its component (its own
      -- included): a translation added later starts with its strings' additions, before which
      -- it counts nothing, so it does not jump into its language's sums.
      component_first as (
        select ch.component_id, min(ch.timestamp) as first_at
        from weblate.changes ch where ch.component_id is not null
        group by ch.component_id
      ),
      first_days as (
        select a.translation_id,
               (least(cf.first_at, tf.first_at) at time zone 'UTC')::date as first_day
        from anchor a
        join weblate.translations t on t.id = a.translation_id
        left join component_first cf on cf.component_id = t.component_id
        left join lateral (
          select min(ch.timestamp) as first_at from weblate.changes ch
          where ch.translation_id = a.translation_id
        ) tf on true
        where least(cf.first_at, tf.first_at) < a.anchored_at
      ),
      -- The days that matter: the first change's, and every day something moved (up to the
      -- snapshot's), each with what moved after it.
      moved_days as (
        select d.* from per_day d
        union all
        select f.translation_id, f.first_day, 0, 0, 0, 0, 0, 0, 0, 0 from first_days f
      ),
      grid as (
        select a.*, m.day,
               ${later('total')}, ${later('total_words')},
               ${later('translated')}, ${later('translated_words')},
               ${later('fuzzy')}, ${later('fuzzy_words')},
               ${later('approved')}, ${later('approved_words')}
        from (select translation_id, day, sum(total) as total, sum(total_words) as total_words,
                     sum(translated) as translated, sum(translated_words) as translated_words,
                     sum(fuzzy) as fuzzy, sum(fuzzy_words) as fuzzy_words,
                     sum(approved) as approved, sum(approved_words) as approved_words
              from moved_days group by translation_id, day) m
        join anchor a on a.translation_id = m.translation_id
        window later as (partition by m.translation_id order by m.day desc
                         rows between unbounded preceding and 1 preceding)
      ),
      raw as (
        select g.translation_id, g.day, g.anchored_at,
               g.total - g.later_total as total,
               g.total_words - g.later_total_words as total_words,
               g.translated - g.later_translated as translated,
               g.translated_words - g.later_translated_words as translated_words,
               g.fuzzy - g.later_fuzzy as fuzzy,
               g.fuzzy_words - g.later_fuzzy_words as fuzzy_words,
               g.approved - g.later_approved as approved,
               g.approved_words - g.later_approved_words as approved_words
        from grid g
        where g.day < g.anchor_day
      ),
      clamped as (
        select r.*, greatest(r.total, 0) as kept_total, greatest(r.total_words, 0) as kept_total_words
        from raw r
      ),
      written as (
        insert into weblate.translation_progress_estimated (
          translation_id, day, total, total_words, translated, translated_words,
          fuzzy, fuzzy_words, approved, approved_words, anchored_at)
        select c.translation_id, c.day, c.kept_total, c.kept_total_words,
               ${bounded('translated', 'kept_total')}, ${bounded('translated_words', 'kept_total_words')},
               ${bounded('fuzzy', 'kept_total')}, ${bounded('fuzzy_words', 'kept_total_words')},
               ${bounded('approved', 'kept_total')}, ${bounded('approved_words', 'kept_total_words')},
               c.anchored_at
        from clamped c
        returning translation_id
      )
      select (select count(distinct translation_id) from written)::int as translations,
             (select count(*) from written)::int as rows,
             (select coalesce(sum(a.anchor_day - f.first_day), 0) from first_days f
               join anchor a on a.translation_id = f.translation_id
               where f.first_day < a.anchor_day)::bigint::text as days,
             (select count(*) from clamped c
               where c.total < 0 or c.translated not between 0 and c.kept_total
                  or c.fuzzy not between 0 and c.kept_total
                  or c.approved not between 0 and c.kept_total)::int as clamped`.execute(trx);
    const row = result.rows[0]!;
    return { ...row, days: Number(row.days) };
  });
}

/** The moves of a figure on the days after the grid's day (a window over `later`). */
function later(figure: string) {
  return sql.raw(`coalesce(sum(m.${figure}) over later, 0) as later_${figure}`);
}

/** A count kept within 0 and its total (null stays null: words an older server did not send). */
function bounded(figure: string, total: string) {
  return sql.raw(`least(greatest(c.${figure}, 0), c.${total})`);
}

/** The first day any estimate covers (YYYY-MM-DD), or null without estimates. */
export async function firstEstimatedDay(db: Kysely<Database>): Promise<string | null> {
  const result = await sql<{ day: string | null }>`
    select to_char(min(day), 'YYYY-MM-DD') as day
    from weblate.translation_progress_estimated`.execute(db);
  return result.rows[0]?.day ?? null;
}

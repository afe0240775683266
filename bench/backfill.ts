import type { Kysely } from 'kysely';
import { sql } from 'kysely';

import { createDb } from '../src/db/client.ts';
import type { Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { rebuildEstimates } from '../src/db/queries/backfill.ts';

/**
 * `weblate-mirror backfill` at scale, on PostgreSQL: a mirror of `units` strings in
 * `translations` translations with `changes` changes over two years, built directly in SQL
 * (the sync is measured elsewhere), then the estimate against the one pass over the changes
 * that any day-by-day estimate needs: every change read once with its string's words and
 * grouped by translation and day.
 */
export interface BackfillShape {
  units: number;
  changes: number;
  translations: number;
}

export interface BackfillResult extends BackfillShape {
  /** The backfill's time, in ms. */
  ms: number;
  /** The single pass's time, in ms. */
  passMs: number;
  days: number;
  rows: number;
  /** The PostgreSQL backend's temporary files (work_mem spills): its memory stays bounded. */
  tempMb: number;
}

export async function benchBackfill(url: string, shape: BackfillShape): Promise<BackfillResult> {
  const handle = await createDb({ databaseUrl: url, dataDir: '' });
  try {
    await migrateToLatest(handle);
    await fill(handle.db, shape);
    await sql`analyze`.execute(handle.db);
    const timed = async <T>(fn: () => Promise<T>) => {
      const started = performance.now();
      const value = await fn();
      return { value, ms: performance.now() - started };
    };
    const temp = async () =>
      Number(
        (
          await sql<{ bytes: string }>`
            select temp_bytes::text as bytes from pg_stat_database where datname = current_database()`.execute(
            handle.db,
          )
        ).rows[0]!.bytes,
      );
    // Warm the cache once, then time the pass and the backfill alike.
    await singlePass(handle.db);
    const pass = await timed(() => singlePass(handle.db));
    const tempBefore = await temp();
    const backfill = await timed(() => rebuildEstimates(handle.db));
    return {
      ...shape,
      ms: Math.round(backfill.ms),
      passMs: Math.round(pass.ms),
      days: backfill.value.days,
      rows: backfill.value.rows,
      tempMb: Math.round(((await temp()) - tempBefore) / 1_048_576),
    };
  } finally {
    await handle.close();
  }
}

function singlePass(db: Kysely<Database>) {
  return sql`
    select c.translation_id, (c.timestamp at time zone 'UTC')::date as day,
           count(*), sum(coalesce(u.num_words, 0))
    from weblate.changes c left join weblate.units u on u.id = c.unit_id
    group by 1, 2`.execute(db);
}

/** A synthetic mirror: one project, 50 translations a component, states and words at random. */
async function fill(db: Kysely<Database>, shape: BackfillShape): Promise<void> {
  const { units, changes, translations } = shape;
  const components = Math.ceil(translations / 50);
  await sql`insert into weblate.projects (id, slug, name, raw) values (1, 'p', 'P', '{}')`.execute(
    db,
  );
  await sql`insert into weblate.components (id, project_id, project_slug, slug, name, raw)
    select c, 1, 'p', 'c' || c, 'C' || c, '{}' from generate_series(1, ${components}) c`.execute(
    db,
  );
  await sql`insert into weblate.translations (id, component_id, project_slug, component_slug,
      language_code, is_source, raw)
    select t, 1 + (t - 1) / 50, 'p', 'c' || (1 + (t - 1) / 50), 'l' || ((t - 1) % 50), false, '{}'
    from generate_series(1, ${translations}) t`.execute(db);
  await sql`insert into weblate.units (id, translation_id, source, target, id_hash, content_hash,
      position, state, num_words, raw)
    select u, 1 + u % ${translations}, '{s}', '{t}', u, u, u,
      (array[0, 10, 20, 20, 30])[1 + (u * 7) % 5], 1 + u % 9, '{}'
    from generate_series(1, ${units}) u`.execute(db);
  // Each change a move between two states of a random string, at a time within two years.
  await sql`insert into weblate.changes (id, action, unit_id, translation_id, component_id,
      project_slug, component_slug, language_code, timestamp, details, raw)
    select c.id, 5, c.unit, 1 + c.unit % ${translations}, 1, 'p', 'c1', 'l0',
      now() - interval '1 day' - (c.id::double precision / ${changes}) * interval '730 days',
      jsonb_build_object('old_state', (array[0, 10, 20])[1 + c.id % 3],
                         'state', (array[20, 30, 10])[1 + c.id % 3]),
      '{}'
    from (select id, 1 + (id::bigint * 7919) % ${units} as unit from generate_series(1, ${changes}) id) c`.execute(
    db,
  );
  await sql`insert into weblate.translation_statistics (translation_id, captured_at, last_seen_at,
      project_slug, component_slug, language_code, total, total_words, translated,
      translated_words, approved, approved_words, fuzzy, fuzzy_words, raw)
    select t.id, now(), now(), 'p', t.component_slug, t.language_code,
      count(u.id), sum(u.num_words), count(*) filter (where u.state >= 20),
      sum(u.num_words) filter (where u.state >= 20), count(*) filter (where u.state = 30),
      sum(u.num_words) filter (where u.state = 30), count(*) filter (where u.state = 10),
      sum(u.num_words) filter (where u.state = 10), '{}'
    from weblate.translations t join weblate.units u on u.translation_id = t.id
    group by t.id`.execute(db);
}

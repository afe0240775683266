import { type Kysely, sql } from 'kysely';

import type { Database } from '../../src/db/database.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { fillAutomatically } from '../../src/simulator/machine-fills.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { syncSimulator } from './sync.ts';

/** A project name that must come out escaped in HTML and quoted in CSV. */
export const HOSTILE_NAME = `<script>document.title="pwned"</script> & "Friends", Ltd`;

export interface ReportFixture {
  sim: RunningSimulator;
  database: TestDatabase;
  /** Slug of the project renamed to HOSTILE_NAME. */
  hostileProject: string;
}

/**
 * A small simulated instance synced into a fresh database, plus history the simulator
 * cannot give (its changes are from 2024–2025 and every statistics row is from the sync):
 * statistics snapshots on days 40, 20, 9 and 3 before today with fewer strings translated
 * (a few translations with more, so that some move down), and copies of 150 changes
 * spread unevenly over the last 26 days, and 4 source strings of one component added 2 days
 * ago, logged in every translation (as Weblate may log them). The instance has categories,
 * with components in them (and the first component at the top of a project that has a nested
 * category moved into it, so that a category holds a component through another), and labels
 * on strings; label history gets a day 9 days before
 * today on which every label's strings had one fewer translated string in each translation
 * with an even id (where there was one). Leaves the database closed, so a CLI process can open it.
 */
export async function createReportFixture(): Promise<ReportFixture> {
  const sim = await startSimulator({
    seed: 11,
    projects: 2,
    components: 3,
    languages: 4,
    units: 500,
    changes: 400,
    users: 3,
    categoriesAndLabels: true,
  });
  fillAutomatically(sim);
  const database = await createTestDatabase();
  const handle = await database.migrated();
  try {
    const result = await syncSimulator(sim, handle);
    if (result.status !== 'succeeded')
      throw new Error(`sync ${result.status}`, { cause: result.error });
    await insertHistory(handle.db);
    await insertRecentChanges(handle.db);
    await insertNewStrings(handle.db);
    await insertLabelHistory(handle.db);
    await nestComponent(handle.db);
    const hostileProject = await renameProject(handle.db, HOSTILE_NAME);
    return { sim, database, hostileProject };
  } finally {
    await handle.close();
  }
}

async function insertHistory(db: Kysely<Database>): Promise<void> {
  // (days ago, strings fewer than today per unit of translation_id % 3).
  await sql`
    with latest as (
      select distinct on (s.translation_id) s.*
      from weblate.translation_statistics s
      order by s.translation_id, s.captured_at desc
    )
    insert into weblate.translation_statistics (translation_id, captured_at, last_seen_at,
      project_slug, component_slug, language_code, total, total_words, translated,
      translated_words, fuzzy, approved, approved_words, failing, raw)
    select s.translation_id, c.at, c.at, s.project_slug, s.component_slug, s.language_code,
           s.total, s.total_words, p.translated,
           least(s.total_words, greatest(0, s.translated_words + (p.translated - s.translated) * 3)),
           s.fuzzy, s.approved, s.approved_words, s.failing, '{}'::jsonb
    from latest s
    cross join (values (40, 6), (20, 4), (9, 3), (3, 1)) as h(days_ago, step)
    cross join lateral (
      select ((now() at time zone 'UTC')::date - h.days_ago)::timestamp at time zone 'UTC'
             + interval '10 hours' as at
    ) c
    cross join lateral (
      select least(s.total, greatest(0, s.translated
        - h.step * (s.translation_id % 3)
        + case when s.translation_id % 5 = 0 then h.step else 0 end)) as translated
    ) p
    where s.total is not null and s.translated is not null`.execute(db);
}

async function insertRecentChanges(db: Kysely<Database>): Promise<void> {
  await sql`
    insert into weblate.changes (id, action, unit_id, translation_id, component_id, project_slug,
      component_slug, language_code, author_name, user_name, timestamp, raw)
    select c.id + 100000000, c.action, c.unit_id, c.translation_id, c.component_id, c.project_slug,
           c.component_slug, c.language_code, c.author_name, c.user_name,
           ((now() at time zone 'UTC')::date - (c.n * c.n) % 26)::timestamp at time zone 'UTC'
             + interval '1 hour' * (c.n % 20),
           '{}'::jsonb
    from (
      select ch.*, row_number() over (order by ch.id)::integer as n
      from weblate.changes ch
      order by ch.id
      limit 150
    ) c`.execute(db);
}

async function insertNewStrings(db: Kysely<Database>): Promise<void> {
  await sql`
    with strings as (
      select distinct u.id_hash, t.component_id
      from weblate.units u join weblate.translations t on t.id = u.translation_id
      where t.component_id = (select min(id) from weblate.components where deleted_at is null)
      order by u.id_hash
      limit 4
    )
    insert into weblate.changes (id, action, unit_id, translation_id, component_id, project_slug,
      component_slug, language_code, user_name, timestamp, raw)
    select 200000000 + row_number() over (order by u.id), 31, u.id, t.id, c.id, c.project_slug,
           c.slug, t.language_code, 'admin',
           ((now() at time zone 'UTC')::date - 2)::timestamp at time zone 'UTC', '{}'::jsonb
    from strings s
    join weblate.translations t on t.component_id = s.component_id
    join weblate.units u on u.translation_id = t.id and u.id_hash = s.id_hash
    join weblate.components c on c.id = t.component_id`.execute(db);
}

/** The day LABEL_HISTORY_DAYS before today, for each label row the sync recorded. */
export const LABEL_HISTORY_DAYS = 9;

async function insertLabelHistory(db: Kysely<Database>): Promise<void> {
  await sql`
    insert into weblate.label_statistics (label_id, translation_id, captured_at, total,
      total_words, translated, translated_words, fuzzy, fuzzy_words, approved, approved_words,
      failing)
    select s.label_id, s.translation_id,
           ((now() at time zone 'UTC')::date - ${LABEL_HISTORY_DAYS}::integer)::timestamp
             at time zone 'UTC' + interval '10 hours',
           s.total, s.total_words,
           greatest(0, s.translated - case when s.translation_id % 2 = 0 then 1 else 0 end),
           s.translated_words, s.fuzzy, s.fuzzy_words,
           least(s.approved, greatest(0, s.translated - case when s.translation_id % 2 = 0 then 1 else 0 end)),
           s.approved_words, s.failing
    from weblate.label_statistics s`.execute(db);
}

async function nestComponent(db: Kysely<Database>): Promise<void> {
  await sql`
    with nested as (
      select k.id, k.project_id from weblate.categories k
      where k.parent_id is not null and k.deleted_at is null
      order by k.id limit 1
    )
    update weblate.components c set category_id = n.id
    from nested n
    where c.id = (select min(t.id) from weblate.components t
                  where t.project_id = n.project_id and t.category_id is null
                    and t.deleted_at is null)`.execute(db);
}

async function renameProject(db: Kysely<Database>, name: string): Promise<string> {
  const project = await db
    .selectFrom('weblate.projects')
    .select('slug')
    .where('deleted_at', 'is', null)
    .orderBy('slug')
    .executeTakeFirstOrThrow();
  await db.updateTable('weblate.projects').set({ name }).where('slug', '=', project.slug).execute();
  return project.slug;
}

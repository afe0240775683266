import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { listMovers } from '../../src/db/queries/report-activity.ts';
import type { ReportFilter } from '../../src/db/queries/report-scope.ts';
import { migrateTo } from '../../src/db/schema-migrations.ts';
import { useTestDatabases } from '../helpers/database.ts';

// Migration 0014 rewrites the daily progress reads over spans of days. They must give the
// rows the definitions before it gave, on a history with every shape they meet: several
// snapshots a day, estimates before, after and without a snapshot, deleted translations,
// unknown failing counts and word counts, sources, components joining late.

const databases = useTestDatabases();

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
const utcDay = (offset: number) =>
  new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + offset * DAY_MS).toISOString().slice(0, 10);

/** One statement inserting `rows` (each a list of values) into `table`'s `columns`. */
async function insertRows(
  db: Kysely<Database>,
  table: string,
  columns: string,
  rows: readonly (readonly unknown[])[],
  suffix = sql``,
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => sql`(${sql.join(row.map((v) => sql`${v}`))})`);
  await sql`insert into ${sql.table(`weblate.${table}`)} (${sql.raw(columns)})
    values ${sql.join(values)} ${suffix}`.execute(db);
}

/**
 * The history, one statement per table (the embedded database is slow per statement): rows
 * are made in the order, and from the draws, that one insert each would take them in.
 */
async function seed(db: Kysely<Database>, next: () => number): Promise<void> {
  const pick = (n: number) => Math.floor(next() * n);
  const now = sql`now()`;
  const projects: unknown[][] = [];
  const categories: unknown[][] = [];
  const components: unknown[][] = [];
  const translations: unknown[][] = [];
  const statistics: unknown[][] = [];
  const estimates: unknown[][] = [];
  let translationId = 0;
  for (let p = 1; p <= 3; p++) {
    projects.push([p, `p${p}`, `Project ${p}`, '{}']);
    // A category with a subcategory: c1 in the parent, c2 in the child, c3 in none.
    for (const [id, parent] of [
      [p * 100, null],
      [p * 100 + 1, p * 100],
    ] as const)
      categories.push([id, p, `p${p}`, `k${id}`, `Category ${id}`, parent, '{}']);
    for (let c = 1; c <= 3; c++) {
      const componentId = p * 10 + c;
      const categoryId = c === 3 ? null : p * 100 + c - 1;
      components.push([componentId, p, `p${p}`, `c${c}`, `Component ${c}`, categoryId, '{}']);
      for (const language of ['en', 'de', 'fr', 'ar']) {
        const id = ++translationId;
        const isSource = language === 'en';
        // One translation in seven was removed some days ago.
        const deletedAt = pick(7) === 0 ? `${utcDay(-pick(20))}T0${pick(10)}:30:00Z` : null;
        translations.push([id, componentId, `p${p}`, `c${c}`, language, isSource, deletedAt, '{}']);
        // Snapshots: none for some, up to six, sometimes two on one day; the first may be
        // weeks ago or today.
        const snapshots = pick(4) === 0 ? 0 : 1 + pick(6);
        let offset = -45 + pick(40);
        let firstDay: number | null = null;
        for (let s = 0; s < snapshots && offset <= 0; s++) {
          firstDay ??= offset;
          const total = 50 + pick(50);
          const translated = pick(total + 1);
          const at = `${utcDay(offset)}T${String(8 + pick(12)).padStart(2, '0')}:${String(pick(60)).padStart(2, '0')}:00Z`;
          statistics.push([
            id,
            at,
            at,
            `p${p}`,
            `c${c}`,
            language,
            total,
            pick(5) === 0 ? null : total * 3,
            translated,
            translated * 3,
            pick(5),
            pick(15),
            pick(translated + 1),
            pick(20),
            pick(4) === 0 ? null : pick(9),
            '{}',
          ]);
          offset += pick(3) === 0 ? 0 : 1 + pick(9);
        }
        // Estimates: before the first snapshot, and now and then one on or after it (which
        // a measured day overrides) or with no snapshot at all.
        if (pick(3) !== 0) {
          const until = firstDay ?? -pick(5);
          let day = until - 5 - pick(30);
          while (day < until + (pick(4) === 0 ? 3 : 0)) {
            const total = 40 + pick(50);
            const translated = pick(total + 1);
            estimates.push([
              id,
              utcDay(day),
              total,
              pick(5) === 0 ? null : total * 2,
              translated,
              pick(5) === 0 ? null : translated * 2,
              pick(4),
              pick(8),
              pick(translated + 1),
              pick(10),
              now,
            ]);
            day += 1 + pick(8);
          }
        }
      }
    }
  }
  await insertRows(db, 'projects', 'id, slug, name, raw', projects);
  await insertRows(
    db,
    'categories',
    'id, project_id, project_slug, slug, name, parent_id, raw',
    categories,
  );
  await insertRows(
    db,
    'components',
    'id, project_id, project_slug, slug, name, category_id, raw',
    components,
  );
  await insertRows(
    db,
    'translations',
    'id, component_id, project_slug, component_slug, language_code, is_source, deleted_at, raw',
    translations,
  );
  // Two snapshots drawn at the same minute: the first is kept, as one insert each kept it.
  await insertRows(
    db,
    'translation_statistics',
    `translation_id, captured_at, last_seen_at, project_slug, component_slug, language_code,
     total, total_words, translated, translated_words, fuzzy, fuzzy_words, approved,
     approved_words, failing, raw`,
    statistics,
    sql`on conflict do nothing`,
  );
  await insertRows(
    db,
    'translation_progress_estimated',
    `translation_id, day, total, total_words, translated, translated_words, fuzzy, fuzzy_words,
     approved, approved_words, anchored_at`,
    estimates,
  );
}

/** Every read 0014 changes, with and without each filter. */
const READS: readonly (readonly [string, string])[] = [
  ['translation_progress_daily', 'select * from weblate.translation_progress_daily'],
  [
    'translation_progress_daily, today',
    `select * from weblate.translation_progress_daily where day = (now() at time zone 'UTC')::date`,
  ],
  [
    'translation_progress_daily, a project',
    `select * from weblate.translation_progress_daily where project_slug = 'p2'`,
  ],
  ['language_progress_daily', 'select * from weblate.language_progress_daily'],
  ['project_progress_daily', 'select * from weblate.project_progress_daily'],
  ['component_progress_daily', 'select * from weblate.component_progress_daily'],
  ['category_progress_daily', 'select * from weblate.category_progress_daily'],
  ...[
    `'week'`,
    `'day'`,
    `'month', 'language'`,
    `'quarter', only_projects => array['p1']`,
    `'year', only_language => 'de'`,
    `null`,
    `'weeks'`,
    `'hour', 'language'`,
    `'week', since => now() - interval '9 days', until => now() - interval '2 days'`,
    `'month', 'translation', array['p2'], array['c1'], 'fr', now() - interval '40 days'`,
  ].map(
    (args) => [`failing_checks(${args})`, `select * from weblate.failing_checks(${args})`] as const,
  ),
  ...['language', 'project', 'component', 'category'].flatMap(
    (group) =>
      [
        [
          `${group}, projects`,
          `select * from weblate.progress_by_${group}_daily(array['p1', 'p3'])`,
        ],
        [`${group}, language`, `select * from weblate.progress_by_${group}_daily(null, 'ar')`],
        [
          `${group}, components`,
          `select * from weblate.progress_by_${group}_daily(null, null, array['c2'])`,
        ],
        [
          `${group}, all three`,
          `select * from weblate.progress_by_${group}_daily(array['p2'], 'de', array['c1', 'c3'])`,
        ],
      ] as const,
  ),
];

async function readAll(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [name, query] of READS) {
    const { rows } = await sql.raw(query).execute(db);
    out[name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

describe('migration 0014: daily progress over spans', () => {
  it('gives the rows of the definitions it replaces', async () => {
    const database = await databases.create({ empty: true });
    const handle = await database.open();
    await migrateTo(handle.db, '0013_mirror_users');
    await seed(handle.db, random(14));
    // Every read ends today: a day that ends between the two reads makes them incomparable,
    // so they are read again from 0013's definitions (0014 rolled back).
    let before: Record<string, string[]> = {};
    let after: Record<string, string[]> = {};
    for (let attempt = 1; attempt <= 2; attempt++) {
      const today = utcDay(0);
      await migrateTo(handle.db, '0013_mirror_users');
      before = await readAll(handle.db);
      await migrateToLatest(handle);
      after = await readAll(handle.db);
      if (utcDay(0) === today) break;
    }
    for (const [name] of READS) expect.soft(after[name], name).toEqual(before[name]);
    // The history is not trivially empty: every kind of row was compared.
    const origins = new Set(
      after['translation_progress_daily']!.map((r) => (JSON.parse(r) as { origin: string }).origin),
    );
    expect(origins).toEqual(new Set(['measured', 'estimated']));
    expect(after['language_progress_daily']!.length).toBeGreaterThan(100);
    expect(after['category_progress_daily']!.length).toBeGreaterThan(100);
    expect(after[`failing_checks('day')`]!.length).toBeGreaterThan(100);
  });

  it('gives the report the movers the daily view gives', async () => {
    const handle = await databases.migrated();
    await seed(handle.db, random(26));
    // The movers as they were read before: from translation_progress_daily.
    const fromDays = async (filter: ReportFilter, baselineDay: string, today: string) => {
      const { rows } = await sql<Record<string, unknown>>`
        with now_rows as (
          select d.* from weblate.translation_progress_daily d where d.day = ${today}::date
        ), base as (
          select distinct on (d.translation_id) d.* from weblate.translation_progress_daily d
          where d.day between ${baselineDay}::date and ${today}::date
          order by d.translation_id, d.day
        )
        select n.project_slug, n.component_slug, n.language_code, b.day::text as from_day,
               b.origin as from_origin, b.translated_percent as translated_percent_then,
               n.translated_percent as translated_percent_now,
               n.translated_percent - b.translated_percent as translated_percent_change,
               b.translated_words as translated_words_before,
               n.translated_words as translated_words_now,
               n.translated_words - b.translated_words as translated_words_change,
               count(*) over () as matching
        from now_rows n join base b on b.translation_id = n.translation_id
        where (n.translated is distinct from b.translated
               or n.translated_words is distinct from b.translated_words
               or n.total is distinct from b.total)
          and (${filter.projects ?? null}::text[] is null or n.project_slug = any(${filter.projects ?? null}::text[]))
          and (${filter.language ?? null}::text is null or n.language_code = ${filter.language ?? null}::text)`.execute(
        handle.db,
      );
      return rows;
    };
    const sorted = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r)).sort();
    let compared = 0;
    for (const filter of [{}, { projects: ['p2'] }, { language: 'ar' }] as ReportFilter[])
      for (const [baseline, today] of [
        [-7, 0],
        [-30, 0],
        [-60, -10],
      ] as const) {
        const range = [utcDay(baseline), utcDay(today)] as const;
        const movers = await listMovers(handle.db, filter, {
          baselineDay: range[0],
          today: range[1],
          limit: 10_000,
        });
        expect
          .soft(sorted(movers), JSON.stringify([filter, range]))
          .toEqual(sorted(await fromDays(filter, ...range)));
        compared += movers.length;
      }
    expect(compared).toBeGreaterThan(20);
  });

  it('turns JIT off for the database, and its rollback turns it back', async () => {
    // From the migrated template, 0014 rolled back and applied again: a database cloned from
    // a template on PostgreSQL does not inherit the template's settings, so what is checked
    // is this database's own 0014 (the migrations before it do not touch the setting).
    const handle = await databases.migrated();
    const config = async () => {
      const { rows } = await sql<{ setconfig: string[] }>`
        select s.setconfig from pg_db_role_setting s
        join pg_database d on d.oid = s.setdatabase
        where d.datname = current_database() and s.setrole = 0`.execute(handle.db);
      return rows[0]?.setconfig ?? [];
    };
    await migrateTo(handle.db, '0013_mirror_users');
    await migrateToLatest(handle);
    expect(await config()).toContain('jit=off');
    await migrateTo(handle.db, '0013_mirror_users');
    expect(await config()).not.toContain('jit=off');
    await migrateToLatest(handle);
    expect(await config()).toContain('jit=off');
  });
});

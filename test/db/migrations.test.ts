import { readdirSync } from 'node:fs';

import { type KyselyPlugin, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import {
  LEGACY_MIGRATION_LOCK_KEY,
  migrateDownToZero,
  migrateToLatest,
  pendingMigrations,
} from '../../src/db/migrator.ts';
import { databaseEnv, runCli } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { DATABASE_KIND, type TestDatabase, useTestDatabases } from '../helpers/database.ts';

const databases = useTestDatabases();

/** Every migration in migrations/, by name, in the order they apply. */
const MIGRATIONS = readdirSync(new URL('../../migrations', import.meta.url))
  .filter((f) => /^\d{4}_\w+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

/** The reporting views of 0003_add_reporting_views. */
const VIEWS = [
  'activity_daily',
  'category_progress',
  'category_progress_daily',
  'category_tree',
  'completion_forecast',
  'component_progress',
  'component_progress_daily',
  'contributors',
  'label_progress',
  'label_progress_daily',
  'labelled_units',
  'language_completion_forecast',
  'language_progress',
  'language_progress_daily',
  'project_progress',
  'project_progress_daily',
  'stalled_translations',
  'sync_freshness',
  'translation_progress',
  'translation_progress_daily',
];

/**
 * The functions of 0003_add_reporting_views, 0005_add_progress_functions,
 * 0010_add_answer_views, 0011_mirror_categories_labels (the trigger's),
 * 0012_add_category_label_progress, 0013_mirror_users (the trigger's), 0015_one_history,
 * 0018_translator_work_and_cost, 0019_add_post_edits and 0020_time_in_state.
 */
const FUNCTIONS = [
  'automatic_share()',
  'contributions()',
  'cost_estimate()',
  'failing_checks()',
  'idle_translations()',
  'keep_unit_labels()',
  'linear_percentile()',
  'machine_translation_fills()',
  'machine_translation_outcomes()',
  'memory_similarities()',
  'memory_similarity()',
  'note_change_users()',
  'post_edits()',
  'progress_by_category()',
  'progress_by_category_daily()',
  'progress_by_component()',
  'progress_by_component_daily()',
  'progress_by_language()',
  'progress_by_label()',
  'progress_by_label_daily()',
  'progress_by_language_daily()',
  'progress_by_project()',
  'progress_by_project_daily()',
  'progress_total()',
  'record_label_statistics()',
  'release_readiness()',
  'source_string_changes()',
  'state_spans()',
  'strings_awaiting_review()',
  'strings_over_target()',
  'time_in_state()',
  'time_to_approval()',
  'translation_methods()',
  'translation_pace()',
  'translation_progress_spans()',
  'translator_work()',
  'translator_work_by_person()',
  'translator_work_days()',
  'truncated_percent()',
];

/** A database with no migration applied. */
function freshDatabase(): Promise<TestDatabase> {
  return databases.create({ empty: true });
}

async function weblateTables(handle: Awaited<ReturnType<TestDatabase['open']>>): Promise<string[]> {
  const result = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'weblate' and table_type = 'BASE TABLE' and table_name not like 'kysely%'
    order by 1`.execute(handle.db);
  return result.rows.map((r) => r.name);
}

/** Views and functions of the schema. */
async function weblateViewsAndFunctions(
  handle: Awaited<ReturnType<TestDatabase['open']>>,
): Promise<string[]> {
  const result = await sql<{ name: string }>`
    select table_name as name from information_schema.views where table_schema = 'weblate'
    union all
    select p.proname || '()' from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'weblate'`.execute(handle.db);
  return result.rows.map((r) => r.name).sort();
}

describe('migrations', () => {
  it('go up from empty, down to zero and up again', async () => {
    const database = await freshDatabase();
    const handle = await database.open();
    expect(await pendingMigrations(handle)).toContain('0001_create_weblate_schema');
    const first = await migrateToLatest(handle);
    expect(MIGRATIONS.slice(0, 3)).toEqual([
      '0001_create_weblate_schema',
      '0002_add_incremental_state',
      '0003_add_reporting_views',
    ]);
    expect(first.applied).toEqual(MIGRATIONS);
    expect(await weblateTables(handle)).toEqual([
      'categories',
      'change_actions',
      'changes',
      'components',
      'instances',
      'label_statistics',
      'label_statistics_due',
      'labels',
      'language_statistics',
      'languages',
      'notification_subscriptions',
      'projects',
      'rejected_records',
      'sync_cursors',
      'sync_pending',
      'sync_runs',
      'translation_progress_estimated',
      'translation_statistics',
      'translations',
      'unit_labels',
      'unit_states',
      'units',
      'users',
      'users_due',
      'watch_alerts',
      'watch_deliveries',
      'watch_digests',
      'watch_evaluations',
      'watch_events',
    ]);
    const states = await sql<{
      state: number;
      name: string;
    }>`select state, name from weblate.unit_states order by state`.execute(handle.db);
    expect(states.rows.map((r) => r.state)).toEqual([0, 10, 11, 12, 20, 30, 100]);
    expect(await weblateViewsAndFunctions(handle)).toEqual([...VIEWS, ...FUNCTIONS].sort());
    await migrateDownToZero(handle);
    expect(await weblateTables(handle)).toEqual([]);
    expect(await weblateViewsAndFunctions(handle)).toEqual([]);
    await migrateToLatest(handle);
    expect(await weblateTables(handle)).toHaveLength(29);
    expect(await weblateViewsAndFunctions(handle)).toHaveLength(VIEWS.length + FUNCTIONS.length);
    expect((await migrateToLatest(handle)).applied).toEqual([]);
    expect(await pendingMigrations(handle)).toEqual([]);
  });

  it('check an up-to-date database by its migrations table alone', async () => {
    const database = await databases.create();
    const handle = await database.migrated();
    const statements: string[] = [];
    const recording: KyselyPlugin = {
      transformQuery: ({ node }) => {
        statements.push(handle.db.getExecutor().compileQuery(node, { queryId: '' }).sql);
        return node;
      },
      transformResult: ({ result }) => Promise.resolve(result),
    };
    try {
      const watched = { ...handle, db: handle.db.withPlugin(recording) };
      expect(await migrateToLatest(watched)).toEqual({ applied: [], pending: [] });
      // Kysely's migrator reads the catalogue's columns of every table (pg_attribute) to
      // find its own tables: 0.7 CPU-seconds a command on PGlite (docs/performance.md).
      expect(statements.filter((s) => /pg_attribute|pg_namespace/.test(s))).toEqual([]);
      // Besides the migration locks, which PostgreSQL takes through the same connections.
      const reads = statements.filter((s) => !/pg_(try_)?advisory_(un)?lock/.test(s));
      expect(reads.map((s) => s.replace(/\s+/g, ' ').trim())).toEqual([
        "select to_regclass('weblate.kysely_migration')::text as found",
        'select name from weblate.kysely_migration order by name',
      ]);
    } finally {
      await handle.close();
    }
  });

  it('are safe from two processes at once', async () => {
    const database = await freshDatabase();
    const env = databaseEnv(database);
    const [a, b] = await Promise.all([runCli(['migrate'], env), runCli(['migrate'], env)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.stdout).toMatch(/is up to date/);
    expect(b.stdout).toMatch(/is up to date/);
    // Exactly one of them applied the migration; the other found nothing left to do.
    const appliers = [a, b].filter((r) => r.stderr.includes('"msg":"migrations applied"'));
    expect(appliers).toHaveLength(1);
    for (const line of `${a.stderr}${b.stderr}`.split('\n').filter((l) => l !== '')) {
      expect((JSON.parse(line) as { level: number }).level).toBeLessThanOrEqual(30);
    }
    const handle = await database.open();
    expect(await pendingMigrations(handle)).toEqual([]);
    const applied = await sql<{
      n: number;
    }>`select count(*)::int as n from weblate.kysely_migration`.execute(handle.db);
    expect(applied.rows[0]?.n).toBe(MIGRATIONS.length);
  });

  it('refuse a database a newer release migrated, and leave it as it was', async () => {
    const database = await databases.create();
    const handle = await database.migrated();
    await sql`insert into weblate.kysely_migration (name, timestamp)
      values ('9999_from_a_newer_release', now()::text)`.execute(handle.db);
    const said = new RegExp(
      `^the database at .+ was migrated by a newer weblate-mirror: migration ` +
        `9999_from_a_newer_release is unknown to this release, whose newest is ` +
        `${MIGRATIONS.at(-1)!}; upgrade weblate-mirror to use it$`,
    );
    await expect(migrateToLatest(handle)).rejects.toThrow(said);
    await handle.close();
    // The embedded database is one process's at a time: the command runs once it is closed.
    const sync = await runCliInProcess(['sync'], {
      ...databaseEnv(database),
      WEBLATE_URL: 'http://127.0.0.1:9',
    });
    expect([sync.code, sync.stdout]).toEqual([1, '']);
    expect(sync.stderr.trimEnd()).toMatch(new RegExp(`^weblate-mirror: ${said.source.slice(1)}`));
    const after = await database.open();
    try {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from weblate.kysely_migration`.execute(after.db);
      expect(rows[0]!.n).toBe(MIGRATIONS.length + 1);
    } finally {
      await after.close();
    }
  });

  // The first releases migrated under pg_advisory_lock(74711203); one of them migrating the
  // same database must make this release wait, not migrate beside it.
  it.runIf(DATABASE_KIND === 'postgres')(
    'wait for an older release migrating the database',
    async () => {
      const database = await freshDatabase();
      const older = new pg.Client({ connectionString: database.databaseUrl! });
      await older.connect();
      try {
        await older.query('select pg_advisory_lock($1::bigint)', [LEGACY_MIGRATION_LOCK_KEY]);
        const handle = await database.open();
        const migrating = migrateToLatest(handle);
        // Until the server shows this release waiting for the older one's lock.
        for (let tries = 0; tries < 600; tries++) {
          const { rows } = await older.query<{ n: number }>(
            `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted
           and objid = $1::bigint::oid and objsubid = 1`,
            [LEGACY_MIGRATION_LOCK_KEY],
          );
          if (rows[0]!.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const applied = await older.query<{ n: number }>(
          `select count(*)::int as n from information_schema.tables where table_schema = 'weblate'
         and table_name = 'sync_runs'`,
        );
        expect(applied.rows[0]!.n).toBe(0);
        await older.query('select pg_advisory_unlock($1::bigint)', [LEGACY_MIGRATION_LOCK_KEY]);
        expect((await migrating).applied).toEqual(MIGRATIONS);
      } finally {
        await older.end();
      }
    },
  );
});

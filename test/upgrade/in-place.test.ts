import { rm } from 'node:fs/promises';
import { join } from 'node:path';

import { sql } from 'kysely';
import pg from 'pg';
import { PGlite as PGlite17 } from 'pglite-pg17';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { readInstance } from '../../src/db/queries/instances.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv, runBin } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { createTestDatabase, DATABASE_KIND, type TestDatabase } from '../helpers/database.ts';
import {
  compareMirrors,
  type MirrorSnapshot,
  snapshotMirror,
  tableDigestQuery,
} from '../helpers/mirror-compare.ts';
import { checkOutRelease, type OldRelease } from '../helpers/old-release.ts';
import { subscribedUsers, syncSimulator } from '../helpers/sync.ts';

/**
 * An operator upgrades weblate-mirror in place, over a warehouse an older release built and
 * that holds a year of history. Each release below is checked out with `git worktree`, builds
 * the warehouse, and main takes it over with `migrate` and a sync: every row is kept.
 *
 * When a migration is added, add the last commit before it here.
 */
const RELEASES = [
  {
    commit: 'a4c3729c2f6f2196cb515b224a3680d5d5c7162b',
    about: 'the first landed release: schema 0001, the embedded database on PostgreSQL 17',
  },
];

/** Tables whose rows are history: kept exactly, every column, after the upgrade. */
const HISTORY = new Set(['changes', 'translation_statistics', 'language_statistics', 'sync_runs']);
/** The one column of a history row that a later sync may move (the snapshot is still current). */
const MOVES = new Set(['last_seen_at']);
const DAYS = 364;

type Rows = Map<string, Record<string, string>>;

/** SQL run on the older release's database, as that release left it (PostgreSQL 17 embedded). */
interface OldDatabase {
  query<T>(text: string): Promise<T[]>;
  close(): Promise<void>;
}

async function openOld(database: TestDatabase): Promise<OldDatabase> {
  if (database.databaseUrl !== null) {
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    return {
      query: async <T>(text: string) => (await client.query(text)).rows as T[],
      close: () => client.end(),
    };
  }
  const client = await PGlite17.create(join(database.dataDir, 'pgdata'));
  return {
    query: async <T>(text: string) => (await client.query<T>(text)).rows,
    close: () => client.close(),
  };
}

type Query = <T>(text: string) => Promise<T[]>;

/** The weblate schema's tables with their primary keys (Kysely's own left out). */
function weblateTables(query: Query): Promise<Array<{ name: string; keys: string[] }>> {
  return query<{ name: string; keys: string[] }>(`
    select c.relname as name, array_agg(a.attname::text order by k.ord) as keys
      from pg_constraint p
      join pg_class c on c.oid = p.conrelid
      join pg_namespace n on n.oid = c.relnamespace
      cross join lateral unnest(p.conkey) with ordinality k(attnum, ord)
      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
     where n.nspname = 'weblate' and p.contype = 'p' and c.relname not like 'kysely%'
     group by c.relname`);
}

/** Every row of the weblate schema's tables, by primary key, each value as its jsonb text. */
async function readRows(query: Query): Promise<Map<string, Rows>> {
  const all = new Map<string, Rows>();
  for (const table of await weblateTables(query)) {
    const key = table.keys.map((k) => `t.${k}::text`).join(` || '/' || `);
    const rows = await query<{ key: string; row: string }>(`
      select ${key} as key,
             (select jsonb_object_agg(e.k, e.v::text) from jsonb_each(to_jsonb(t)) e(k, v))::text as row
        from weblate.${table.name} t`);
    all.set(
      table.name,
      new Map(rows.map((r) => [r.key, JSON.parse(r.row) as Record<string, string>])),
    );
  }
  return all;
}

/** One digest of every row of each weblate table: equal digests, equal tables. */
async function tableDigests(query: Query): Promise<Record<string, string | null>> {
  const digests: Record<string, string | null> = {};
  for (const { name } of await weblateTables(query)) {
    const [row] = await query<{ digest: string | null }>(tableDigestQuery(name));
    digests[name] = row!.digest;
  }
  return digests;
}

/**
 * A year of daily statistics before the release's one sync, as its schedule would have
 * captured them: fewer strings translated the further back.
 */
async function addYearOfHistory(old: OldDatabase): Promise<void> {
  for (const [table, key] of [
    ['translation_statistics', 'translation_id'],
    ['language_statistics', 'language_code'],
  ]) {
    await old.query(`
      insert into weblate.${table}
      select (jsonb_populate_record(s, jsonb_build_object(
               'captured_at', s.captured_at - d * interval '1 day',
               'last_seen_at', s.captured_at - d * interval '1 day' + interval '23 hours',
               'translated', greatest(s.translated - d / 9, 0),
               'translated_words', greatest(s.translated_words - d / 3, 0),
               'recent_changes', d % 7))).*
        from weblate.${table} s, generate_series(1, ${DAYS}) d
       order by s.${key}, d`);
  }
}

/**
 * The first release read changes project by project, so it knew the project of a change that
 * names none (a user removed from a project's team, an announcement); a full sync today reads
 * the instance's list, where such a change has no project. The kept value is more, not wrong:
 * the kept row counts as the fresh one when that is all that differs. Returns how many did.
 */
function keepOldProjects(kept: MirrorSnapshot, fresh: MirrorSnapshot): number {
  let known = 0;
  for (const [id, row] of fresh.changes) {
    const keptRow = kept.changes.get(id);
    if (keptRow === undefined || keptRow === row) continue;
    const [a, b] = [
      JSON.parse(keptRow) as Record<string, unknown>,
      JSON.parse(row) as Record<string, unknown>,
    ];
    if (b.project_slug !== null || typeof a.project_slug !== 'string') continue;
    if (JSON.stringify({ ...a, project_slug: null }) !== JSON.stringify(b)) continue;
    kept.changes.set(id, row);
    known++;
  }
  return known;
}

describe.each(RELEASES)('upgrade in place from $commit ($about)', ({ commit }) => {
  let release: OldRelease;
  let sim: RunningSimulator;
  let database: TestDatabase;
  let before: Map<string, Rows>;
  let deletedComponent: number;
  let handle: DbHandle;
  let migrateOutput: string;

  beforeAll(async () => {
    release = await checkOutRelease(commit);
    sim = await startSimulator({
      seed: 27,
      projects: 2,
      components: 4,
      languages: 3,
      units: 600,
      changes: 400,
    });
    database = await createTestDatabase({ empty: true });
    // The older release makes its embedded database itself: no cluster of today's release.
    await rm(join(database.dataDir, 'pgdata'), { recursive: true, force: true });
    const env = {
      ...databaseEnv(database),
      WEBLATE_URL: sim.url,
      WEBLATE_USERS: subscribedUsers(sim).join(','),
    };
    const built = await runBin(release.bin, ['sync'], env, 300_000);
    expect(built.code, built.stderr).toBe(0);

    const old = await openOld(database);
    try {
      await addYearOfHistory(old);
      before = await readRows((text) => old.query(text));
    } finally {
      await old.close();
    }

    // Upstream moves on while the old release is replaced: a component goes, with its history.
    deletedComponent = sim.instance.components.at(-1)!.id;
    sim.mutate.deleteComponent(deletedComponent);

    // Today's release in this process: the older one's process is what must stay apart.
    const migrated = await runCliInProcess(['migrate'], databaseEnv(database));
    expect(migrated.code, migrated.stderr).toBe(0);
    migrateOutput = migrated.stderr + migrated.stdout;
    const synced = await runCliInProcess(['sync'], env);
    expect(synced.code, synced.stderr).toBe(0);
    handle = await database.open();
  }, 900_000);

  afterAll(async () => {
    await handle?.close();
    await sim?.close();
    await database?.drop();
  });

  it('keeps every row: history exactly, every other row by its key', async () => {
    const after = await readRows(
      async <T>(text: string) => (await sql.raw<T>(text).execute(handle.db)).rows,
    );
    expect(before.get('translation_statistics')!.size).toBeGreaterThan(DAYS * 10);
    for (const [table, rows] of before) {
      const kept = after.get(table);
      expect(kept, `table ${table} is gone`).toBeDefined();
      const lost = [...rows.keys()].filter((key) => !kept!.has(key));
      expect(lost, `rows of ${table} lost`).toEqual([]);
      if (!HISTORY.has(table)) continue;
      const changed = [...rows].filter(([key, row]) =>
        Object.entries(row).some(
          ([column, value]) => !MOVES.has(column) && kept!.get(key)![column] !== value,
        ),
      );
      expect(changed.slice(0, 2), `rows of ${table} changed (${changed.length})`).toEqual([]);
    }
  });

  it('records the instance its earlier runs read, with its projects', async () => {
    expect(await readInstance(handle.db)).toMatchObject({
      api_root: `${sim.url}api/`,
      fingerprint: sim.instance.projects.map((p) => ({ id: p.id, slug: p.slug })),
    });
  });

  it('keeps what Weblate deleted: the component soft-deleted, its changes kept', async () => {
    const component = await handle.db
      .selectFrom('weblate.components')
      .select(['deleted_at'])
      .where('id', '=', deletedComponent)
      .executeTakeFirstOrThrow();
    expect(component.deleted_at).not.toBeNull();
    const oldChanges = [...before.get('changes')!.values()].filter(
      (row) => row.component_id === String(deletedComponent),
    );
    expect(oldChanges.length).toBeGreaterThan(0);
    const { n } = await handle.db
      .selectFrom('weblate.changes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('component_id', '=', deletedComponent)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBeGreaterThanOrEqual(oldChanges.length);
  });

  it('answers every view, with the year of history', async () => {
    const views = await sql<{ name: string }>`
      select table_name as name from information_schema.views where table_schema = 'weblate'
      order by table_name`.execute(handle.db);
    expect(views.rows.length).toBeGreaterThan(10);
    for (const { name } of views.rows)
      await sql`select * from ${sql.table(`weblate.${name}`)} limit 5`.execute(handle.db);
    const { first } = (
      await sql<{ first: string }>`
        select min(day)::text as first from weblate.translation_progress_daily`.execute(handle.db)
    ).rows[0]!;
    const { today } = (
      await sql<{ today: string }>`select current_date::text as today`.execute(handle.db)
    ).rows[0]!;
    expect(Date.parse(today) - Date.parse(first)).toBeGreaterThanOrEqual(DAYS * 86_400_000);
  });

  it('equals a fresh full sync of the same instance', async () => {
    const fresh = await createTestDatabase();
    try {
      const clean = await fresh.migrated();
      expect((await syncSimulator(sim, clean)).status).toBe('succeeded');
      const goneWithComponent = new Set(
        [...before.get('changes')!]
          .filter(([, row]) => row.component_id === String(deletedComponent))
          .map(([id]) => id),
      );
      const [kept, cleanSnapshot] = [
        await snapshotMirror(handle.db),
        await snapshotMirror(clean.db),
      ];
      const projectsKnown = keepOldProjects(kept, cleanSnapshot);
      expect(projectsKnown).toBeGreaterThan(0);
      expect(compareMirrors(kept, cleanSnapshot, (id) => goneWithComponent.has(id))).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });

  it.runIf(DATABASE_KIND === 'pglite')(
    'moves the embedded database to the new PostgreSQL, keeping the old folder',
    () => {
      expect(migrateOutput).toContain(
        `moved the embedded database at ${database.dataDir} from PostgreSQL 17 to 18`,
      );
      expect(migrateOutput).toContain(join(database.dataDir, 'pgdata-pg17'));
    },
  );

  it('refuses the older release afterwards, leaving the mirror as it was', async () => {
    await handle.close();
    const fingerprint = async () => {
      const reopened = await database.open();
      try {
        return await tableDigests(
          async <T>(text: string) => (await sql.raw<T>(text).execute(reopened.db)).rows,
        );
      } finally {
        await reopened.close();
      }
    };
    const upgraded = await fingerprint();
    const old = await runBin(
      release.bin,
      ['sync'],
      { ...databaseEnv(database), WEBLATE_URL: sim.url },
      300_000,
    );
    expect(old.code).not.toBe(0);
    expect(await fingerprint()).toEqual(upgraded);
    handle = await database.open();
  });
});

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type Database, MIRRORED_TABLES } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import type { TierApi } from './harness/api.ts';
import { compareWithWeblate, typedColumnMismatches } from './harness/compare.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE } from './harness/release.ts';
import { SEED } from './harness/seed.ts';
import { APP_ENTRIES, LONG_SOURCE } from './harness/seed-files.ts';
import { readCredits } from './harness/weblate-reports.ts';

const weblate = useWeblate('full-sync');
const USERS = [...SEED.users];

describe(`a full sync of a real Weblate ${TIER_RELEASE}`, () => {
  let testDb: TestDatabase;
  let handle: DbHandle;
  let db: Kysely<Database>;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    handle = await testDb.migrated();
    db = handle.db;
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('mirrors every object exactly as Weblate lists it', async () => {
    const result = await syncWeblate(weblate.current, db);
    expect(result.error).toBeNull();
    expect(result.status).toBe('succeeded');
    expect(
      await compareWithWeblate(db, weblate.current.admin, { projects: null, users: USERS }),
    ).toEqual([]);
    const rejected = await db.selectFrom('weblate.rejected_records').select(['reason']).execute();
    expect(rejected).toEqual([]);
  });

  it("credits each person and language with the content changes of Weblate's own credits report", async () => {
    const credits = await weblateCredits(weblate.current.admin, SEED.aurora.slug);
    const mirrored = await sql<{ language: string; username: string; changes: string }>`
      select l.name as language, c.username, sum(c.content_changes)::text as changes
      from weblate.contributions('year', only_projects => array[${SEED.aurora.slug}]) c
      join weblate.languages l on l.code = c.language_code
      where c.scope = 'project and language' and c.content_changes > 0
      group by 1, 2`.execute(db);
    expect(credits.length).toBeGreaterThan(3);
    const figures = mirrored.rows.map((r): [string, string, number] => [
      r.language,
      r.username,
      Number(r.changes),
    ]);
    expect(figures.sort(byLanguageAndUser)).toEqual(credits);
  });

  it('holds in every typed column exactly the field it came from', async () => {
    for (const table of MIRRORED_TABLES) {
      expect(await typedColumnMismatches(db, table), table).toEqual([]);
    }
  });

  it('keeps 64-bit hashes, microseconds and every text exactly', async () => {
    const hashes = await sql<{ beyond: string; differ: string }>`
      select count(*) filter (where abs(id_hash) > 9007199254740992 or abs(content_hash) > 9007199254740992) as beyond,
             count(*) filter (where id_hash <> content_hash) as differ
      from weblate.units`.execute(db);
    // Weblate's hashes are signed 64-bit: most lie beyond 2^53, where a double would round them.
    expect(Number(hashes.rows[0]!.beyond)).toBeGreaterThan(10);
    // Monolingual units (Android, JSON) hash their key apart from their content.
    expect(Number(hashes.rows[0]!.differ)).toBeGreaterThan(5);
    const micros = await sql<{ n: string }>`
      select count(*) as n from weblate.changes where to_char(timestamp, 'US') <> '000000'`.execute(
      db,
    );
    expect(Number(micros.rows[0]!.n)).toBeGreaterThan(10);

    const sources = await db
      .selectFrom('weblate.units as u')
      .innerJoin('weblate.translations as t', 't.id', 'u.translation_id')
      .select(['u.source', 'u.context'])
      .where('t.project_slug', '=', 'aurora')
      .where('t.component_slug', '=', 'app')
      .where('t.language_code', '=', 'cs')
      .execute();
    for (const entry of APP_ENTRIES) {
      const expected = entry.plural === undefined ? [entry.source] : [entry.source, entry.plural];
      expect(
        sources.some(
          (s) =>
            JSON.stringify(s.source) === JSON.stringify(expected) &&
            (s.context ?? '') === (entry.context ?? ''),
        ),
        entry.source.slice(0, 40),
      ).toBe(true);
    }
    expect(sources.some((s) => s.source[0] === LONG_SOURCE)).toBe(true);
    const arabic = await db
      .selectFrom('weblate.units as u')
      .innerJoin('weblate.translations as t', 't.id', 'u.translation_id')
      .select('u.target')
      .where('t.language_code', '=', 'ar')
      .where('u.source', '=', sql<string[]>`array['%d file', '%d files']`)
      .executeTakeFirstOrThrow();
    expect(arabic.target).toEqual([
      'لا ملفات',
      'ملف واحد',
      'ملفان',
      '%d ملفات',
      '%d ملفًا',
      '%d ملف',
    ]);
  });

  it("has as many live units in each translation as Weblate's total", async () => {
    const mismatches = await sql<{ id: number; total: number; live: string }>`
      select t.id, t.total, (select count(*) from weblate.units u where u.translation_id = t.id and u.deleted_at is null) as live
      from weblate.translations t where t.deleted_at is null
        and t.total <> (select count(*) from weblate.units u where u.translation_id = t.id and u.deleted_at is null)`.execute(
      db,
    );
    expect(mismatches.rows).toEqual([]);
    const counts = await db
      .selectFrom('weblate.units')
      .select(db.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(counts.n)).toBeGreaterThan(100);
  });

  it('writes nothing on a second sync of the unchanged instance', async () => {
    const result = await syncWeblate(weblate.current, db);
    expect(result.error).toBeNull();
    expect(result.mode).toBe('incremental');
    expect(result.summary.rowsWritten).toBe(0);
    expect(
      await compareWithWeblate(db, weblate.current.admin, { projects: null, users: USERS }),
    ).toEqual([]);
  });

  it('notices a hash one off, a microsecond off and a changed text (the comparison can fail)', async () => {
    await sql`update weblate.units set id_hash = id_hash + 1 where id = (select min(id) from weblate.units)`.execute(
      db,
    );
    await sql`update weblate.changes set timestamp = timestamp + interval '1 microsecond'
      where id = (select min(id) from weblate.changes)`.execute(db);
    await sql`update weblate.units set raw = jsonb_set(raw, '{target}', '["tampered"]')
      where id = (select max(id) from weblate.units)`.execute(db);
    expect((await typedColumnMismatches(db, 'units')).map((d) => d.what).sort()).toEqual([
      'units.id_hash',
      'units.target',
    ]);
    expect((await typedColumnMismatches(db, 'changes')).map((d) => d.what)).toEqual([
      'changes.timestamp',
    ]);
    const differences = await compareWithWeblate(db, weblate.current.admin, {
      projects: null,
      users: USERS,
    });
    expect(differences.map((d) => d.what)).toEqual([expect.stringMatching(/^units: \d+ differs$/)]);
  });

  it('mirrors the same in id and time windows of pages of 100 (WEBLATE_MAX_PAGE_SIZE)', async () => {
    const windowed = await createTestDatabase();
    try {
      const { db: windowedDb } = await windowed.migrated();
      const { log, lines } = captureLogger('debug');
      const result = await syncWeblate(weblate.current, windowedDb, {
        log,
        client: { maxPageSize: 100 },
      });
      expect(result.error).toBeNull();
      expect(
        await compareWithWeblate(windowedDb, weblate.current.admin, {
          projects: null,
          users: USERS,
        }),
      ).toEqual([]);
      const urls = lines
        .map((l) => JSON.parse(l) as { msg?: string; url?: string })
        .filter((l) => l.msg === 'page read')
        .map((l) => new URL(l.url!));
      // Weblate answered bounded id windows on units and bounded time windows on changes.
      expect(
        urls.some(
          (u) => u.pathname === '/api/units/' && /id:<=\d+/.test(u.searchParams.get('q') ?? ''),
        ),
      ).toBe(true);
      expect(
        urls.some(
          (u) =>
            u.pathname.endsWith('/changes/') &&
            u.searchParams.has('timestamp_after') &&
            u.searchParams.get('page_size') === '100',
        ),
      ).toBe(true);
    } finally {
      await windowed.drop();
    }
  });

  it('mirrors one project alone when WEBLATE_PROJECTS names it', async () => {
    const scoped = await createTestDatabase();
    try {
      const { db: scopedDb } = await scoped.migrated();
      const result = await syncWeblate(weblate.current, scopedDb, { projects: ['cirrus'] });
      expect(result.error).toBeNull();
      expect(
        await compareWithWeblate(scopedDb, weblate.current.admin, {
          projects: ['cirrus'],
          users: USERS,
        }),
      ).toEqual([]);
      const elsewhere = await sql<{ n: string }>`
        select (select count(*) from weblate.projects where slug <> 'cirrus')
             + (select count(*) from weblate.translations where project_slug <> 'cirrus')
             + (select count(*) from weblate.changes where project_slug <> 'cirrus') as n`.execute(
        scopedDb,
      );
      expect(Number(elsewhere.rows[0]!.n)).toBe(0);
    } finally {
      await scoped.drop();
    }
  });
});

/** Weblate's credits of a project over all time, as [language name, username, changes] sorted. */
async function weblateCredits(api: TierApi, project: string): Promise<[string, string, number][]> {
  const window = { start: '2000-01-01T00:00:00+00:00', end: '2100-01-01T00:00:00+00:00' };
  return (await readCredits(api, project, window))
    .flatMap((entry) =>
      Object.entries(entry).flatMap(([language, authors]) =>
        authors.map((a): [string, string, number] => [language, a.username, a.change_count]),
      ),
    )
    .sort(byLanguageAndUser);
}

function byLanguageAndUser([la, ua]: [string, string, number], [lb, ub]: [string, string, number]) {
  return la === lb ? (ua < ub ? -1 : 1) : la < lb ? -1 : 1;
}

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { PGlite as PGlite17 } from 'pglite-pg17';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDb, openMirror } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { EMBEDDED_MAJOR, upgradeEmbeddedCluster } from '../../src/db/pglite-upgrade.ts';
import { migrateTo } from '../../src/db/schema-migrations.ts';
import { DATABASE_KIND } from '../helpers/database.ts';
import { FOLDER_ROOT } from '../helpers/database-template.ts';

const FIRST_SCHEMA = '0001_create_weblate_schema';

/** A folder as the first releases left it: PostgreSQL 17, schema 0001, a few rows. */
async function folderOfFirstRelease(): Promise<string> {
  const dataDir = mkdtempSync(join(FOLDER_ROOT, 'pg17-'));
  const client = await PGlite17.create(join(dataDir, 'pgdata'));
  try {
    const db = new Kysely<Database>({
      dialect: new PGliteDialect(client as unknown as PGlite),
    });
    await migrateTo(db, FIRST_SCHEMA);
    await client.exec(`
      insert into weblate.sync_runs (weblate_url) values ('https://weblate.example/');
      insert into weblate.languages (code, id, name, raw)
        select 'l' || n, n, 'Language ' || n || ' ✓', jsonb_build_object('id', n)
          from generate_series(1, 5000) n;`);
  } finally {
    await client.close();
  }
  return dataDir;
}

function major(dataDir: string, folder = 'pgdata'): number {
  return Number(readFileSync(join(dataDir, folder, 'PG_VERSION'), 'utf8'));
}

// Folders of the embedded database alone, whatever TEST_DATABASE_URL says: checked once, in the
// suite's pass on the embedded database (.ci/run runs both passes).
describe.runIf(DATABASE_KIND === 'pglite')('an embedded database of PostgreSQL 17', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await folderOfFirstRelease();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is what the installed PGlite is not', async () => {
    const client = await PGlite.create();
    try {
      const { rows } = await client.query<{ version: string }>(
        `select current_setting('server_version_num') as version`,
      );
      expect(Math.floor(Number(rows[0]!.version) / 10_000)).toBe(EMBEDDED_MAJOR);
    } finally {
      await client.close();
    }
    expect(major(dataDir)).toBe(17);
  });

  it('is not opened by a read-only command, which says to migrate', async () => {
    await expect(openMirror({ databaseUrl: null, dataDir })).rejects.toThrow(
      `the embedded database at ${dataDir} was made by an earlier weblate-mirror (PostgreSQL 17): run \`weblate-mirror migrate\` once to move it to PostgreSQL ${EMBEDDED_MAJOR}`,
    );
    expect(major(dataDir)).toBe(17);
  });

  it('stays as it was when the move fails part way, and moves on the next attempt', async () => {
    await expect(
      upgradeEmbeddedCluster(dataDir, async (folder) => {
        await (await PGlite.create(folder)).close();
        throw new Error('stopped part way');
      }),
    ).rejects.toThrow('stopped part way');
    expect(major(dataDir)).toBe(17);
    expect(existsSync(join(dataDir, 'pgdata.upgrading'))).toBe(true);

    const notices: string[] = [];
    const handle = await createDb({
      databaseUrl: null,
      dataDir,
      onNotice: (message) => notices.push(message),
    });
    try {
      // 5,001 rows written above and 107 that schema 0001 seeds (unit states, change actions).
      expect(notices).toEqual([
        `moved the embedded database at ${dataDir} from PostgreSQL 17 to ${EMBEDDED_MAJOR} (5108 rows); the old folder is kept at ${join(dataDir, 'pgdata-pg17')}: remove it once the mirror is as expected`,
      ]);
      const { rows } = await sql<{ n: number; names: string; next: number }>`
        select count(*)::int as n, max(name) filter (where code = 'l4321') as names,
               (select count(*)::int from weblate.kysely_migration) as next
          from weblate.languages`.execute(handle.db);
      expect(rows[0]).toEqual({ n: 5000, names: 'Language 4321 ✓', next: 1 });
      // The identity goes on from where the old cluster left it.
      const run = await sql<{ id: number }>`
        insert into weblate.sync_runs (weblate_url) values ('https://weblate.example/')
        returning id`.execute(handle.db);
      expect(run.rows[0]!.id).toBe(2);
    } finally {
      await handle.close();
    }
    expect(major(dataDir)).toBe(EMBEDDED_MAJOR);
    expect(major(dataDir, 'pgdata-pg17')).toBe(17);
    expect(existsSync(join(dataDir, 'pgdata.upgrading'))).toBe(false);
  });
});

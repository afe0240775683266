import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDb } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { clusterPath, pgliteVersion, storedCluster } from '../../src/db/pglite-cluster.ts';
import { DATABASE_KIND } from '../helpers/database.ts';
import { FOLDER_ROOT } from '../helpers/database-template.ts';

/** What initdb decides that a later query can see: encoding, locale, catalog, settings. */
const CLUSTER_FACTS = `
  select current_setting('server_version_num') as version,
         current_setting('server_encoding') as encoding,
         current_setting('lc_messages') as messages,
         current_setting('data_checksums') as checksums,
         (select string_agg(datname || ':' || pg_encoding_to_char(encoding) || ':' || datcollate || ':' || datctype, ',' order by datname)
            from pg_database) as databases,
         (select count(*) from pg_class) as relations,
         (select count(*) from pg_proc) as functions,
         (select string_agg(rolname, ',' order by rolname) from pg_roles) as roles`;

// Files of the embedded database alone, whatever TEST_DATABASE_URL says: checked once, in the
// suite's pass on the embedded database (.ci/run runs both passes).
describe.runIf(DATABASE_KIND === 'pglite')(
  'the stored empty cluster of the embedded database',
  () => {
    let root = '';
    beforeAll(() => {
      root = mkdtempSync(join(FOLDER_ROOT, 'pglite-cluster-'));
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('exists for the installed PGlite release (after an upgrade: npm run pglite-cluster)', () => {
      expect(existsSync(clusterPath()), `${clusterPath()} for PGlite ${pgliteVersion()}`).toBe(
        true,
      );
    });

    it('is the cluster initdb makes, and a new folder starts from it', async () => {
      const fromInitdb = await PGlite.create(join(root, 'initdb'));
      const expected = (await fromInitdb.query(CLUSTER_FACTS)).rows[0];
      await fromInitdb.close();

      const fromStore = await PGlite.create(join(root, 'stored'), {
        loadDataDir: storedCluster()!,
      });
      expect((await fromStore.query(CLUSTER_FACTS)).rows[0]).toEqual(expected);
      await fromStore.close();
    });

    it('is where createDb starts a new folder; the folder then keeps its own data', async () => {
      const dataDir = join(root, 'mirror');
      const first = await createDb({ databaseUrl: null, dataDir });
      expect(existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect((await migrateToLatest(first)).applied.length).toBeGreaterThan(0);
      await sql`insert into weblate.languages (code, id, name, raw) values ('eo', 1, 'Esperanto', '{}')`.execute(
        first.db,
      );
      await first.close();

      const again = await createDb({ databaseUrl: null, dataDir });
      const rows = await sql<{ code: string }>`select code from weblate.languages`.execute(
        again.db,
      );
      expect(rows.rows).toEqual([{ code: 'eo' }]);
      await again.close();
    });
  },
);

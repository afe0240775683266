import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { countRows } from '../../src/db/queries/status.ts';
import { parseJsonLossless } from '../../src/lib/json.ts';
import type { SyncResult } from '../../src/sync/run-sync.ts';
import { createTestClient } from '../helpers/client.ts';
import { captureLogger } from '../helpers/logs.ts';
import { startRewritingProxy } from '../helpers/proxy.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncAsWriter, syncSimulator } from '../helpers/sync.ts';

const mirror = useSimulatorMirror({
  seed: 17,
  projects: 2,
  components: 3,
  languages: 2,
  units: 200,
  changes: 50,
  users: 1,
});

const OLDER =
  'The server looks older than Weblate 5.0.1, which weblate-mirror needs: before it, languages, projects, components and translations carry no id';

/** A failed run that stored nothing of the list it stopped at, nor below it. */
async function expectStoppedAt(result: SyncResult, empty: string[]): Promise<void> {
  const counts = await countRows(mirror.handle.db);
  for (const table of [...empty, 'units', 'changes']) expect(counts[table], table).toBe(0);
  const rejected = await sql<{ n: number }>`
    select count(*)::int as n from weblate.rejected_records where run_id = ${result.runId}`.execute(
    mirror.handle.db,
  );
  expect(rejected.rows[0]!.n).toBe(0);
  const run = await sql<{ status: string; error: string }>`
    select status, error from weblate.sync_runs where id = ${result.runId}`.execute(
    mirror.handle.db,
  );
  expect(run.rows[0]).toEqual({ status: 'failed', error: result.error?.message });
}

describe('a server older than Weblate 5.0.1 (records without id)', () => {
  it('fails the run at the first list, naming the version, instead of rejecting every record', async () => {
    mirror.sim.setCompat({ hasObjectIds: false });
    try {
      const result = await syncSimulator(mirror.sim, mirror.handle);
      expect(result.status).toBe('failed');
      expect(result.error?.message).toMatch(
        /^languages: the records of http:\/\/127\.0\.0\.1:\d+\/api\/languages\/\?page_size=1000 carry no id\. /,
      );
      expect(result.error?.message).toContain(OLDER);
      await expectStoppedAt(result, ['languages', 'projects', 'components', 'translations']);
    } finally {
      mirror.sim.setCompat({});
    }
  });

  it('names the list it stopped at, in a sync of every project and of one', async () => {
    // Only the components come without ids (as through a proxy that drops them).
    const proxy = await startRewritingProxy(mirror.sim.url, (path, body) => {
      if (!/^\/api\/(components\/|projects\/[^/]+\/components\/)\?/.test(path)) return body;
      const { value } = parseJsonLossless(body) as { value: { results: object[] } };
      const results = value.results.map((r) => ({ ...r, id: undefined }));
      return JSON.stringify({ ...value, results });
    });
    try {
      const run = (projects: string[] | null) =>
        syncAsWriter(mirror.handle, {
          log: captureLogger().log,
          scope: { projects, users: [] },
          client: () => createTestClient(proxy.url),
        });
      const all = await run(null);
      expect(all.error?.message).toMatch(
        /^components: the records of http:\/\/127\.0\.0\.1:\d+\/api\/components\/\?page_size=1000 carry no id\. /,
      );
      await expectStoppedAt(all, ['components', 'translations']);
      const slug = mirror.sim.instance.projects[0]!.slug;
      const scoped = await run([slug]);
      expect(scoped.error?.message).toMatch(
        new RegExp(
          `^components: the records of http://127\\.0\\.0\\.1:\\d+/api/projects/${slug}/components/\\?page_size=1000 carry no id\\. `,
        ),
      );
      expect(scoped.error?.message).toContain(OLDER);
      await expectStoppedAt(scoped, ['components', 'translations']);
    } finally {
      await proxy.close();
    }
  });
});

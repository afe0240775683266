import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DiskRoom, EmbeddedLimits, MemoryLimit } from '../../src/db/embedded-limits.ts';
import { MemoryLimitError } from '../../src/errors.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { expectSameAsCleanSync } from '../helpers/clean-sync.ts';
import { databaseEnv, runCliAsShipped } from '../helpers/cli.ts';
import { DATABASE_KIND, useTestDatabases } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';

let sim: RunningSimulator;
const databases = useTestDatabases();

beforeAll(async () => {
  sim = await startSimulator({
    seed: 7,
    projects: 2,
    components: 3,
    languages: 3,
    units: 600,
    changes: 400,
  });
});

afterAll(async () => {
  await sim.close();
});

describe('the memory limit of a sync into the embedded database', () => {
  it('stops the sync after the page that crossed it, keeps what it committed, and a sync under a higher limit resumes', async () => {
    const database = await databases.create();
    const handle = await database.migrated();
    // Memory that grows with every page committed, crossing the limit (1 MB) at the 11th check,
    // of about 35 that a whole sync of this instance in pages of 100 makes.
    let checks = 0;
    const limits = new EmbeddedLimits(
      new MemoryLimit(1, () => ++checks * 100_000),
      new DiskRoom(database.dataDir, () => Infinity),
    );
    const limited = { ...handle, limits };
    const stopped = await syncSimulator(sim, limited, { client: { maxPageSize: 100 } });
    expect(stopped.status).toBe('failed');
    expect(stopped.error).toBeInstanceOf(MemoryLimitError);
    expect(stopped.error!.message).toMatch(/set DATABASE_URL/);
    expect(stopped.error!.message).toMatch(/WEBLATE_MIRROR_MEMORY_LIMIT_MB=1\b/);
    // The 11th commit crossed it; a page of another stream may have been committing beside it.
    expect(checks).toBeGreaterThanOrEqual(11);
    expect(checks).toBeLessThanOrEqual(11 + 4);
    expect(stopped.summary.rowsWritten).toBeGreaterThan(0);

    const resumed = await syncSimulator(sim, handle, { client: { maxPageSize: 100 } });
    expect(resumed.status).toBe('succeeded');
    expect(resumed.summary.rowsWritten).toBeGreaterThan(0);
    await expectSameAsCleanSync(databases, sim, handle.db);
  });

  it('is WEBLATE_MIRROR_MEMORY_LIMIT_MB on the embedded database, and PostgreSQL has none', async () => {
    // The demo's size: its embedded sync peaks near 500 MB (docs/performance.md § Memory), and
    // WebAssembly memory never shrinks, so the commits after the peak all see more than 300 MB.
    // A small instance may stay under the lowest limit allowed once the mirror runs compiled
    // (2,000 units peaked at 295 MB, 20,000 crossed it at 323 MB). On PostgreSQL the process
    // stays far under any limit allowed (181 MB at 20,000 units), so a small instance checks
    // there as much: the setting is accepted and the sync completes.
    const large = await startSimulator({
      seed: 8,
      units: DATABASE_KIND === 'pglite' ? 20_000 : 2_000,
      changes: 2_000,
      users: 1,
    });
    try {
      const database = await databases.create();
      await (await database.migrated()).close();
      const run = await runCliAsShipped(['sync'], {
        ...databaseEnv(database),
        WEBLATE_URL: large.url,
        WEBLATE_MIRROR_MEMORY_LIMIT_MB: '300',
        LOG_LEVEL: 'error',
      });
      if (DATABASE_KIND === 'pglite') {
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/stopped before the embedded database runs out of memory/);
        expect(run.stderr).toMatch(/set DATABASE_URL/);
      } else {
        expect(run.code, run.stderr).toBe(0);
      }
    } finally {
      await large.close();
    }
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { readCursor, writeCursor } from '../../src/db/queries/sync-state.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';

let sim: RunningSimulator;
let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 71,
    projects: 2,
    components: 3,
    languages: 2,
    units: 300,
    changes: 100,
    users: 1,
  });
  database = await createTestDatabase();
  handle = await database.migrated();
  const first = await syncSimulator(sim, handle);
  expect([first.status, first.error]).toEqual(['succeeded', null]);
});

afterAll(async () => {
  await sim.close();
  await database.drop();
});

describe('sync cursors', () => {
  it('are read back as written', async () => {
    const cursor = (await readCursor(handle.db, 'units', ''))!;
    expect(cursor.mark).toMatch(/^\d{4}-\d\d-\d\dT/);
    await writeCursor(handle.db, 'units', 'elsewhere', cursor);
    expect(await readCursor(handle.db, 'units', 'elsewhere')).toEqual(cursor);
  });

  it('refuse to write a value of the wrong shape', async () => {
    await expect(
      writeCursor(handle.db, 'changes', 'nowhere', {
        mark: null,
        window: { after: null, end: '', before: 'x' },
      }),
    ).rejects.toThrow();
    expect(await readCursor(handle.db, 'changes', 'nowhere')).toBeNull();
  });

  it('of a shape this version does not understand stop the sync with a message, and nothing moves', async () => {
    const project = sim.instance.projects[0]!.slug;
    const before = await readCursor(handle.db, 'changes', project);
    await sql`update weblate.sync_cursors set value = ${JSON.stringify({ mark: 17, window: 'soon' })}::jsonb
      where stream = 'changes' and scope = ${project}`.execute(handle.db);
    const result = await syncSimulator(sim, handle);
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain(
      `the changes cursor of scope "${project}" in weblate.sync_cursors is not one this version understands (mark:`,
    );
    expect(result.error?.message).toContain('delete that row and run `weblate-mirror sync --full`');
    await sql`update weblate.sync_cursors set value = ${JSON.stringify(before)}::jsonb
      where stream = 'changes' and scope = ${project}`.execute(handle.db);
    const next = await syncSimulator(sim, handle);
    expect([next.status, next.error]).toEqual(['succeeded', null]);
  });
});

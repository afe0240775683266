import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';

import { applyTransitions, readCursor, transition } from '../../src/db/queries/sync-state.ts';
import { SMALL_INSTANCE, useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

const mirror = useSimulatorMirror({ ...SMALL_INSTANCE, users: 1 });

beforeAll(async () => {
  const first = await syncSimulator(mirror.sim, mirror.handle);
  expect([first.status, first.error]).toEqual(['succeeded', null]);
});

describe('sync cursors', () => {
  it('are read back as written', async () => {
    const cursor = (await readCursor(mirror.handle.db, 'units', ''))!;
    expect(cursor.mark).toMatch(/^\d{4}-\d\d-\d\dT/);
    await applyTransitions(mirror.handle.db, [transition.cursor('units', 'elsewhere', cursor)]);
    expect(await readCursor(mirror.handle.db, 'units', 'elsewhere')).toEqual(cursor);
  });

  it('refuse to write a value of the wrong shape', async () => {
    await expect(
      applyTransitions(mirror.handle.db, [
        transition.cursor('changes', 'nowhere', {
          mark: null,
          window: { after: null, end: '', before: 'x' },
        }),
      ]),
    ).rejects.toThrow();
    expect(await readCursor(mirror.handle.db, 'changes', 'nowhere')).toBeNull();
  });

  it('of a shape this version does not understand stop the sync with a message, and nothing moves', async () => {
    // Every project is in scope: the global change list's cursor (scope '').
    const project = '';
    const before = await readCursor(mirror.handle.db, 'changes', project);
    await sql`update weblate.sync_cursors set value = ${JSON.stringify({ mark: 17, window: 'soon' })}::jsonb
      where stream = 'changes' and scope = ${project}`.execute(mirror.handle.db);
    const result = await syncSimulator(mirror.sim, mirror.handle);
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain(
      `the changes cursor of scope "${project}" in weblate.sync_cursors is not one this version understands (mark:`,
    );
    expect(result.error?.message).toContain('delete that row and run `weblate-mirror sync --full`');
    await sql`update weblate.sync_cursors set value = ${JSON.stringify(before)}::jsonb
      where stream = 'changes' and scope = ${project}`.execute(mirror.handle.db);
    const next = await syncSimulator(mirror.sim, mirror.handle);
    expect([next.status, next.error]).toEqual(['succeeded', null]);
  });

  it('of a discovery mark this version does not understand fail the run, which says so', async () => {
    const before = await readCursor(mirror.handle.db, 'discovery', '');
    await sql`update weblate.sync_cursors set value = ${JSON.stringify({ at: 17 })}::jsonb
      where stream = 'discovery' and scope = ''`.execute(mirror.handle.db);
    const result = await syncSimulator(mirror.sim, mirror.handle);
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain(
      'the discovery cursor of scope "" in weblate.sync_cursors is not one this version understands',
    );
    await applyTransitions(mirror.handle.db, [transition.cursor('discovery', '', before!)]);
    const next = await syncSimulator(mirror.sim, mirror.handle);
    expect([next.status, next.error]).toEqual(['succeeded', null]);
  });
});

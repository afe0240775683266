import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';

// The people the changes name, read once each with their full names (migration 0013).

let sim: RunningSimulator;
let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 31,
    projects: 2,
    components: 2,
    languages: 2,
    units: 100,
    changes: 300,
    users: 4,
  });
  database = await createTestDatabase();
  handle = await database.migrated();
});

afterAll(async () => {
  await handle.close();
  await database.drop();
  await sim.close();
});

async function users(): Promise<Array<[string, string | null, number | null]>> {
  const result = await sql<{ username: string; full_name: string | null; answered: number | null }>`
    select username, full_name, answered from weblate.users order by username`.execute(handle.db);
  return result.rows.map((r) => [r.username, r.full_name, r.answered]);
}

/** Requests for single users, by username. */
function userRequests(): string[] {
  return [...sim.requests.byPath.keys()]
    .filter((path) => /^\/api\/users\/[^/]+\/$/.test(path))
    .map((path) => decodeURIComponent(path.split('/')[3]!))
    .sort();
}

function namedPeople(): string[] {
  const names = new Set<string>();
  for (const change of sim.instance.changes) {
    if (change.user !== null) names.add(change.user);
    if (change.author !== null) names.add(change.author);
  }
  return [...names].sort();
}

describe('users', () => {
  it('are read once each, with the full names the server shows', async () => {
    const people = namedPeople();
    expect(people.length).toBeGreaterThan(1);
    sim.requests.reset();
    const result = await syncSimulator(sim, handle, { full: true });
    expect(result.status).toBe('succeeded');
    expect(userRequests()).toEqual(people);
    const byName = new Map(sim.instance.users.map((u) => [u.username, u.fullName]));
    expect(await users()).toEqual(people.map((name) => [name, byName.get(name)!, 200]));
    sim.requests.reset();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    expect(userRequests()).toEqual([]);
  });

  it('record a user the server does not show, and do not ask again', async () => {
    // A change of an account gone from the server, as a mirror keeps its history.
    await sql`
      insert into weblate.changes (id, action, action_name, timestamp, user_name, author_name,
                                   project_slug, raw)
      values (999999, 2, 'Translation changed', now(), 'gone-ž', 'gone-ž', 'p', '{}')`.execute(
      handle.db,
    );
    sim.requests.reset();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    expect(userRequests()).toEqual(['gone-ž']);
    expect((await users()).find(([name]) => name === 'gone-ž')).toEqual(['gone-ž', null, 404]);
    sim.requests.reset();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    expect(userRequests()).toEqual([]);
  });

  it('leave users the server fails on to the next run, and the run succeeds', async () => {
    const user = sim.instance.users[0]!;
    sim.mutate.editUnits([sim.instance.units.find((u) => u.state === 0)!.id], {
      user: user.username,
    });
    await sql`update weblate.users set answered = null where username = ${user.username}`.execute(
      handle.db,
    );
    const failing = sim.failNext(2, '500', /^\/api\/users\/[^/]+\/$/);
    const failed = await syncSimulator(sim, handle, { client: { maxAttempts: 2 } });
    expect(failing.remaining).toBe(0);
    expect(failed.status).toBe('succeeded');
    expect(failed.summary.warnings.join('\n')).toContain('user names not read');
    expect((await users()).find(([name]) => name === user.username)?.[2]).toBeNull();
    sim.requests.reset();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    expect(userRequests()).toEqual([user.username]);
    expect((await users()).find(([name]) => name === user.username)).toEqual([
      user.username,
      user.fullName,
      200,
    ]);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { JOBS } from '../../jobs/index.ts';
import { moveInstanceCommand } from '../../src/cli/commands/move-instance.ts';
import { loadConfig } from '../../src/config.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { readInstance } from '../../src/db/queries/instances.ts';
import { InstanceMismatchError } from '../../src/errors.ts';
import { apiRootOf, isSameApiRoot } from '../../src/lib/instance-url.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { decideInstance, matchFingerprint, mismatchMessage } from '../../src/sync/instance.ts';
import type { SyncOptions, SyncResult } from '../../src/sync/run-sync.ts';
import { batchSync } from '../../src/webhooks/batch-sync.ts';
import { JobRunner } from '../../src/worker/job-runner.ts';
import { databaseEnv } from '../helpers/cli.ts';
import { createTestClient } from '../helpers/client.ts';
import { databaseFlags, runCliInProcess, runCommand } from '../helpers/commands.ts';
import { type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import { captureLogger, parseLogLines } from '../helpers/logs.ts';
import {
  compareMirrors,
  type MirrorSnapshot,
  snapshotMirror,
  tableDigestQuery,
} from '../helpers/mirror-compare.ts';
import { type RewritingProxy, startRewritingProxy } from '../helpers/proxy.ts';
import { SMALL_INSTANCE } from '../helpers/simulator-mirror.ts';
import { requestsAsked, subscribedUsers, syncAsWriter } from '../helpers/sync.ts';

/**
 * One database, one instance. Instance A has two projects; B, another seed, one: the
 * simulator names projects the same in every seed (hello, weblate-2024, …), so B's one
 * project is A's first, and A's second, (2, weblate-2024), is what B lacks.
 */
const A = SMALL_INSTANCE;
const B = { seed: 5, projects: 1, components: 2, languages: 2, units: 120, changes: 60 };

describe('instance addresses', () => {
  it('compare after normalising the trailing slash, /api/, default ports and host case', () => {
    for (const spelling of [
      'https://Weblate.Example/',
      'https://weblate.example',
      'https://weblate.example:443/api',
      'https://WEBLATE.example/api/?format=api',
    ])
      expect(apiRootOf(spelling), spelling).toBe('https://weblate.example/api/');
    expect(apiRootOf('http://weblate.example:80/sub')).toBe('http://weblate.example/sub/api/');
    expect(isSameApiRoot('http://127.0.0.1:8000/', 'http://127.0.0.1:8001/')).toBe(false);
    expect(isSameApiRoot('http://w.example/', 'https://w.example/')).toBe(false);
    expect(isSameApiRoot('https://w.example/a/', 'https://w.example/b/')).toBe(false);
  });
});

describe('decideInstance', () => {
  const record = (api_root: string) => ({
    id: 1,
    api_root,
    fingerprint: [],
    recorded_at: '',
    updated_at: '',
  });
  const url = 'https://w.example/api/';
  it.each([
    [
      'the recorded address',
      { record: record(url), earlierApiRoot: null, hasLiveProjects: true },
      { kind: 'recorded' },
    ],
    [
      'another recorded address',
      { record: record('https://old.example/api/'), earlierApiRoot: url, hasLiveProjects: true },
      { kind: 'refused', recorded: 'https://old.example/api/' },
    ],
    [
      'a database with nothing mirrored',
      { record: null, earlierApiRoot: null, hasLiveProjects: false },
      { kind: 'first' },
    ],
    [
      'a first sync that read nothing, then another address',
      { record: null, earlierApiRoot: 'http://127.0.0.1:1/api/', hasLiveProjects: false },
      { kind: 'first' },
    ],
    [
      'no record, earlier runs read this address',
      { record: null, earlierApiRoot: 'https://W.example/', hasLiveProjects: true },
      { kind: 'adopt' },
    ],
    [
      'no record, earlier runs read another address',
      { record: null, earlierApiRoot: 'https://old.example/api/', hasLiveProjects: true },
      { kind: 'verify', earlier: 'https://old.example/api/' },
    ],
  ] as const)('for %s', (_, state, check) => {
    expect(decideInstance(state, url)).toEqual(check);
  });
});

describe('matchFingerprint', () => {
  const mirrored = [
    { id: 1, slug: 'hello' },
    { id: 2, slug: 'docs' },
  ];
  it.each([
    ['the same projects', mirrored, true, []],
    ['more projects (created since)', [...mirrored, { id: 3, slug: 'new' }], true, []],
    ['a project renamed', [mirrored[0]!, { id: 2, slug: 'manual' }], false, [mirrored[1]]],
    ['a project missing', [mirrored[0]!], false, [mirrored[1]]],
    [
      'the same slugs under other ids',
      [
        { id: 7, slug: 'hello' },
        { id: 8, slug: 'docs' },
      ],
      false,
      mirrored,
    ],
  ])('with %s', (_, served, isConfirmed, missing) => {
    expect(matchFingerprint(mirrored, served)).toEqual({ isConfirmed, missing });
  });

  it('confirms nothing with an empty fingerprint', () => {
    expect(matchFingerprint([], mirrored)).toEqual({ isConfirmed: false, missing: [] });
  });
});

let simA: RunningSimulator;
let simB: RunningSimulator;
let moved: RewritingProxy;
const databases = useTestDatabases();

beforeAll(async () => {
  [simA, simB] = await Promise.all([startSimulator(A), startSimulator(B)]);
  // A served at another address too, its links rewritten to it: the same instance, moved.
  moved = await startRewritingProxy(simA.url, (_, body) => body);
});

afterAll(async () => {
  await moved?.close();
  await simA?.close();
  await simB?.close();
});

/** A sync of whatever serves `url` into `handle`, with A's subscribed users. */
function syncAt(handle: DbHandle, url: string, options: SyncOptions = {}) {
  const { log, lines } = captureLogger('info');
  const result = syncAsWriter(
    handle,
    {
      log,
      scope: { projects: null, users: subscribedUsers(simA) },
      client: () => createTestClient(url, { concurrency: 4, log }),
    },
    { discoveryIntervalSeconds: 3600, ...options },
  );
  return result.then((r) => ({ result: r, logged: parseLogLines(lines.join('\n')) }));
}

/** Runs `work` on a handle of its own, closed afterwards (the CLI opens the embedded one itself). */
async function withHandle<T>(
  database: TestDatabase,
  work: (h: DbHandle) => Promise<T>,
): Promise<T> {
  const handle = await database.open();
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

/** A digest of every weblate table but the run log, which records the refused runs. */
async function digests(handle: DbHandle): Promise<Record<string, string | null>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'weblate' and table_type = 'BASE TABLE'
      and table_name not like 'kysely%' and table_name <> 'sync_runs'
    order by 1`.execute(handle.db);
  const out: Record<string, string | null> = {};
  for (const { name } of tables.rows) {
    const row = await sql.raw<{ digest: string | null }>(tableDigestQuery(name)).execute(handle.db);
    out[name] = row.rows[0]!.digest;
  }
  return out;
}

/** Rows of projects, components and translations with a link the sync follows on `site`. */
async function linksOn(handle: DbHandle, site: string): Promise<number> {
  const result = await sql<{ n: number }>`
    select (select count(*) from weblate.projects
             where starts_with(components_list_url, ${site}) or starts_with(changes_list_url, ${site}))
         + (select count(*) from weblate.components
             where starts_with(url, ${site}) or starts_with(translations_url, ${site})
                or starts_with(statistics_url, ${site}))
         + (select count(*) from weblate.translations
             where starts_with(url, ${site}) or starts_with(statistics_url, ${site})
                or starts_with(units_list_url, ${site}))
         + (select count(*) from weblate.languages where starts_with(statistics_url, ${site}))
      as n`.execute(handle.db);
  return Number(result.rows[0]!.n);
}

/** The newest run in weblate.sync_runs. */
async function lastRun(handle: DbHandle) {
  return handle.db
    .selectFrom('weblate.sync_runs')
    .select(['kind', 'status', 'error', 'weblate_url'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
}

function expectRefused(result: SyncResult, recorded: string, configured: string): void {
  expect(result.status).toBe('failed');
  expect(result.error).toBeInstanceOf(InstanceMismatchError);
  expect(result.error?.message).toBe(mismatchMessage(recorded, configured));
  expect(result.instance).toBeNull();
  expect(result.summary.requests).toBe(0);
}

/** Every row's text with the moved address written as A's own, to compare with a mirror of A. */
function asReadFromA(snapshot: MirrorSnapshot): MirrorSnapshot {
  const fix = (text: string) => text.replaceAll(moved.url, simA.url);
  return {
    tables: Object.fromEntries(
      Object.entries(snapshot.tables).map(([table, rows]) => [table, rows.map(fix)]),
    ),
    changes: new Map([...snapshot.changes].map(([id, row]) => [id, fix(row)])),
    actions: snapshot.actions,
  };
}

describe('a database that mirrors A', () => {
  let database: TestDatabase;
  let apiA: string;

  beforeAll(async () => {
    database = await databases.create();
    apiA = `${simA.url}api/`;
    await withHandle(database, async (handle) => {
      const { result, logged } = await syncAt(handle, simA.url);
      expect([result.mode, result.status, result.instance]).toEqual(['full', 'succeeded', apiA]);
      expect(logged.filter((l) => String(l.msg).startsWith('instance recorded'))).toEqual([
        expect.objectContaining({ level: 30, instance: apiA }),
      ]);
    });
  });

  it('records the instance on its first sync: the API root and the projects mirrored', async () => {
    await withHandle(database, async (handle) => {
      expect(await readInstance(handle.db)).toMatchObject({
        api_root: apiA,
        fingerprint: simA.instance.projects.map((p) => ({ id: p.id, slug: p.slug })),
      });
      // weblate_reader reads it through the default privileges of migration 0003.
      const granted = await sql<{ can_select: boolean; can_write: boolean }>`
        select has_table_privilege('weblate_reader', 'weblate.instances', 'select') as can_select,
               has_table_privilege('weblate_reader', 'weblate.instances', 'insert, update, delete')
                 as can_write`.execute(handle.db);
      expect(granted.rows).toEqual([{ can_select: true, can_write: false }]);
    });
  });

  it("refuses B before any request, incremental and full, leaving A's tables as they were", async () => {
    const apiB = `${simB.url}api/`;
    await withHandle(database, async (handle) => {
      const before = await digests(handle);
      simB.requests.reset();
      for (const full of [false, true]) {
        const { result } = await syncAt(handle, simB.url, { full });
        expectRefused(result, apiA, apiB);
        expect(await lastRun(handle)).toEqual({
          kind: full ? 'full' : 'incremental',
          status: 'failed',
          error: mismatchMessage(apiA, apiB),
          weblate_url: apiB,
        });
      }
      expect(simB.requests.total).toBe(0);
      expect(await digests(handle)).toEqual(before);
    });
    // The CLI says it in one line, and exits 2 as for a setting that does not fit.
    const cli = await runCliInProcess(['sync'], {
      ...databaseEnv(database),
      WEBLATE_URL: simB.url,
      LOG_LEVEL: 'silent',
    });
    expect(cli.code).toBe(2);
    expect(cli.stdout).toMatch(/^incremental sync run \d+ into .*: failed\n$/);
    expect(cli.stderr).toBe(`error: ${mismatchMessage(apiA, apiB)}\n`);
    expect(simB.requests.total).toBe(0);
  });

  it("fails the worker's scheduled runs and webhook syncs against B, which go on failing", async () => {
    const config = loadConfig({ env: { WEBLATE_URL: simB.url }, envFile: false });
    const message = mismatchMessage(apiA, `${simB.url}api/`);
    await withHandle(database, async (handle) => {
      const { log } = captureLogger('info');
      const runner = new JobRunner({ handle, config, log, signal: new AbortController().signal });
      for (const job of JOBS) {
        const report = await runner.run(job);
        const error = 'result' in report ? report.result?.error?.message : null;
        expect([job.name, report.status, error]).toEqual([job.name, 'failed', message]);
      }
      const webhook = batchSync({
        db: handle.db,
        location: 'test',
        log,
        run: (j) => runner.run(j),
      });
      expect(await webhook({ events: 1, projects: null })).toEqual({ status: 'failed' });
      expect(await lastRun(handle)).toMatchObject({
        kind: 'webhook',
        status: 'failed',
        error: message,
      });
    });
    expect(simB.requests.total).toBe(0);
  });

  it('refuses `move-instance` to B, changing nothing', async () => {
    const before = await withHandle(database, digests);
    simB.requests.reset();
    const out = await runCommand(moveInstanceCommand, { ...databaseFlags(database), to: simB.url });
    expect([out.code, out.stdout]).toEqual([2, '']);
    expect(out.stderr).toBe(
      `${simB.url}api/ does not serve the instance this database mirrors (${apiA}): 1 of its 2 ` +
        'projects is not there with the same id and slug (weblate-2024 (id 2)). Nothing was ' +
        'changed. If it is the same instance (a project renamed or deleted since the last sync, ' +
        'or a token that sees fewer projects), run move-instance again with --force.\n',
    );
    expect(await withHandle(database, digests)).toEqual(before);
    // It read B's project list, and nothing else.
    expect(simB.requests.entries.map((e) => e.target)).toEqual(['/api/projects/?page_size=1000']);
  });

  it('refuses A at a new address with the move hint; after `move-instance` it syncs on from its cursors', async () => {
    const apiMoved = `${moved.url}api/`;
    simA.requests.reset();
    await withHandle(database, async (handle) => {
      const { result } = await syncAt(handle, moved.url);
      expectRefused(result, apiA, apiMoved);
      expect(result.error?.message).toContain(
        `run \`weblate-mirror move-instance --to ${apiMoved}\``,
      );
    });
    expect(simA.requests.total).toBe(0);

    const out = await runCommand(moveInstanceCommand, {
      ...databaseFlags(database),
      to: moved.url,
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(
      new RegExp(
        `^recorded that the mirrored instance moved from ${apiA} to ${apiMoved} \\(all 2 of its ` +
          "projects found there\\); \\d+ stored rows' links rewritten, the next sync goes on from where it was\\n$",
      ),
    );

    // Upstream moves on: a string edited and two added, which the next sync must bring.
    const { translationById } = simA.instance.index;
    const target = simA.instance.units.find(
      (u) => !translationById.get(u.translationId)!.isSource,
    )!;
    simA.mutate.editUnits([target.id]);
    simA.mutate.addUnits(simA.instance.components[0]!.id, 2);
    simA.requests.reset();
    await withHandle(database, async (handle) => {
      expect((await readInstance(handle.db))?.api_root).toBe(apiMoved);
      // No link the sync follows is left on the old address.
      expect(await linksOn(handle, simA.url)).toBe(0);
      const { result } = await syncAt(handle, moved.url);
      expect([result.mode, result.status, result.instance]).toEqual([
        'incremental',
        'succeeded',
        apiMoved,
      ]);
      // From its cursors: no list read again, no full walk of the units.
      const lists = /^\/api\/(projects|languages|components|translations)\/(\?|$)/;
      expect(simA.requests.entries.filter((e) => lists.test(e.target))).toEqual([]);
      const units = result.summary.resources.find((r) => r.resource === 'units')!;
      expect(units.records).toBeGreaterThan(0);
      expect(units.records).toBeLessThan(simA.instance.units.length / 4);
      // And everything of A there, as a fresh full sync of A has it.
      const fresh = await databases.create();
      const clean = await fresh.migrated();
      expect((await syncAt(clean, simA.url)).result.status).toBe('succeeded');
      const kept = asReadFromA(await snapshotMirror(handle.db));
      expect(compareMirrors(kept, await snapshotMirror(clean.db), () => false)).toEqual([]);
      await clean.close();

      // A quiet incremental sync still costs one request.
      const quiet = await syncAt(handle, moved.url);
      expect([quiet.result.status, requestsAsked(quiet.result)]).toEqual(['succeeded', 1]);
    });
    const status = await runCliInProcess(['status'], databaseEnv(database));
    expect(status.stdout.split('\n')[1]).toBe(`instance: ${apiMoved}`);
  });
});

describe('a database synced before the instance was recorded', () => {
  let database: TestDatabase;
  const forget = (handle: DbHandle) => sql`delete from weblate.instances`.execute(handle.db);

  beforeAll(async () => {
    database = await databases.create();
    await withHandle(database, async (handle) => {
      expect((await syncAt(handle, simA.url)).result.status).toBe('succeeded');
      await forget(handle);
    });
  });

  it('refuses B once B does not serve its projects, and records the address its runs read', async () => {
    await withHandle(database, async (handle) => {
      const before = await digests(handle);
      simB.requests.reset();
      const { result } = await syncAt(handle, simB.url);
      expect(result.status).toBe('failed');
      expect(result.error?.message).toBe(mismatchMessage(`${simA.url}api/`, `${simB.url}api/`));
      // One read of B's project list decided it.
      expect(simB.requests.entries.map((e) => e.target)).toEqual(['/api/projects/?page_size=1000']);
      expect((await readInstance(handle.db))?.api_root).toBe(`${simA.url}api/`);
      const { instances, ...mirrored } = await digests(handle);
      const { instances: none, ...mirroredBefore } = before;
      expect([none, instances]).toEqual([null, expect.any(String)]);
      expect(mirrored).toEqual(mirroredBefore);
      await forget(handle);
    });
  });

  it('adopts the address its runs read at no cost: a quiet sync is one request', async () => {
    await withHandle(database, async (handle) => {
      const { result, logged } = await syncAt(handle, simA.url);
      expect([result.status, requestsAsked(result)]).toEqual(['succeeded', 1]);
      expect(logged.filter((l) => String(l.msg).startsWith('instance recorded'))).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'instance recorded: the earlier runs of this database read it',
          instance: `${simA.url}api/`,
        }),
      ]);
      expect((await readInstance(handle.db))?.api_root).toBe(`${simA.url}api/`);
      await forget(handle);
    });
  });

  it('adopts a new address that serves its projects, moving the stored links to it', async () => {
    await withHandle(database, async (handle) => {
      const { result, logged } = await syncAt(handle, moved.url);
      expect([result.mode, result.status]).toEqual(['incremental', 'succeeded']);
      expect(logged.filter((l) => String(l.msg).startsWith('instance recorded'))).toEqual([
        expect.objectContaining({
          msg: 'instance recorded: it serves the projects this database mirrors',
          instance: `${moved.url}api/`,
        }),
      ]);
      expect((await readInstance(handle.db))?.api_root).toBe(`${moved.url}api/`);
      expect(await linksOn(handle, simA.url)).toBe(0);
    });
  });
});

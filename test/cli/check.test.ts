import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { locationOf } from '../../src/db/client.ts';
import { DISK_RESERVE_BYTES } from '../../src/db/embedded-limits.ts';
import { migrateTo, MIGRATION_NAMES, NEWEST_MIGRATION } from '../../src/db/schema-migrations.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv } from '../helpers/cli.ts';
import { runCliInProcess, syncedInProcess } from '../helpers/commands.ts';
import {
  DATABASE_KIND,
  TEST_DATABASE_URL,
  type TestDatabase,
  useTestDatabases,
} from '../helpers/database.ts';
import { adminQuery } from '../helpers/database-template.ts';
import { TINY_INSTANCE } from '../helpers/simulator-mirror.ts';

// `weblate-mirror check`: one line per connection a sync uses, exit 0 only when all hold, and
// for each thing that does not, the line that says what to fix.

const TOKEN = 'wlu_check_token';
const databases = useTestDatabases();
let sim: RunningSimulator;
let synced: TestDatabase;

beforeAll(async () => {
  sim = await startSimulator({
    ...TINY_INSTANCE,
    token: TOKEN,
    rateLimit: { limit: 500, windowSeconds: 3600, headers: true },
  });
  synced = await databases.create();
  await syncedInProcess(synced, sim.url, { WEBLATE_TOKEN: TOKEN });
});

afterAll(async () => {
  await sim?.close();
});

type Line = [status: string, name: string, detail: string];

/** Runs `check` and splits its lines into status, name and detail. */
async function check(env: Record<string, string>, ...flags: string[]) {
  const result = await runCliInProcess(['check', ...flags], { LOG_LEVEL: 'silent', ...env });
  const lines = result.stdout
    .trimEnd()
    .split('\n')
    .map((line): Line => {
      const match = /^(ok|failed|skipped) +([a-z]+): (.*)$/.exec(line);
      expect(match, line).not.toBeNull();
      return [match![1]!, match![2]!, match![3]!];
    });
  return { ...result, lines, byName: new Map(lines.map((l) => [l[1], l])) };
}

const NAMES =
  DATABASE_KIND === 'pglite'
    ? ['weblate', 'database', 'migrations', 'writable', 'disk', 'instance']
    : ['weblate', 'database', 'migrations', 'writable', 'instance'];

describe('check', () => {
  it('says ok for each connection, with the rate budget, and exits 0', async () => {
    const env = { ...databaseEnv(synced), WEBLATE_URL: sim.url, WEBLATE_TOKEN: TOKEN };
    sim.requests.reset();
    const result = await check(env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.lines.map((l) => [l[0], l[1]])).toEqual(NAMES.map((n) => ['ok', n]));
    expect(result.byName.get('weblate')![2]).toMatch(
      new RegExp(
        `^${sim.url}api/ answered; WEBLATE_TOKEN accepted; rate budget \\d+ of 500 requests left`,
      ),
    );
    expect(result.byName.get('instance')![2]).toBe(
      `this database mirrors ${sim.url}api/ (WEBLATE_URL)`,
    );
    // One request to Weblate, and nothing written to the database.
    expect(sim.requests.entries.map((e) => e.target)).toEqual(['/api/']);
  });

  it('prints one JSON object with --json', async () => {
    const result = await runCliInProcess(['check', '--json'], {
      ...databaseEnv(synced),
      WEBLATE_URL: sim.url,
      WEBLATE_TOKEN: TOKEN,
      LOG_LEVEL: 'silent',
    });
    expect(result.code).toBe(0);
    expect(result.stdout.slice(0, -1)).not.toContain('\n');
    const doc = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual([
      'format',
      'ok',
      'instance',
      'database',
      'checks',
      'rate_limit',
    ]);
    expect(doc).toMatchObject({
      format: 'weblate-mirror.check/1',
      ok: true,
      instance: `${sim.url}api/`,
      database: locationOf(synced),
      rate_limit: { limit: 500 },
    });
    const checks = doc.checks as Array<Record<string, unknown>>;
    expect(checks.map((c) => [c.name, c.status])).toEqual(NAMES.map((n) => [n, 'ok']));
    for (const c of checks) expect(Object.keys(c)).toEqual(['name', 'status', 'detail']);
  });

  it('names WEBLATE_TOKEN when Weblate refuses the token', async () => {
    const result = await check({
      ...databaseEnv(synced),
      WEBLATE_URL: sim.url,
      WEBLATE_TOKEN: 'wlu_wrong',
    });
    expect(result.code).toBe(1);
    const [status, , detail] = result.byName.get('weblate')!;
    expect(status).toBe('failed');
    expect(detail).toMatch(/Weblate rejected the credentials \(401 .*\); check WEBLATE_TOKEN/);
    expect(detail).not.toContain('wlu_wrong');
    expect(result.lines.filter((l) => l[0] !== 'ok').map((l) => l[1])).toEqual(['weblate']);
    expect(result.stderr).toBe(`weblate-mirror: 1 of ${NAMES.length} checks failed (weblate)\n`);
  });

  it('says Weblate cannot be reached after one attempt', async () => {
    const result = await check({
      ...databaseEnv(synced),
      WEBLATE_URL: 'http://127.0.0.1:1/',
      WEBLATE_MAX_ATTEMPTS: '5',
    });
    expect(result.code).toBe(1);
    expect(result.byName.get('weblate')).toEqual([
      'failed',
      'weblate',
      'cannot reach Weblate at http://127.0.0.1:1/ (connection refused): is it running, and is WEBLATE_URL right?',
    ]);
  });

  it('says the database cannot be reached, without its password, and skips what needs it', async () => {
    const result = await check({
      DATABASE_URL: 'postgres://analyst:s3cret@127.0.0.1:1/mirror',
      WEBLATE_URL: sim.url,
      WEBLATE_TOKEN: TOKEN,
    });
    expect(result.code).toBe(1);
    expect(result.lines.map((l) => [l[0], l[1]])).toEqual([
      ['ok', 'weblate'],
      ['failed', 'database'],
      ['skipped', 'migrations'],
      ['skipped', 'writable'],
      ['skipped', 'instance'],
    ]);
    expect(result.byName.get('database')![2]).toBe(
      'cannot reach the database at 127.0.0.1:1/mirror (connection refused): is PostgreSQL running, and is DATABASE_URL right?',
    );
    expect(result.stdout + result.stderr).not.toContain('s3cret');
  });

  it('fails a database of another instance with the line the sync would give', async () => {
    const other = await startSimulator(TINY_INSTANCE);
    try {
      const env = { ...databaseEnv(synced), WEBLATE_URL: other.url, LOG_LEVEL: 'silent' };
      const result = await check(env);
      const sync = await runCliInProcess(['sync'], env);
      expect([result.code, sync.code]).toEqual([1, 2]);
      const [status, , detail] = result.byName.get('instance')!;
      expect(status).toBe('failed');
      expect(`error: ${detail}\n`).toBe(sync.stderr);
    } finally {
      await other.close();
    }
  });

  it('names the migrations a database lacks, and passes where the first sync would create the mirror', async () => {
    const older = await databases.create({ empty: true });
    const handle = await older.open();
    await migrateTo(handle.db, MIGRATION_NAMES.at(-2)!);
    await handle.close();
    const env = { WEBLATE_URL: sim.url, WEBLATE_TOKEN: TOKEN };
    const result = await check({ ...databaseEnv(older), ...env });
    expect(result.code).toBe(1);
    expect(result.byName.get('migrations')).toEqual([
      'failed',
      'migrations',
      `1 pending (${NEWEST_MIGRATION}): run \`weblate-mirror migrate\`, or a sync, which applies them first`,
    ]);
    expect(result.byName.get('instance')![0]).toBe('skipped');
    const empty = await databases.create({ empty: true });
    const none = await check({ ...databaseEnv(empty), ...env });
    expect(none.code, none.stdout).toBe(0);
    expect(none.byName.get('database')).toEqual([
      'ok',
      'database',
      expect.stringMatching(/^no mirror in .* yet: the first sync creates it$/) as string,
    ]);
    expect(none.byName.get('migrations')![2]).toBe(
      `none applied yet: the first sync applies all ${MIGRATION_NAMES.length}`,
    );
    expect(none.byName.get('writable')![0]).toBe('ok');
    expect(none.byName.get('instance')![2]).toMatch(/^none recorded yet/);
  });

  it.runIf(TEST_DATABASE_URL !== null)(
    'says when the user of DATABASE_URL may not create the mirror in an empty database',
    async () => {
      const empty = await databases.create({ empty: true });
      const role = `wm_check_guest_${process.pid}`;
      await adminQuery(TEST_DATABASE_URL!, `drop role if exists ${role}`);
      await adminQuery(TEST_DATABASE_URL!, `create role ${role} login`);
      try {
        const url = new URL(empty.databaseUrl!);
        url.username = role;
        const result = await check({ DATABASE_URL: url.href, WEBLATE_URL: sim.url });
        expect(result.code).toBe(1);
        expect(result.byName.get('writable')).toEqual([
          'failed',
          'writable',
          expect.stringMatching(
            /^the user of DATABASE_URL may not create the weblate schema in .*: grant it CREATE on the database/,
          ) as string,
        ]);
      } finally {
        await adminQuery(TEST_DATABASE_URL!, `drop role ${role}`);
      }
    },
  );

  it.runIf(TEST_DATABASE_URL !== null)(
    'names the tables a user of DATABASE_URL may not write',
    async () => {
      const role = `wm_check_reader_${process.pid}`;
      const url = new URL(synced.databaseUrl!);
      await adminQuery(TEST_DATABASE_URL!, `drop role if exists ${role}`);
      await adminQuery(TEST_DATABASE_URL!, `create role ${role} login`);
      try {
        await adminQuery(synced.databaseUrl!, `grant usage on schema weblate to ${role}`);
        await adminQuery(
          synced.databaseUrl!,
          `grant select on all tables in schema weblate to ${role}`,
        );
        url.username = role;
        const result = await check({
          DATABASE_URL: url.href,
          WEBLATE_URL: sim.url,
          WEBLATE_TOKEN: TOKEN,
        });
        expect(result.code).toBe(1);
        const [status, , detail] = result.byName.get('writable')!;
        expect(status).toBe('failed');
        expect(detail).toMatch(
          /^the user of DATABASE_URL may not write weblate\.[a-z_]+(, weblate\.[a-z_]+)*: grant it INSERT, UPDATE and DELETE there$/,
        );
        expect(detail).toContain('weblate.sync_runs');
      } finally {
        await adminQuery(synced.databaseUrl!, `drop owned by ${role}`);
        await adminQuery(TEST_DATABASE_URL!, `drop role ${role}`);
      }
    },
  );
});

// A full disk under the embedded database, faked as test/sync/full-disk.test.ts does: a tmpfs
// of its own (mounting needs root, which the machines of this project's CI have), mostly
// taken by a ballast file. PostgreSQL has no data folder of the mirror's.
describe.runIf(DATABASE_KIND === 'pglite')('check on a full disk', () => {
  const run = promisify(execFile);
  let mountPoint: string | null = null;

  afterAll(async () => {
    if (mountPoint === null) return;
    await run('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('says how little room the embedded database has, and what to do', async () => {
    const point = mkdtempSync(join(tmpdir(), 'wm-check-disk-'));
    try {
      await run('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', point]);
    } catch (err) {
      rmSync(point, { recursive: true, force: true });
      throw new Error(
        `this test needs to mount a tmpfs of 128 MB (as root) to fill a disk: ${(err as Error).message}`,
      );
    }
    mountPoint = point;
    const dataDir = join(point, 'mirror');
    const env = { DATABASE_URL: '', WEBLATE_MIRROR_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const migrated = await runCliInProcess(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    const free = () => statfsSync(point).bavail * statfsSync(point).bsize;
    const ballast = join(point, 'ballast');
    const size = existsSync(ballast) ? statSync(ballast).size : 0;
    await run('fallocate', ['-l', String(size + free() - DISK_RESERVE_BYTES / 4), ballast]);
    const result = await check({ ...env, WEBLATE_URL: sim.url, WEBLATE_TOKEN: TOKEN });
    expect(result.code).toBe(1);
    expect(result.byName.get('disk')).toEqual([
      'failed',
      'disk',
      expect.stringMatching(
        new RegExp(
          `^the disk of the embedded database at ${dataDir} has \\d+ MB free, under the 48 MB a sync keeps free: free some space before the next sync\\.$`,
        ),
      ) as string,
    ]);
    expect(result.stderr).toMatch(/checks failed \((.*, )?disk\)\n$/);
  });
});

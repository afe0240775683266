import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv, runCli, type RunningCli, startCli } from '../helpers/cli.ts';
import { createTestDatabase, DATABASE_KIND, type TestDatabase } from '../helpers/database.ts';
import { dashboard, expandMacros, panelRows } from '../helpers/grafana.ts';
import { freePort } from '../helpers/ports.ts';
import { SMALL_INSTANCE } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * `serve` as a process on a mirror of the simulator, read by psql, the pg driver and every
 * Grafana panel's SQL. Only the embedded database is served: on the PostgreSQL run of the
 * suite, only the refusal to serve it runs.
 */

const run = promisify(execFile);

// The mirror's exact types as text, as the mirror itself reads them (src/db/client.ts), and
// interval as text, which PGlite does not parse either.
const TEXT_OIDS = [20, 1700, 1082, 1114, 1184, 1186];

function client(port: number, extra: Partial<pg.ClientConfig> = {}): pg.Client {
  const types = pg.types;
  return new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'grafana',
    database: 'weblate',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        TEXT_OIDS.includes(oid)
          ? (value: string) => value
          : (types.getTypeParser(oid, format ?? 'text') as (
              value: string,
            ) => unknown)) as typeof types.getTypeParser,
    },
    ...extra,
  });
}

async function connected(port: number, extra: Partial<pg.ClientConfig> = {}): Promise<pg.Client> {
  const c = client(port, extra);
  // A connection that serve ends must not crash the test process.
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

async function psql(port: number, statement: string, env: Record<string, string> = {}) {
  try {
    const { stdout } = await run(
      'psql',
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'grafana',
        '-d',
        'weblate',
        '-XAt',
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        statement,
      ],
      { env: { PATH: process.env.PATH ?? '', PGCONNECT_TIMEOUT: '10', ...env } },
    );
    return { code: 0, stdout, stderr: '' };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts serve on a free port and waits until it listens. */
async function startServe(
  database: TestDatabase,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ cli: RunningCli; port: number }> {
  const port = await freePort();
  const cli = startCli(
    ['serve', '--port', String(port), ...args],
    { ...databaseEnv(database), ...env },
    300_000,
  );
  await cli.waitForStderr(/serving the mirror to PostgreSQL clients/, 60_000);
  return { cli, port };
}

async function stop(cli: RunningCli): Promise<void> {
  cli.child.kill('SIGINT');
  const result = await cli.done;
  expect(result.code, result.stderr).toBe(0);
}

describe('serve on PostgreSQL', () => {
  it('says PostgreSQL speaks the protocol itself and exits 2', async () => {
    const result = await runCli(['serve'], {
      DATABASE_URL: 'postgres://reader@127.0.0.1:5432/warehouse',
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /PostgreSQL already speaks the protocol: point clients at 127\.0\.0\.1:5432\/warehouse, with a login granted weblate_reader/,
    );
  });
});

describe('serve beyond loopback', () => {
  it('refuses to listen without a password, in one line', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0'], { DATABASE_URL: '' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/only with a password: set SERVE_PASSWORD or --password-file/);
  });
});

describe.runIf(DATABASE_KIND === 'pglite')('serve on the embedded database', () => {
  let sim: RunningSimulator;
  let database: TestDatabase;
  /** Each panel's rows, read directly before serve started. */
  const direct = new Map<string, Record<string, unknown>[]>();
  let counts: Record<string, unknown>;
  let served: { cli: RunningCli; port: number };

  const countsOf = `select (select count(*) from weblate.units) as units,
    (select count(*) from weblate.sync_runs) as runs,
    (select count(*) from weblate.projects) as projects,
    (select max(id) from weblate.changes) as last_change`;

  beforeAll(async () => {
    sim = await startSimulator({ ...SMALL_INSTANCE, users: 1 });
    database = await createTestDatabase();
    const handle = await database.migrated();
    expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
    for (const panel of dashboard.panels)
      for (const target of panel.targets)
        direct.set(`${panel.title} (${target.refId})`, await panelRows(handle.db, target.rawSql));
    counts = (await sql.raw<Record<string, unknown>>(countsOf).execute(handle.db)).rows[0]!;
    await handle.close();
    served = await startServe(database);
  }, 180_000);

  afterAll(async () => {
    served?.cli.child.kill('SIGKILL');
    await sim?.close();
    await database?.drop();
  });

  it('answers psql as the read-only role', async () => {
    const result = await psql(served.port, 'select current_user, count(*) from weblate.projects');
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(`weblate_reader|${String(counts.projects)}`);
  });

  it("answers every Grafana panel's SQL with the rows read directly before serve started", async () => {
    const c = await connected(served.port);
    try {
      await c.query(`set timezone = 'UTC'`);
      for (const panel of dashboard.panels)
        for (const target of panel.targets) {
          const key = `${panel.title} (${target.refId})`;
          const { rows } = await c.query(expandMacros(target.rawSql));
          if (!target.rawSql.includes('sync_freshness')) expect(rows, key).toEqual(direct.get(key));
          else {
            // The age of the last sync, by the clock: only older now.
            const [before, now] = [direct.get(key)![0]!, rows[0] as Record<string, unknown>];
            expect(Object.keys(now), key).toEqual(Object.keys(before));
            for (const column of Object.keys(before))
              expect(Number(now[column]), key).toBeGreaterThanOrEqual(Number(before[column]));
          }
        }
    } finally {
      await c.end();
    }
  });

  it('refuses writes and the ways out of read-only, and nothing changes', async () => {
    const c = await connected(served.port);
    const attempts = [
      'insert into weblate.projects default values',
      "update weblate.projects set name = 'x'",
      'delete from weblate.units',
      'create table weblate.intruder (x int)',
      'create temp table intruder (x int)',
      'begin read write',
      'BEGIN READ/**/WRITE',
      'set default_transaction_read_only = off',
      'set session authorization postgres',
      'reset session authorization',
      'set role postgres',
      "select set_config('default_transaction_read_only', 'off', false)",
      "select query_to_xml('select set_config(''session_authorization'', ''postgres'', false)', true, false, '')",
      'reset all',
      'discard all',
      "do $$ begin execute 'reset session authorization'; end $$",
      "copy weblate.units to '/tmp/units.csv'",
      'truncate weblate.units',
    ];
    try {
      for (const statement of attempts) {
        const error = await c.query(statement).then(
          () => null,
          (err: unknown) => err as { code?: string; message: string },
        );
        expect(error, statement).not.toBeNull();
        expect(['25006', '42501'], `${statement}: ${error?.message}`).toContain(error?.code);
      }
      // A write with parameters goes over the extended protocol: Parse is refused alike.
      await expect(
        c.query('insert into weblate.sync_runs (kind) values ($1)', ['full']),
      ).rejects.toMatchObject({ code: '25006' });
      await expect(
        c.query({ text: 'select set_config($1, $2, false)', values: ['role', 'postgres'] }),
      ).rejects.toMatchObject({ code: '42501' });
      // Several statements in one simple query: the write after COMMIT still meets the guard.
      await expect(
        c.query('begin; commit; insert into weblate.projects default values'),
      ).rejects.toMatchObject({ code: '25006' });
      await expect(
        c.query('commit; set role postgres; insert into weblate.projects default values'),
      ).rejects.toMatchObject({ code: '42501' });
      const after = await c.query<{ user: string; readOnly: string }>(
        `select current_user as "user", current_setting('transaction_read_only') as "readOnly"`,
      );
      expect(after.rows[0]).toEqual({ user: 'weblate_reader', readOnly: 'on' });
      expect((await c.query(countsOf)).rows[0]).toEqual(counts);
    } finally {
      await c.end();
    }
    const refused = await psql(served.port, 'insert into weblate.projects default values');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/cannot execute INSERT in a read-only transaction/);
  });

  it("lets clients set ordinary parameters, and keeps each client's settings its own", async () => {
    const a = await connected(served.port, {
      application_name: 'dbt',
      options: '-c search_path=weblate',
    });
    const b = await connected(served.port);
    try {
      for (const statement of [
        `set timezone = 'America/New_York'`,
        `set application_name = 'grafana'`,
        'set statement_timeout = 30000',
        `set client_encoding = 'UTF8'`,
        `set datestyle = 'ISO, MDY'`,
        'set extra_float_digits = 3',
      ])
        await a.query(statement);
      await b.query(`set timezone = 'Asia/Tokyo'`);
      const show = async (c: pg.Client) =>
        (
          await c.query<{ tz: string; path: string; app: string }>(
            `select current_setting('TimeZone') as tz, current_setting('search_path') as path, current_setting('application_name') as app`,
          )
        ).rows[0];
      expect(await show(a)).toEqual({ tz: 'America/New_York', path: 'weblate', app: 'grafana' });
      expect(await show(b)).toMatchObject({ tz: 'Asia/Tokyo' });
      expect(
        (await b.query<{ v: string }>('select current_setting($1) as v', ['search_path'])).rows[0]!
          .v,
      ).not.toBe('weblate');
      // search_path from the startup packet: a table without its schema.
      expect((await a.query<{ n: string }>('select count(*) as n from projects')).rows[0]!.n).toBe(
        String(counts.projects),
      );
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('keeps named prepared statements of two connections apart', async () => {
    const a = await connected(served.port);
    const b = await connected(served.port);
    try {
      const ra = await a.query<{ n: string }>({
        name: 'S_1',
        text: 'select count(*) as n from weblate.units',
      });
      const rb = await b.query<{ n: string }>({
        name: 'S_1',
        text: 'select count(*) as n from weblate.projects',
      });
      expect(ra.rows[0]!.n).toBe(String(counts.units));
      expect(rb.rows[0]!.n).toBe(String(counts.projects));
      expect(
        (
          await a.query<{ n: string }>({
            name: 'S_1',
            text: 'select count(*) as n from weblate.units',
          })
        ).rows[0]!.n,
      ).toBe(String(counts.units));
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('serves clients while one holds a transaction open, then rolls it back when it leaves', async () => {
    const holder = await connected(served.port);
    await holder.query('begin');
    await holder.query('select count(*) from weblate.units');
    const other = psql(served.port, 'select 1');
    // The other client waits for the transaction: it ends when the holder leaves.
    await holder.end();
    expect((await other).stdout.trim()).toBe('1');
  });
});

describe.runIf(DATABASE_KIND === 'pglite')('serve with a password and the worker', () => {
  let sim: RunningSimulator;
  let database: TestDatabase;

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      projects: 1,
      components: 1,
      languages: 1,
      units: 20,
      changes: 10,
      users: 1,
    });
    database = await createTestDatabase();
    await (await database.migrated()).close();
  }, 120_000);

  afterAll(async () => {
    await sim?.close();
    await database?.drop();
  });

  it('asks for the password, and syncs while a client reads, which sees the new runs', async () => {
    const { cli, port } = await startServe(database, ['--worker'], {
      WEBLATE_URL: sim.url,
      SERVE_PASSWORD: 'sesame',
      SERVE_IDLE_IN_TRANSACTION_SECONDS: '1',
      WORKER_SYNC_CRON: '* * * * * *',
      WORKER_STATISTICS_CRON: 'off',
      WORKER_RECONCILE_CRON: 'off',
    });
    try {
      const wrong = await psql(port, 'select 1', { PGPASSWORD: 'open' });
      expect(wrong.stderr).toMatch(/FATAL: {2}password authentication failed for user "grafana"/);
      expect(cli.output.stderr).not.toMatch(/sesame/);

      const c = await connected(port, { password: 'sesame' });
      const runs = async () =>
        Number(
          (await c.query<{ n: string }>('select count(*) as n from weblate.sync_runs')).rows[0]!.n,
        );
      const first = await runs();
      let now = first;
      for (let i = 0; i < 600 && now <= first; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = await runs();
      }
      expect(now).toBeGreaterThan(first);

      // A transaction left open ends its connection, so that the mirror can go on writing.
      const ended = new Promise<Error>((resolve) => c.once('error', resolve));
      await c.query('begin');
      expect((await ended).message).toMatch(/idle-in-transaction timeout/);
      const after = await connected(port, { password: 'sesame' });
      const later = Number(
        (await after.query<{ n: string }>('select count(*) as n from weblate.sync_runs')).rows[0]!
          .n,
      );
      expect(later).toBeGreaterThanOrEqual(now);
      await after.end();
    } finally {
      await stop(cli);
    }
    expect(existsSync(join(database.dataDir, 'weblate-mirror.lock'))).toBe(false);
  }, 120_000);

  it('says which port is in use, exits 1 and leaves the folder unlocked', async () => {
    const taken = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runCli(['serve', '--port', String(port)], databaseEnv(database));
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n').at(-1)).toBe(
        `weblate-mirror: port ${port} on 127.0.0.1 is already in use (another server, perhaps another serve); choose another with --port (SERVE_PORT)`,
      );
      expect(existsSync(join(database.dataDir, 'weblate-mirror.lock'))).toBe(false);
    } finally {
      taken.close();
    }
  });
});

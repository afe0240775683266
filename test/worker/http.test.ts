import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDb, type DbHandle } from '../../src/db/client.ts';
import { lastSucceededSyncAt } from '../../src/db/queries/sync-runs.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { checkHealth } from '../../src/worker/health.ts';
import { startHttpServer } from '../../src/worker/http-server.ts';
import { createMetrics } from '../../src/worker/metrics.ts';
import { databaseEnv } from '../helpers/cli.ts';
import { createTestClient } from '../helpers/client.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { syncSimulator } from '../helpers/sync.ts';

let database: TestDatabase;
let handle: DbHandle;
let sim: RunningSimulator;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
  sim = await startSimulator({
    seed: 5,
    projects: 1,
    components: 2,
    languages: 2,
    units: 300,
    changes: 100,
    users: 1,
  });
});

afterAll(async () => {
  await sim.close();
  await database.drop();
});

/** Serves /healthz and /metrics for `db` on a free loopback port; returns fetch helpers. */
async function serve(db: DbHandle['db'], maxAgeSeconds = 3600) {
  const metrics = createMetrics({
    jobs: ['sync'],
    lastSyncAt: () => lastSucceededSyncAt(db),
  });
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    health: () => checkHealth(db, { maxAgeSeconds, timeoutMs: 2000 }),
    registry: metrics.registry,
    log: captureLogger('warn').log,
  });
  const get = async (path: string) => {
    const response = await fetch(new URL(path, server.url));
    return { status: response.status, text: await response.text() };
  };
  return { server, metrics, get };
}

async function healthz(get: (path: string) => Promise<{ status: number; text: string }>) {
  const { status, text } = await get('/healthz');
  return { status, body: JSON.parse(text) as Record<string, unknown> };
}

describe('/healthz', () => {
  it('answers 503 before any sync succeeded, 200 after one, and 503 once it is older than the limit', async () => {
    const { server, get } = await serve(handle.db, 3600);
    try {
      expect(await healthz(get)).toMatchObject({
        status: 503,
        body: { status: 'unhealthy', database: 'ok', reason: 'no sync has succeeded yet' },
      });
      expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
      const fresh = await healthz(get);
      expect(fresh).toMatchObject({ status: 200, body: { status: 'ok', reason: null } });
      expect(fresh.body.ageSeconds).toBeGreaterThanOrEqual(0);
      expect(fresh.body.lastSuccessfulSync).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);

      // The same sync, two hours later.
      await sql`update weblate.sync_runs set started_at = started_at - interval '2 hours',
        finished_at = finished_at - interval '2 hours'`.execute(handle.db);
      const stale = await healthz(get);
      expect(stale.status).toBe(503);
      expect(stale.body.reason).toMatch(
        /^the last successful sync finished 7\d{3} s ago, more than WORKER_HEALTH_MAX_AGE_SECONDS \(3600\)$/,
      );
    } finally {
      await server.close();
    }
  });

  it('does not count a statistics snapshot or a failed or interrupted run as a sync', async () => {
    const other = await createTestDatabase();
    try {
      const db = (await other.migrated()).db;
      await sql`insert into weblate.sync_runs (kind, status, weblate_url, finished_at) values
        ('statistics', 'succeeded', 'x', now()), ('incremental', 'failed', 'x', now()),
        ('incremental', 'interrupted', 'x', now())`.execute(db);
      expect(await checkHealth(db, { maxAgeSeconds: 3600 })).toMatchObject({
        healthy: false,
        reason: 'no sync has succeeded yet',
      });
    } finally {
      await other.drop();
    }
  });

  it('answers 503 with the reason when the database does not answer', async () => {
    const other = await createTestDatabase();
    const closed = await other.migrated();
    const { server, get } = await serve(closed.db);
    try {
      await closed.close();
      const down = await healthz(get);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unhealthy', database: 'unreachable' });
      expect(down.body.reason).toMatch(/^the database does not answer: /);
    } finally {
      await server.close();
      await other.drop();
    }
  });

  it('answers 503 when the PostgreSQL server cannot be reached', async () => {
    // Nothing listens on port 1: every connection attempt is refused.
    const unreachable = await createDb({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
      dataDir: database.dataDir,
    });
    const { server, get } = await serve(unreachable.db);
    try {
      const down = await healthz(get);
      expect(down.status).toBe(503);
      expect(down.body.reason).toBe(
        'the database does not answer: cannot reach the database at 127.0.0.1:1/none ' +
          '(connection refused): is PostgreSQL running, and is DATABASE_URL right?',
      );
    } finally {
      await server.close();
      await unreachable.close();
    }
  });
});

describe('/metrics', () => {
  it('serves the listed metrics in Prometheus text format with plausible values', async () => {
    const { server, metrics, get } = await serve(handle.db);
    try {
      const client = createTestClient(sim.url, {
        onResponse: ({ status }) => metrics.observeResponse(status),
      });
      metrics.watchGate(client.gate);
      let result: Awaited<ReturnType<typeof syncSimulator>>;
      try {
        const edited = sim.instance.units
          .filter(
            (u) => sim.instance.index.translationById.get(u.translationId)?.isSource === false,
          )
          .slice(0, 3);
        sim.mutate.editUnits(edited.map((u) => u.id));
        result = await syncSimulator(sim, handle, { full: true });
        metrics.recordRun('sync', result, new Date());
        sim.setRateLimit({ limit: 1000, windowSeconds: 3600, headers: true });
        await client.getJson('languages/', 'languages');
      } finally {
        sim.setRateLimit(null);
        await client.close();
      }
      const { status, text } = await get('/metrics');
      expect(status).toBe(200);
      const value = (series: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`${series} `));
        return line === undefined ? undefined : Number(line.slice(series.length + 1));
      };
      expect(value('weblate_mirror_job_runs_total{job="sync",status="succeeded"}')).toBe(1);
      expect(value('weblate_mirror_job_runs_total{job="sync",status="interrupted"}')).toBe(0);
      expect(value('weblate_mirror_job_skips_total{job="sync",reason="locked"}')).toBe(0);
      expect(value('weblate_mirror_weblate_requests_total{code="200"}')).toBe(1);
      for (const { resource, rows } of result.summary.resources)
        expect(value(`weblate_mirror_rows_written_total{table="${resource}"}`)).toBe(rows);
      expect(value('weblate_mirror_rows_written_total{table="units"}')).toBeGreaterThanOrEqual(3);
      expect(value('weblate_mirror_rejected_records_total{table="units"}')).toBe(0);
      const lastSuccess = value('weblate_mirror_job_last_success_timestamp_seconds{job="sync"}');
      expect(Math.abs(lastSuccess! - Date.now() / 1000)).toBeLessThan(600);
      const lag = value('weblate_mirror_data_freshness_lag_seconds');
      expect(lag).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThan(600);
      // 1000 a window, one request of this client spent.
      expect(value('weblate_mirror_rate_limit_remaining')).toBe(999);
      expect(text).toContain('weblate_mirror_process_resident_memory_bytes');
      expect(text).toContain('# TYPE weblate_mirror_job_runs_total counter');
    } finally {
      await server.close();
    }
  });

  it('reports an unknown freshness as +Inf before the first sync, and 404 elsewhere', async () => {
    const other = await createTestDatabase();
    try {
      const { server, get } = await serve((await other.migrated()).db);
      try {
        expect((await get('/metrics')).text).toMatch(
          /^weblate_mirror_data_freshness_lag_seconds \+Inf$/m,
        );
        expect((await get('/metrics')).text).toMatch(/^weblate_mirror_rate_limit_remaining Nan$/m);
        expect((await get('/nope')).status).toBe(404);
      } finally {
        await server.close();
      }
    } finally {
      await other.drop();
    }
  });

  it('reports the heap after the newest full collection, not the heap at the scrape', async () => {
    const metrics = createMetrics({ jobs: ['sync'], lastSyncAt: () => Promise.resolve(null) });
    const read = async () => {
      const text = await metrics.registry.getSingleMetricAsString(
        'weblate_mirror_nodejs_heap_live_bytes',
      );
      return Number(/^weblate_mirror_nodejs_heap_live_bytes (\S+)$/m.exec(text)?.[1]);
    };
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const before = await read();
    gc();
    const atCollection = process.memoryUsage().heapUsed;
    // The observer hears of the collection on a later turn of the event loop.
    for (let i = 0; i < 100 && Object.is(await read(), before); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // Allocated after the collection: in the heap at the scrape, not in the live heap.
    const held = Array.from({ length: 4000 }, (_, i) => new Array<number>(256).fill(i));
    expect(process.memoryUsage().heapUsed - atCollection).toBeGreaterThan(3 * 2 ** 20);
    expect(Math.abs((await read()) - atCollection)).toBeLessThan(2 ** 20);
    expect(held).toHaveLength(4000);
  });
});

describe('a port that is taken', () => {
  it('is named with WORKER_HTTP_PORT and the address, by the server and by `worker`', async () => {
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const line =
      `cannot serve /healthz and /metrics on 127.0.0.1:${port}: port ${port} is in use by ` +
      'another process: stop it, or choose another port with WORKER_HTTP_PORT (--http-port)';
    try {
      const metrics = createMetrics({ jobs: ['sync'], lastSyncAt: () => Promise.resolve(null) });
      await expect(
        startHttpServer({
          host: '127.0.0.1',
          port,
          health: () => checkHealth(handle.db, { maxAgeSeconds: 60 }),
          registry: metrics.registry,
          log: captureLogger('warn').log,
        }),
      ).rejects.toThrow(line);
      // A database of its own: this file's handle holds the embedded one open.
      const own = await createTestDatabase();
      const worker = await runCliInProcess(['worker', '--http-port', String(port)], {
        ...databaseEnv(own),
        WEBLATE_URL: sim.url,
        LOG_LEVEL: 'silent',
      });
      await own.drop();
      expect([worker.code, worker.stdout, worker.stderr]).toEqual([
        1,
        '',
        `weblate-mirror: ${line}\n`,
      ]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

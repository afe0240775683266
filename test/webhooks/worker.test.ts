import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { JOBS } from '../../jobs/index.ts';
import { loadConfig } from '../../src/config.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { runWorker } from '../../src/worker/worker.ts';
import { databaseEnv } from '../helpers/cli.ts';
import { manualClock } from '../helpers/clock.ts';
import { type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { subscribedUsers, syncSimulator } from '../helpers/sync.ts';
import { waitFor } from '../helpers/wait.ts';
import { pythonJsonDumps, webhookHeaders, weblateChange } from '../helpers/webhooks.ts';
import { runWorkerInProcess, webhookWorkerEnv, workerStarted } from '../helpers/worker.ts';

/**
 * The worker with WEBLATE_WEBHOOK_SECRET, fed by the simulator's webhooks (sent as Weblate's
 * add-on sends them). Its scheduled sync runs only when a test moves its manual clock on, so
 * every sync before that is one the webhooks started.
 */

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const databases = useTestDatabases();
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Setup {
  sim: RunningSimulator;
  db: TestDatabase;
  handle: DbHandle;
  worker: Awaited<ReturnType<typeof startWorker>>;
}

async function startWorker(db: TestDatabase, handle: DbHandle, sim: RunningSimulator) {
  const env = {
    ...databaseEnv(db),
    WEBLATE_URL: sim.url,
    WEBLATE_USERS: subscribedUsers(sim).join(','),
    ...webhookWorkerEnv(SECRET),
  };
  const run = runWorkerInProcess(handle, env);
  cleanups.push(() => run.stop().catch(() => undefined));
  const started = await workerStarted(run);
  return {
    clock: run.clock,
    lines: run.lines,
    stop: run.stop,
    webhookUrl: started.webhooks as string,
    metricsUrl: `${String(started.http)}metrics`,
  };
}

async function setup(seed: number): Promise<Setup> {
  const sim = await startSimulator({
    seed,
    projects: 2,
    components: 3,
    languages: 3,
    units: 300,
    changes: 150,
    users: 1,
  });
  cleanups.push(() => sim.close());
  const db = await databases.create();
  const handle = await db.migrated();
  expect((await syncSimulator(sim, handle)).status).toBe('succeeded');
  const worker = await startWorker(db, handle, sim);
  sim.setWebhook({ url: worker.webhookUrl, secret: SECRET });
  return { sim, db, handle, worker };
}

async function targetsOf(handle: DbHandle, ids: number[]): Promise<Map<number, string>> {
  const rows = await handle.db
    .selectFrom('weblate.units')
    .select(['id', 'target'])
    .where('id', 'in', ids.map(String))
    .execute();
  return new Map(rows.map((r) => [Number(r.id), JSON.stringify(r.target)]));
}

function simTargets(sim: RunningSimulator, ids: number[]): Map<number, string> {
  return new Map(
    ids.map((id) => [id, JSON.stringify(sim.instance.index.unitById.get(id)!.target)]),
  );
}

/** Requests a run asked for besides units, a request tried again counting once. */
function requestsBesideUnits(summary: unknown): number {
  const { resources } = summary as {
    resources: Array<{ resource: string; requests: number; retries: number }>;
  };
  return resources
    .filter((r) => r.resource !== 'units')
    .reduce((n, r) => n + r.requests - r.retries, 0);
}

async function succeededRuns(handle: DbHandle, kind: string): Promise<number> {
  const rows = await handle.db
    .selectFrom('weblate.sync_runs')
    .select('id')
    .where('kind', '=', kind)
    .where('status', '=', 'succeeded')
    .execute();
  return rows.length;
}

async function webhookRuns(handle: DbHandle) {
  const runs = await sql<{ status: string; requests: number; summary: unknown }>`
    select status, requests, summary from weblate.sync_runs where kind = 'webhook' order by id`.execute(
    handle.db,
  );
  return runs.rows;
}

describe('the worker with webhooks', () => {
  it('mirrors edits within seconds of their webhooks, in one coalesced sync of a few requests', async () => {
    const { sim, handle, worker } = await setup(31);
    const edited = sim.instance.units
      .filter(
        (u) => u.state === 20 && !sim.instance.index.translationById.get(u.translationId)!.isSource,
      )
      .slice(0, 6)
      .map((u) => u.id);
    sim.requests.reset();
    sim.mutate.editUnits(edited);
    const expected = simTargets(sim, edited);
    await waitFor(async () => {
      const mirrored = await targetsOf(handle, edited);
      return edited.every((id) => mirrored.get(id) === expected.get(id)) || undefined;
    }, 'the edits to reach the mirror');
    await sim.webhooksIdle();
    expect(sim.webhookDeliveries()).toMatchObject({ delivered: 6, failed: 0, dropped: 0 });
    // Rows are committed page by page: the run ends a little after the edits arrive.
    const runs = await waitFor(async () => {
      const found = await webhookRuns(handle);
      return found.length > 0 && found.every((r) => r.status !== 'running') ? found : undefined;
    }, 'the webhook sync to end');
    expect(runs.every((r) => r.status === 'succeeded')).toBe(true);
    // Events of one burst come in one sync (a straggler may make a second).
    expect(runs.length).toBeLessThanOrEqual(2);
    // Each: the change list and the translations of the component that moved; besides,
    // units (and the probe of the unit list, once for the worker's life).
    const paths = sim.requests.entries.map((e) => e.target.replace(/\?.*/, ''));
    const component = paths.find((p) => p.endsWith('/translations/'))!;
    expect(new Set(paths.filter((p) => !p.startsWith('/api/units/')))).toEqual(
      new Set(['/api/changes/', component]),
    );
    expect(runs.map((r) => requestsBesideUnits(r.summary))).toEqual(runs.map(() => 2));
    // The coalescer counts a sync once the job runner hands its result back, a moment after
    // the run's row says it ended.
    const metrics = await waitFor(async () => {
      const text = await (await fetch(worker.metricsUrl)).text();
      return /weblate_mirror_webhook_freshness_lag_seconds_count 6\b/.test(text) ? text : undefined;
    }, 'the lag of every event in /metrics');
    expect(metrics).toMatch(/weblate_mirror_webhook_events_accepted_total 6\b/);
    expect(metrics).toMatch(/weblate_mirror_webhook_syncs_total\{status="succeeded"\} [12]\b/);
    expect(metrics).toMatch(/weblate_mirror_webhook_freshness_lag_seconds_count 6\b/);
    // Equal to a full sync but for the statistics snapshots, owed to the scheduled sync.
    const clean = await databases.migrated();
    expect((await syncSimulator(sim, clean)).status).toBe('succeeded');
    const cleanMirror = await snapshotMirror(clean.db);
    const changesAtClean = sim.instance.changes.length;
    const differences = compareMirrors(await snapshotMirror(handle.db), cleanMirror, () => false);
    expect(differences.map((d) => d.table).sort()).toEqual([
      'language_statistics',
      'translation_statistics',
    ]);
    const owed = await handle.db
      .selectFrom('weblate.sync_pending')
      .select('id')
      .where('kind', '=', 'snapshot')
      .execute();
    expect(owed.length).toBeGreaterThan(0);
    worker.clock.advance(2);
    await waitFor(
      async () => (await succeededRuns(handle, 'incremental')) > 0 || undefined,
      'the scheduled sync',
    );
    await worker.stop();
    // The simulator has not changed since that clean sync: it is still a clean sync of it now.
    expect(sim.instance.changes.length).toBe(changesAtClean);
    expect(compareMirrors(await snapshotMirror(handle.db), cleanMirror, () => false)).toEqual([]);
    const left = await handle.db.selectFrom('weblate.sync_pending').select('kind').execute();
    expect(left).toEqual([]);
  });

  it('keeps its schedule and a few syncs under a flood of events', async () => {
    const { sim, handle, worker } = await setup(33);
    sim.setWebhook(null);
    const project = sim.instance.projects[0]!.slug;
    const statuses = new Map<number, number>();
    const started = Date.now();
    let sent = 0;
    // Bounded in count, and in time for a machine too slow to send them all.
    const sender = async () => {
      while (sent < 300 && Date.now() - started < 60_000) {
        const body = pythonJsonDumps(weblateChange(++sent, { project }));
        const response = await fetch(worker.webhookUrl, {
          method: 'POST',
          headers: webhookHeaders({
            secret: SECRET,
            id: `flood-${sent}`,
            timestamp: Date.now() / 1000,
            body,
          }),
          body,
        });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (sent % 100 === 0) worker.clock.advance(2);
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    const floodMs = Date.now() - started;
    // Every event was queued, however many the machine sent in the time.
    expect(Object.fromEntries(statuses)).toEqual({ 202: sent });
    expect(sent).toBeGreaterThanOrEqual(100);
    // The scheduled syncs took their turns at the writer lock.
    await waitFor(
      async () => (await succeededRuns(handle, 'incremental')) > 0 || undefined,
      'a scheduled sync during the flood',
    );
    await waitFor(async () => {
      const runs = await webhookRuns(handle);
      return runs.length > 0 && runs.every((r) => r.status !== 'running') ? runs : undefined;
    }, 'the webhook syncs to end');
    // One sync per debounce at most (0.5 s), not one per event.
    const runs = await webhookRuns(handle);
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(floodMs / 500) + 2);
    expect(runs.length).toBeLessThan(sent / 10);
    await worker.stop();
  });

  it('refuses a secret without an HTTP port to receive on', async () => {
    const db = await databases.create();
    const handle = await db.migrated();
    const config = loadConfig({
      env: {
        ...databaseEnv(db),
        WEBLATE_URL: 'http://127.0.0.1:9/',
        WEBLATE_WEBHOOK_SECRET: SECRET,
      },
      envFile: false,
    });
    await expect(
      runWorker({
        handle,
        config,
        log: captureLogger('info').log,
        signal: new AbortController().signal,
        jobs: JOBS,
        clock: manualClock(),
      }),
    ).rejects.toThrow(/WEBLATE_WEBHOOK_SECRET is set but WORKER_HTTP_PORT is not/);
  });

  it('leaves lost webhooks to the scheduled sync', async () => {
    const { sim, handle, worker } = await setup(32);
    // Webhooks lost: the add-on's receiver was down, or the add-on was off.
    sim.setWebhook(null);
    const edited = sim.instance.units
      .filter(
        (u) => u.state === 20 && !sim.instance.index.translationById.get(u.translationId)!.isSource,
      )
      .slice(0, 4)
      .map((u) => u.id);
    sim.mutate.editUnits(edited);
    const expected = simTargets(sim, edited);
    await new Promise((r) => setTimeout(r, 500));
    const stale = await targetsOf(handle, edited);
    expect(edited.some((id) => stale.get(id) !== expected.get(id))).toBe(true);
    // The next scheduled tick.
    worker.clock.advance(2);
    await waitFor(async () => {
      const mirrored = await targetsOf(handle, edited);
      return edited.every((id) => mirrored.get(id) === expected.get(id)) || undefined;
    }, 'the scheduled sync');
    expect(await webhookRuns(handle)).toEqual([]);
    await worker.stop();
  });
});

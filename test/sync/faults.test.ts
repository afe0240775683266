import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { countRows } from '../../src/db/queries/status.ts';
import { parseJsonLossless } from '../../src/lib/json.ts';
import { FAULT_KINDS, type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { createTestClient } from '../helpers/client.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { compareMirrors, type MirrorSnapshot, snapshotMirror } from '../helpers/mirror-compare.ts';
import { startRewritingProxy } from '../helpers/proxy.ts';
import { subscribedUsers, syncAsWriter, syncSimulator } from '../helpers/sync.ts';

const TOKEN = 'wlu_NeverLogThisToken42';
const SIZE = { projects: 2, components: 4, languages: 3, units: 1200, changes: 600, users: 2 };
const SMALL = { projects: 2, components: 2, languages: 1, units: 30, changes: 20, users: 1 };
let sim: RunningSimulator;
let clean: MirrorSnapshot;
const databases = useTestDatabases();

const fastRetries = {
  timeoutMs: 400,
  connectTimeoutMs: 400,
  maxAttempts: 10,
  retryBaseMs: 5,
  retryCapMs: 40,
};

beforeAll(async () => {
  sim = await startSimulator({ seed: 31, ...SIZE });
  const handle = await databases.migrated();
  const result = await syncSimulator(sim, handle);
  expect(result.status).toBe('succeeded');
  clean = await snapshotMirror(handle.db);
});

afterAll(async () => {
  await sim.close();
});

describe('a sync against a misbehaving server', () => {
  it('succeeds through 10% failures of every kind and equals the fault-free mirror', async () => {
    const handle = await databases.migrated();
    sim.setFaults({ rate: 0.1, seed: 7, retryAfterSeconds: 0.05, hangMs: 2000 });
    // Besides the random ones, every kind at least once.
    const forced = FAULT_KINDS.map((kind, i) =>
      sim.failNext(
        1,
        kind,
        [
          /\/api\/languages\//,
          /\/api\/projects\//,
          /\/api\/components\//,
          /\/api\/translations\//,
          /\/api\/units\//,
          /\/changes\//,
          /\/statistics\//,
          /\/notifications\//,
        ][i],
      ),
    );
    const { log, lines } = captureLogger('trace');
    try {
      const result = await syncSimulator(sim, handle, {
        log,
        client: { ...fastRetries, token: TOKEN, log },
      });
      expect([result.status, result.error]).toEqual(['succeeded', null]);
      expect(forced.map((f) => f.failed)).toEqual(FAULT_KINDS.map(() => 1));
      expect(sim.requests.faults).toBeGreaterThan(FAULT_KINDS.length);
      expect(result.summary.resources.reduce((n, r) => n + r.retries, 0)).toBeGreaterThanOrEqual(
        sim.requests.faults,
      );
    } finally {
      sim.setFaults(null);
    }
    expect(compareMirrors(await snapshotMirror(handle.db), clean, () => false)).toEqual([]);
    // The token appears in no log line, run error or rejection.
    expect(lines.length).toBeGreaterThan(30);
    expect(lines.filter((l) => l.includes(TOKEN))).toEqual([]);
    const stored = await sql<{ text: string }>`
      select coalesce(string_agg(error, ' '), '') || coalesce((select string_agg(reason, ' ') from weblate.rejected_records), '') as text
      from weblate.sync_runs`.execute(handle.db);
    expect(stored.rows[0]!.text).not.toContain(TOKEN);
  });

  it('fails clearly when failures outlast the attempts, keeps what it committed, and the next run completes', async () => {
    const handle = await databases.migrated();
    // The walk's first page, its first window (`id:<=N`), at whatever size it is asked (not
    // the capability probe before it, which asks `id:<=0` and more).
    sim.failNext(3, '503', /\/api\/units\/\?q=id%3A%3C%3D\d+&page_size=\d+$/);
    const failed = await syncSimulator(sim, handle, {
      client: { ...fastRetries, maxAttempts: 3, token: TOKEN },
    });
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).toMatch(
      /^units: GET http:\/\/127\.0\.0\.1:\d+\/api\/units\/\?q=id%3A%3C%3D\d+&page_size=1000 failed after 3 attempts: answered 503/,
    );
    expect(failed.error?.message).not.toContain(TOKEN);
    const committed = await countRows(handle.db);
    expect(committed.translations).toBe(sim.instance.translations.length);
    expect(committed.units).toBe(0);
    const next = await syncSimulator(sim, handle, { client: fastRetries });
    expect([next.status, next.mode]).toEqual(['succeeded', 'full']);
    expect(compareMirrors(await snapshotMirror(handle.db), clean, () => false)).toEqual([]);
  });
});

describe('the rate budget', () => {
  // Pacing, not volume, is what these prove: a small instance takes fewer paced requests.
  let small: RunningSimulator;
  let smallClean: MirrorSnapshot;
  beforeAll(async () => {
    small = await startSimulator({ seed: 32, ...SMALL });
    const handle = await databases.migrated();
    expect((await syncSimulator(small, handle)).status).toBe('succeeded');
    smallClean = await snapshotMirror(handle.db);
  });
  afterAll(async () => {
    await small.close();
  });

  it('is never exceeded when the server advertises it', async () => {
    const handle = await databases.migrated();
    // Four requests a second: far below what the sync would do unpaced, on any machine.
    small.setRateLimit({ limit: 4, windowSeconds: 1, headers: true });
    small.requests.reset();
    try {
      const started = Date.now();
      const result = await syncSimulator(small, handle, { client: fastRetries });
      expect(result.status).toBe('succeeded');
      expect(small.requests.throttled).toBe(0);
      expect(small.requests.total).toBeGreaterThan(8);
      // It was paced: at most four requests in any second.
      expect(Date.now() - started).toBeGreaterThanOrEqual(
        (Math.ceil(small.requests.total / 4) - 1) * 1000,
      );
    } finally {
      small.setRateLimit(null);
    }
    expect(compareMirrors(await snapshotMirror(handle.db), smallClean, () => false)).toEqual([]);
  });

  it('is honoured through 429 and Retry-After when the server does not advertise it', async () => {
    const handle = await databases.migrated();
    // One request per 0.15 s: the two projects' change lists are requested at once, so one meets a 429.
    small.setRateLimit({ limit: 1, windowSeconds: 0.15, headers: false });
    small.requests.reset();
    try {
      const result = await syncSimulator(small, handle, { client: fastRetries });
      expect(result.status).toBe('succeeded');
      expect(small.requests.throttled).toBeGreaterThan(0);
      expect(compareMirrors(await snapshotMirror(handle.db), smallClean, () => false)).toEqual([]);
    } finally {
      small.setRateLimit(null);
    }
  });
});

/** Rewrites the text of the unit with `id` inside a unit list body. */
function rewriteUnit(body: string, id: number, edit: (text: string) => string): string {
  const texts = parseJsonLossless(body).resultTexts ?? [];
  const text = texts.find((t) => t.includes(`"id":${id},`));
  return text === undefined ? body : body.replace(text, edit(text));
}

describe('records that cannot be stored', () => {
  it('go to rejected_records with the reason while the rest of their page lands', async () => {
    const handle = await databases.migrated();
    const [bad, nul] = sim.instance.units.filter((u) => u.state === 20).slice(0, 2);
    const proxy = await startRewritingProxy(sim.url, (path, body) =>
      /\/units\/(\?|$)/.test(path)
        ? rewriteUnit(
            rewriteUnit(body, bad!.id, (text) =>
              text.replace('"state":20', '"state":"translated"'),
            ),
            nul!.id,
            (text) => text.replace('"note":"', '"note":"\\u0000'),
          )
        : body,
    );
    try {
      const users = subscribedUsers(sim);
      const result = await syncAsWriter(handle, {
        log: captureLogger().log,
        scope: { projects: null, users },
        client: () => createTestClient(proxy.url, fastRetries),
      });
      expect([result.status, result.summary.rejected >= 2]).toEqual(['succeeded', true]);
      const rejected = await sql<{ resource: string; reason: string; raw: string }>`
        select resource, reason, raw from weblate.rejected_records where run_id = ${result.runId} order by id`.execute(
        handle.db,
      );
      const reasons = rejected.rows.map((r) => r.reason);
      expect(reasons.some((r) => r.includes(`(id ${bad!.id}): field "state"`))).toBe(true);
      expect(reasons.some((r) => r.includes(`(id ${nul!.id}): contains a NUL character`))).toBe(
        true,
      );
      expect(rejected.rows.every((r) => r.resource === 'units')).toBe(true);
      const stored = await sql<{
        n: number;
      }>`select count(*)::int as n from weblate.units where id in (${bad!.id}, ${nul!.id})`.execute(
        handle.db,
      );
      expect(stored.rows[0]!.n).toBe(0);
      expect((await countRows(handle.db)).units).toBe(sim.instance.units.length - 2);
      const run = await sql<{
        rejected: number;
      }>`select rejected from weblate.sync_runs where id = ${result.runId}`.execute(handle.db);
      expect(run.rows[0]!.rejected).toBe(result.summary.rejected);
    } finally {
      await proxy.close();
    }
  });

  it('stop at a next link that leaves the configured origin', async () => {
    const handle = await databases.migrated();
    const proxy = await startRewritingProxy(sim.url, (path, body) =>
      path.startsWith('/api/languages/')
        ? body.replace('"next":null', '"next":"https://elsewhere.example/api/languages/?page=2"')
        : body,
    );
    try {
      const result = await syncAsWriter(handle, {
        log: captureLogger().log,
        scope: { projects: null, users: [] },
        client: () => createTestClient(proxy.url, fastRetries),
      });
      expect(result.status).toBe('failed');
      expect(result.error?.message).toMatch(
        /^languages: the next link of .* was refused: refusing https:\/\/elsewhere\.example\/api\/languages\/: it is not on/,
      );
    } finally {
      await proxy.close();
    }
  });
});

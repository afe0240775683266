import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { runCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { TINY_INSTANCE } from '../helpers/simulator-mirror.ts';
import { subscribedUsers } from '../helpers/sync.ts';
import { waitFor } from '../helpers/wait.ts';
import { runWorkerInProcess, workerStarted } from '../helpers/worker.ts';
import { type HttpReceiver, startHttpReceiver } from './channels/receivers.ts';

/**
 * The watch inside the worker: a bad rules file stops `worker` before it starts, every bad
 * line named; a good one is evaluated after each run, its events sent (a channel that cannot
 * be reached is said in one line and waits, the worker going on), and the badges written and
 * served by the worker's HTTP server.
 */

let sim: RunningSimulator;
let database: TestDatabase;
let dir: string;
let receiver: HttpReceiver;

beforeAll(async () => {
  sim = await startSimulator(TINY_INSTANCE);
  database = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'weblate-mirror-worker-watch-'));
  // A path of its own refuses (404): the channel that cannot deliver, at once and every time.
  receiver = await startHttpReceiver((_, request, response) =>
    response.writeHead(request.url.includes('refuse') ? 404 : 200).end(),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([sim?.close(), receiver?.close(), database?.drop()]);
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

function env(rulesFile: string): Record<string, string> {
  return {
    ...(database.databaseUrl === null
      ? { WEBLATE_MIRROR_DATA_DIR: database.dataDir, DATABASE_URL: '' }
      : { DATABASE_URL: database.databaseUrl, WEBLATE_MIRROR_DATA_DIR: database.dataDir }),
    WEBLATE_URL: sim.url,
    WEBLATE_USERS: subscribedUsers(sim).join(','),
    WORKER_SYNC_CRON: '*/2 * * * * *',
    WORKER_STATISTICS_CRON: 'off',
    WORKER_RECONCILE_CRON: 'off',
    WORKER_HTTP_PORT: '0',
    WATCH_RULES_FILE: rulesFile,
    BADGES_DIR: join(dir, 'badges'),
    WEBLATE_MAX_ATTEMPTS: '1',
  };
}

describe('the watch in the worker', () => {
  it('stops the worker before it starts when the rules file is bad, naming every line', async () => {
    const file = join(dir, 'bad.yml');
    await writeFile(
      file,
      'rules:\n  - { type: stalled, days: 0 }\n  - { type: readiness, level: high }\n',
    );
    const result = await runCli(['worker'], env(file));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file} line 2: rules[0].days must be a whole number`);
    expect(result.stderr).toContain(`${file} line 3: rules[1].level must be a number`);
    expect(result.stderr).not.toContain('worker started');
  });

  it('evaluates after each run, sends what fires, and writes and serves the badges', async () => {
    const file = join(dir, 'watch.yml');
    await writeFile(
      file,
      `channels:
  - { name: hook, type: webhook, url: "${receiver.url}" }
  - { name: nowhere, type: webhook, url: "${receiver.url}refuse" }
rules:
  - { type: mirror-stale, failed_runs: 1 }
  - { type: readiness, level: 0 }
`,
    );
    const handle = await database.migrated();
    const worker = runWorkerInProcess(handle, env(file));
    try {
      const started = await workerStarted(worker);
      expect(started.watch).toEqual({ rules: 2, channels: ['hook', 'nowhere'], file });
      // A run that fails: the mirror is stale at once (one failed run is the rule's limit).
      sim.failNext(1, '500');
      worker.clock.advance(2);
      const atHook = (type: string) =>
        receiver.requests.find(
          (r) => !r.url.includes('refuse') && r.body.includes(`"alert.${type}"`),
        );
      const fired = await waitFor(() => atHook('fired'), 'the fired event at the receiver');
      expect((JSON.parse(fired.body) as { key: string }).key).toBe('mirror-stale#1/fired');
      // The channel that cannot deliver: one line saying so, and the worker goes on.
      await waitFor(
        () => worker.lines.find((l) => l.includes('watch channel nowhere:')),
        'the line about the channel that refuses',
      );
      // Good runs from now on, one tick at a time, each awaited until the watch has looked at
      // the newest ended run (a tick while a run or its watch is going is skipped, and waits the
      // same), until the staleness resolves.
      const ticks = () =>
        worker.lines.filter((l) => /"msg":"job (finished|skipped)/.test(l)).length;
      const caughtUp = async () =>
        (
          await sql<{ ok: boolean }>`
            select coalesce((select max(id) from weblate.sync_runs where status <> 'running')
              = (select max(run_id) from weblate.watch_evaluations), false) as ok`.execute(
            handle.db,
          )
        ).rows[0]!.ok;
      const logs = () => worker.lines.slice(-15).join('\n');
      for (let i = 0; i < 10 && atHook('resolved') === undefined; i++) {
        const before = ticks();
        worker.clock.advance(2);
        await waitFor(() => ticks() > before, `a run or a skip; logs:\n${logs()}`);
        await waitFor(caughtUp, `the watch after the run; logs:\n${logs()}`);
      }
      const resolved = await waitFor(
        () => atHook('resolved'),
        `the resolution at the receiver; logs:\n${logs()}`,
      );
      expect((JSON.parse(resolved.body) as { key: string }).key).toBe('mirror-stale#1/resolved');
      const badge = await waitFor(
        () => readFile(join(dir, 'badges', 'languages-90.svg'), 'utf8').catch(() => undefined),
        'the badge file',
      );
      const http = String(started.http);
      const served = await fetch(`${http}badges/languages-90.svg`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toContain('image/svg+xml');
      expect(await served.text()).toBe(badge);
      const { rows } = await sql<{ rule: string }>`
        select rule from weblate.watch_evaluations order by rule`.execute(handle.db);
      expect(rows.map((r) => r.rule)).toEqual(['mirror-stale', 'readiness-0']);
    } finally {
      await worker.stop();
      await handle.close();
    }
  }, 180_000);
});

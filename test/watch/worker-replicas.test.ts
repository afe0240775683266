import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv, type RunningCli, startCli } from '../helpers/cli.ts';
import { createTestDatabase, DATABASE_KIND, type TestDatabase } from '../helpers/database.ts';
import { subscribedUsers } from '../helpers/sync.ts';
import { waitFor } from '../helpers/wait.ts';
import { type HttpReceiver, startHttpReceiver } from './channels/receivers.ts';

/**
 * `weblate-mirror worker` processes, syncing every second: on PostgreSQL two of them at once
 * (one stopped and started again midway), on the embedded database one, stopped and started
 * again. Conditions the simulator's changes start and end reach the receiver once each, in the
 * order the events happened, whichever process evaluated or delivered them.
 */

let sim: RunningSimulator;
let database: TestDatabase;
let dir: string;
let receiver: HttpReceiver;
/** The keys the receiver took, in the order they came. */
const taken: string[] = [];
const workers: RunningCli[] = [];

beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    projects: 1,
    components: 1,
    languages: 2,
    units: 20,
    changes: 10,
    users: 1,
  });
  database = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'weblate-mirror-replicas-'));
  receiver = await startHttpReceiver((_, request, response) => {
    taken.push((JSON.parse(request.body) as { key: string }).key);
    response.writeHead(200).end();
  });
}, 120_000);

afterAll(async () => {
  for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.done));
  await Promise.all([sim?.close(), receiver?.close(), database?.drop()]);
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function stop(worker: RunningCli): Promise<void> {
  worker.child.kill('SIGTERM');
  expect((await worker.done).code).toBe(0);
}

describe('watching workers', () => {
  it('send each event once, in order, across replicas and restarts', async () => {
    const rulesFile = join(dir, 'watch.yml');
    await writeFile(
      rulesFile,
      `channels:
  - { name: hook, type: webhook, url: "${receiver.url}" }
rules:
  - { type: readiness, name: complete, level: 100 }
  - { type: new-source-words, words: 0, per: day }
`,
    );
    const env = {
      ...databaseEnv(database),
      WEBLATE_URL: sim.url,
      WEBLATE_USERS: subscribedUsers(sim).join(','),
      LOG_LEVEL: 'info',
      WORKER_SYNC_CRON: '* * * * * *',
      WORKER_STATISTICS_CRON: 'off',
      WORKER_RECONCILE_CRON: 'off',
      WATCH_RULES_FILE: rulesFile,
      // Few connections: the suite's other files share PostgreSQL's hundred.
      WEBLATE_CONCURRENCY: '1',
    };
    const replicas = DATABASE_KIND === 'postgres' ? 2 : 1;
    const start = async () => {
      const worker = startCli(['worker'], env, 180_000);
      workers.push(worker);
      await worker.waitForStderr(/"msg":"worker started"/, 60_000);
      return worker;
    };
    const running: RunningCli[] = [];
    for (let i = 0; i < replicas; i++) running.push(await start());
    // The first look is the baseline: the first worker's second run ends after its first
    // run's watch (a worker's runs and their watch never overlap).
    const finished = (w: RunningCli) => w.output.stderr.split('"msg":"job finished"').length - 1;
    await waitFor(() => finished(running[0]!) >= 2, 'two runs of the first worker', 60_000);
    const project = sim.instance.projects[0]!;
    const openOf = (id: number) =>
      sim.instance.units.filter((u) => u.translationId === id && u.state < 20);
    // Complete at the rules' first look: their baseline resolves when new strings arrive.
    const languageOf = (id: number) => sim.instance.languages.find((l) => l.id === id)!.code;
    const baseline = sim.instance.translations
      .filter((t) => !t.isSource && openOf(t.id).length === 0)
      .map((t) => `complete/${project.slug}/${languageOf(t.languageId)}#0/resolved`);
    const translation = sim.instance.translations.find(
      (t) => !t.isSource && openOf(t.id).length > 0,
    )!;
    sim.mutate.editUnits(openOf(translation.id).map((u) => u.id));
    await waitFor(() => taken.length === 1, 'the translation complete', 60_000);
    // A restart: the first worker stops, another starts.
    await stop(running.shift()!);
    running.push(await start());
    sim.mutate.addUnits(sim.instance.components[0]!.id, 2);
    const language = languageOf(translation.languageId);
    const day = new Date().toISOString().slice(0, 10);
    const wanted = [
      `complete/${project.slug}/${language}#1/fired`,
      `new-source-words/${project.slug}/${day}#1/fired`,
      `complete/${project.slug}/${language}#1/resolved`,
      ...baseline,
    ];
    await waitFor(
      () => wanted.every((k) => taken.includes(k)),
      'new source words, and no longer complete',
      60_000,
    );
    for (const worker of running) await stop(worker);
    const handle = await database.open();
    try {
      const { rows } = await sql<{ key: string }>`
        select key from weblate.watch_events order by id`.execute(handle.db);
      expect(taken).toEqual(rows.map((r) => r.key));
      expect([...taken].sort()).toEqual([...wanted].sort());
    } finally {
      await handle.close();
    }
  }, 240_000);
});

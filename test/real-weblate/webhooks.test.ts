import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { JOBS } from '../../jobs/index.ts';
import { loadConfig } from '../../src/config.ts';
import type { DbHandle } from '../../src/db/client.ts';
import { runWorker } from '../../src/worker/worker.ts';
import { databaseEnv } from '../helpers/cli.ts';
import { manualClock } from '../helpers/clock.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { captureLogger, parseLogLines } from '../helpers/logs.ts';
import { compareMirrors, snapshotMirror } from '../helpers/mirror-compare.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { findUnit, SEED, STATE, unitsOf } from './harness/seed.ts';

const weblate = useWeblate('webhooks');
// Plain base64: Weblate 5.14.3's form decodes the whole value, so it refuses a `whsec_` prefix.
const SECRET = 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const USERS = [...SEED.users];

async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Weblate 5.14.3's webhook add-on, installed through its API on a project with every event,
 * posting to a worker started with WEBLATE_WEBHOOK_SECRET. The worker's scheduled sync waits
 * for the test's clock: every sync before that is one the webhooks started.
 */
describe('webhooks of a real Weblate 5.14.3', () => {
  let kept: TestDatabase;
  let handle: DbHandle;
  let lines: string[];
  let clock: ReturnType<typeof manualClock>;
  let stop: () => Promise<void>;
  let endpoint: string;

  beforeAll(async () => {
    kept = await createTestDatabase();
    handle = await kept.migrated();
    const first = await syncWeblate(weblate.current, handle.db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
    const config = loadConfig({
      env: {
        ...databaseEnv(kept),
        WEBLATE_URL: weblate.current.url,
        WEBLATE_TOKEN: weblate.current.tokens.admin,
        WEBLATE_USERS: USERS.join(','),
        WORKER_SYNC_CRON: '*/2 * * * * *',
        WORKER_STATISTICS_CRON: 'off',
        WORKER_RECONCILE_CRON: 'off',
        WORKER_HTTP_PORT: '0',
        WEBLATE_WEBHOOK_SECRET: SECRET,
        WEBHOOK_DEBOUNCE_SECONDS: '0.5',
      },
      envFile: false,
    });
    const logger = captureLogger('info');
    lines = logger.lines;
    const controller = new AbortController();
    clock = manualClock();
    const done = runWorker({
      handle,
      config,
      log: logger.log,
      signal: controller.signal,
      jobs: JOBS,
      clock,
      lockPollMs: 20,
    });
    stop = () => {
      controller.abort(new Error('SIGTERM'));
      return done;
    };
    const started = await waitFor(
      () => parseLogLines(lines.join('\n')).find((l) => l.msg === 'worker started'),
      'the worker',
    );
    endpoint = String(started.webhooks);
  });
  afterAll(async () => {
    await stop?.();
    await kept?.drop();
  });

  it('installs the add-on through the API, and mirrors edits within seconds, equal to a full sync', async () => {
    const api = weblate.current.admin;
    const [events] = await weblate.current.ops([{ op: 'action_codes', args: {} }]);
    const addon = await api.post<{ name: string; configuration: Record<string, unknown> }>(
      `projects/${SEED.aurora.slug}/addons/`,
      {
        name: 'weblate.webhook.webhook',
        configuration: { webhook_url: endpoint, secret: SECRET, events },
      },
    );
    expect(addon.name).toBe('weblate.webhook.webhook');

    const de = await unitsOf(api, 'aurora/app/de');
    const cs = await unitsOf(api, 'aurora/app/cs');
    const edits = [
      {
        id: findUnit(de, 'Last synced {date}').id,
        target: ['Zuletzt abgeglichen {date}'],
        state: STATE.translated,
      },
      { id: findUnit(cs, 'Cancel').id, target: ['Storno'], state: STATE.approved },
    ];
    const edited = Date.now();
    for (const { id, target, state } of edits) await api.patch(`units/${id}/`, { target, state });
    const lagMs = await waitFor(async () => {
      const rows = await handle.db
        .selectFrom('weblate.units')
        .select(['id', 'target', 'state'])
        .where(
          'id',
          'in',
          edits.map((e) => String(e.id)),
        )
        .execute();
      const done = edits.every((e) =>
        rows.some(
          (r) =>
            Number(r.id) === e.id &&
            JSON.stringify(r.target) === JSON.stringify(e.target) &&
            r.state === e.state,
        ),
      );
      return done ? Date.now() - edited : undefined;
    }, 'the edits to reach the mirror');
    process.stdout.write(`webhooks: edits mirrored ${lagMs} ms after they were made\n`);
    expect(lagMs).toBeLessThan(10_000);
    const logged = parseLogLines(lines.join('\n'));
    expect(logged.filter((l) => l.msg === 'webhook rejected')).toEqual([]);

    // Every webhook sync ended; the scheduled sync then reads the languages' sums they left.
    await waitFor(async () => {
      const runs = await handle.db
        .selectFrom('weblate.sync_runs')
        .select('status')
        .where('kind', '=', 'webhook')
        .execute();
      return runs.length > 0 && runs.every((r) => r.status === 'succeeded') ? runs : undefined;
    }, 'the webhook syncs to end');
    clock.advance(2);
    await waitFor(async () => {
      const runs = await handle.db
        .selectFrom('weblate.sync_runs')
        .select('id')
        .where('kind', '=', 'incremental')
        .where('status', '=', 'succeeded')
        .execute();
      return runs.length > 0 ? runs : undefined;
    }, 'the scheduled sync');
    await stop();

    const fresh = await createTestDatabase();
    try {
      const freshDb = (await fresh.migrated()).db;
      const full = await syncWeblate(weblate.current, freshDb);
      expect([full.status, full.error]).toEqual(['succeeded', null]);
      expect(
        compareMirrors(await snapshotMirror(handle.db), await snapshotMirror(freshDb), () => false),
      ).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { databaseEnv } from '../helpers/cli.ts';
import type { ManualClock } from '../helpers/clock.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { parseLogLines } from '../helpers/logs.ts';
import { waitFor } from '../helpers/wait.ts';
import { runWorkerInProcess, webhookWorkerEnv, workerStarted } from '../helpers/worker.ts';
import { useWeblate } from './harness/instance.ts';
import { expectEqualToFreshSync, syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE, tierIsAtLeast } from './harness/release.ts';
import { findUnit, SEED, STATE, unitsOf } from './harness/seed.ts';

const weblate = useWeblate('webhooks');
// Plain base64 of 24 bytes: Weblate 5.14.3's form decodes the whole value (no `whsec_` prefix),
// and 2026 wants 24 to 64 bytes.
const SECRET = 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const USERS = [...SEED.users];

/**
 * Weblate's webhook add-on, installed through its API on a project with every event,
 * posting to a worker started with WEBLATE_WEBHOOK_SECRET. The worker's scheduled sync waits
 * for the test's clock: every sync before that is one the webhooks started.
 */
describe(`webhooks of a real Weblate ${TIER_RELEASE}`, () => {
  let kept: TestDatabase;
  let handle: DbHandle;
  let lines: string[];
  let clock: ManualClock;
  let stop: () => Promise<void>;
  let endpoint: string;

  beforeAll(async () => {
    kept = await createTestDatabase();
    handle = await kept.migrated();
    const first = await syncWeblate(weblate.current, handle.db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
    const run = runWorkerInProcess(handle, {
      ...databaseEnv(kept),
      WEBLATE_URL: weblate.current.url,
      WEBLATE_TOKEN: weblate.current.tokens.admin!,
      WEBLATE_USERS: USERS.join(','),
      ...webhookWorkerEnv(SECRET),
    });
    ({ lines, clock, stop } = run);
    endpoint = String((await workerStarted(run)).webhooks);
  });
  afterAll(async () => {
    await stop?.();
    await kept?.drop();
  });

  const rechecks = async () =>
    (
      await handle.db
        .selectFrom('weblate.sync_pending')
        .select('id')
        .where('kind', '=', 'recheck')
        .execute()
    )
      .map((r) => String(r.id))
      .sort();

  it('installs the add-on through the API, and mirrors edits within seconds, equal to a full sync', async () => {
    const api = weblate.current.admin;
    const [events] = await weblate.current.ops([{ op: 'action_codes', args: {} }]);
    const addon = await api.post<{ name: string; configuration: Record<string, unknown> }>(
      `projects/${SEED.aurora.slug}/addons/`,
      {
        name: 'weblate.webhook.webhook',
        // Since 2026 the add-on sends content events only, unless told `all`.
        configuration: {
          webhook_url: endpoint,
          secret: SECRET,
          ...(tierIsAtLeast('2026') ? { event_filter: 'all' } : { events }),
        },
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
      // Non-ASCII: Weblate 2026 signs the UTF-8 bytes it sends, 5.14 the \u escapes.
      { id: findUnit(cs, 'Cancel').id, target: ['Zrušit — „storno“ 🚪'], state: STATE.approved },
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
    // Weblate sends a webhook before it recounts the translation: the scheduled sync reads the
    // translations the webhook syncs read again.
    const editedTranslations = await handle.db
      .selectFrom('weblate.translations')
      .select('id')
      .where('project_slug', '=', SEED.aurora.slug)
      .where('component_slug', '=', 'app')
      .where('language_code', 'in', ['de', 'cs'])
      .execute();
    expect(await rechecks()).toEqual(editedTranslations.map((t) => String(t.id)).sort());
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
    expect(await rechecks()).toEqual([]);

    await expectEqualToFreshSync(weblate.current, handle.db);
  });
});

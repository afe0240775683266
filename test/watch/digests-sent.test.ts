import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLogger } from '../../src/logger.ts';
import { createChannel } from '../../src/watch/channels/index.ts';
import { digestSourceOf } from '../../src/watch/digest/source.ts';
import { sendDigests } from '../../src/watch/outbox.ts';
import { parseWatchConfig } from '../../src/watch/rules.ts';
import { SMALL_INSTANCE, useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';
import { type HttpReceiver, startHttpReceiver } from './channels/receivers.ts';

/**
 * A digest is one message per channel and period: sent by whichever worker claims the period
 * first, never again by another or by the same one later, and again once (only) when its
 * channel was down.
 */

const mirror = useSimulatorMirror(SMALL_INSTANCE);
const log = createLogger({ level: 'silent' });
let receiver: HttpReceiver;
let down = true;
/** What was taken (answered 200): the webhook's key, or "mattermost" for a Mattermost body. */
const taken: string[] = [];

beforeAll(async () => {
  receiver = await startHttpReceiver((_, request, response) => {
    if (!down) taken.push((JSON.parse(request.body) as { key?: string }).key ?? 'mattermost');
    response.writeHead(down ? 502 : 200).end();
  });
  await syncSimulator(mirror.sim, mirror.handle);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

describe('digests the worker sends', () => {
  it('go out once per channel and period, again once after the channel was down', async () => {
    const config = parseWatchConfig(
      `channels:
  - { name: hook, type: webhook, url: "${receiver.url}" }
  - { name: chat, type: mattermost, url: "${receiver.url}mm" }
digests:
  - { channel: hook, every: week }
  - { channel: hook, every: day }
  - { channel: chat, every: week }
`,
      'rules.yml',
    );
    const senders = () =>
      new Map(
        config.channels.map((c) => [
          c.name,
          createChannel(c, { log, attempts: 1, timeoutMs: 120_000 }),
        ]),
      );
    const send = (at: string) =>
      sendDigests(mirror.handle, config.digests, senders(), digestSourceOf(mirror.handle.db), {
        log,
        now: () => new Date(at),
      });
    const first = await send('2026-12-02T08:00:00Z');
    expect(first).toMatchObject({ delivered: 0 });
    down = false;
    // Two workers at once, then one again later that week: each period's digest once.
    await Promise.all([send('2026-12-02T08:01:00Z'), send('2026-12-02T08:01:00Z')]);
    await send('2026-12-03T08:00:00Z');
    // Daily and weekly digests are sent independently (by whichever worker claims each).
    expect(taken.filter((k) => k !== 'mattermost').sort()).toEqual([
      'digest/day/2026-12-01',
      'digest/day/2026-12-02',
      'digest/week/2026-11-23',
    ]);
    expect(taken.filter((k) => k === 'mattermost')).toHaveLength(1);
    const { rows } = await sql<{
      channel: string;
      key: string;
      attempts: number;
      delivered: boolean;
    }>`
      select channel, key, attempts, delivered_at is not null as delivered
      from weblate.watch_digests order by channel, key`.execute(mirror.handle.db);
    expect(rows).toEqual([
      { channel: 'chat', key: 'digest/week/2026-11-23', attempts: 2, delivered: true },
      { channel: 'hook', key: 'digest/day/2026-12-01', attempts: 2, delivered: true },
      { channel: 'hook', key: 'digest/day/2026-12-02', attempts: 1, delivered: true },
      { channel: 'hook', key: 'digest/week/2026-11-23', attempts: 2, delivered: true },
    ]);
  });
});

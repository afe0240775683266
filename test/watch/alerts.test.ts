import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLogger } from '../../src/logger.ts';
import { createChannel } from '../../src/watch/channels/index.ts';
import { evaluateWatch } from '../../src/watch/evaluate.ts';
import type { WatchConfig, WatchEvent } from '../../src/watch/model.ts';
import { deliverPending } from '../../src/watch/outbox.ts';
import { defaultWatchConfig, parseWatchConfig } from '../../src/watch/rules.ts';
import { createWebhookVerifier } from '../../src/webhooks/verify.ts';
import { SMALL_INSTANCE, useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * Alerts fire once and resolve once: conditions injected into a synced mirror (as a sync would
 * write them), evaluated again and again, by two "replicas" at once, and delivered to a webhook
 * receiver of the test's own that is down for a while and then receives every event once, in
 * order, each signed as Weblate signs its webhooks.
 */

const mirror = useSimulatorMirror(SMALL_INSTANCE);
const log = createLogger({ level: 'silent' });
const SECRET = Buffer.from('watch test secret').toString('base64');

interface Received {
  key: string;
  type: string;
  body: { event?: WatchEvent };
}

let server: Server;
let url: string;
let down = true;
const received: Received[] = [];
let refused = 0;
const verifier = createWebhookVerifier(SECRET);

let config: WatchConfig;
let project: string;
let language: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (down) {
        refused += 1;
        res.writeHead(503).end('down for maintenance');
        return;
      }
      const body = Buffer.concat(chunks);
      const verified = verifier.verify(body, req.headers);
      if (!verified.ok) {
        res.writeHead(401).end(verified.reason);
        return;
      }
      const parsed = JSON.parse(body.toString('utf8')) as {
        key: string;
        type: string;
        event?: WatchEvent;
      };
      received.push({ key: parsed.key, type: parsed.type, body: parsed });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  await syncSimulator(mirror.sim, mirror.handle);
  const { rows } = await sql<{ project_slug: string; language_code: string }>`
    select project_slug, language_code from weblate.translation_progress
    where total > 0 order by project_slug, language_code limit 1`.execute(mirror.handle.db);
  project = rows[0]!.project_slug;
  language = rows[0]!.language_code;
  config = parseWatchConfig(
    `channels:
  - { name: hooks, type: webhook, url: "${url}", secret: "${SECRET}" }
rules:
  - { type: readiness, level: 50, scope: { projects: [${project}], languages: [${language}] } }
  - { type: mirror-stale, minutes: 100000, failed_runs: 2 }
`,
    'rules.yml',
  );
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** What a sync that changed rows leaves behind, so the data rules are due again. */
async function recordRun(status: 'succeeded' | 'failed', rowsWritten: number): Promise<void> {
  await sql`
    insert into weblate.sync_runs (kind, status, weblate_url, finished_at, rows_written)
    values ('incremental', ${status}, 'http://127.0.0.1/api/', now(), ${rowsWritten})`.execute(
    mirror.handle.db,
  );
}

async function setTranslated(fraction: 'none' | 'all'): Promise<void> {
  await sql`
    update weblate.translations t set translated = case when ${fraction} = 'all' then t.total else 0 end
    from weblate.components c, weblate.projects p
    where c.id = t.component_id and p.id = c.project_id and p.slug = ${project}
      and t.language_code = ${language}`.execute(mirror.handle.db);
  await recordRun('succeeded', 1);
}

async function events(): Promise<Array<{ key: string; type: string }>> {
  const { rows } = await sql<{ key: string; type: string }>`
    select key, type from weblate.watch_events order by id`.execute(mirror.handle.db);
  return rows;
}

const evaluate = () => evaluateWatch(mirror.handle, config, { log });

describe('alerts', () => {
  it('records a first look as the baseline, and sends nothing for it', async () => {
    await setTranslated('all');
    const first = await evaluate();
    expect(first.evaluated.sort()).toEqual(['mirror-stale', 'readiness-50']);
    expect(first).toMatchObject({ fired: 0, resolved: 0, baseline: 1 });
    expect(await events()).toEqual([]);
    const quiet = await evaluate();
    // No run wrote since: only the mirror's own freshness is looked at again.
    expect(quiet.evaluated).toEqual(['mirror-stale']);
  });

  it('fires each start and each end once, however often and by however many it is evaluated', async () => {
    const key = `readiness-50/${project}/${language}`;
    await setTranslated('none');
    await Promise.all([evaluate(), evaluate()]);
    await setTranslated('all');
    await Promise.all([evaluate(), evaluate(), evaluate()]);
    await evaluate();
    await recordRun('failed', 0);
    await recordRun('failed', 0);
    await Promise.all([evaluate(), evaluate()]);
    await recordRun('succeeded', 0);
    await evaluate();
    await evaluate();
    await setTranslated('none');
    await evaluate();
    expect(await events()).toEqual([
      { key: `${key}#0/resolved`, type: 'resolved' },
      { key: `${key}#1/fired`, type: 'fired' },
      { key: 'mirror-stale#1/fired', type: 'fired' },
      { key: 'mirror-stale#1/resolved', type: 'resolved' },
      { key: `${key}#1/resolved`, type: 'resolved' },
    ]);
    const { rows } = await sql<{ firing: boolean; generation: number }>`
      select firing, generation from weblate.watch_alerts where key = ${key}`.execute(
      mirror.handle.db,
    );
    expect(rows).toEqual([{ firing: false, generation: 1 }]);
  });

  it('delivers to a receiver that was down every event afterwards, once, in order', async () => {
    const channel = createChannel(config.channels[0]!, {
      log,
      attempts: 2,
      backoffMs: 0,
      // A timeout is no part of this test: a busy machine must not make a delivery fail.
      timeoutMs: 120_000,
    });
    const senders = new Map([['hooks', channel]]);
    const first = await deliverPending(mirror.handle, senders, { log });
    expect(first).toEqual({ delivered: 0, failed: 1 });
    // Backing off: nothing is tried before the next attempt is due.
    const refusedBefore = refused;
    expect(await deliverPending(mirror.handle, senders, { log })).toEqual({
      delivered: 0,
      failed: 0,
    });
    expect(refused).toBe(refusedBefore);
    const { rows: pending } = await sql<{ attempts: number; last_error: string }>`
      select attempts, last_error from weblate.watch_deliveries where delivered_at is null
      order by event_id limit 1`.execute(mirror.handle.db);
    expect(pending[0]?.attempts).toBe(1);
    expect(pending[0]?.last_error).toContain('503');
    down = false;
    // Time passes: the next attempt comes due.
    await sql`update weblate.watch_deliveries set next_attempt_at = null`.execute(mirror.handle.db);
    const [a, b] = await Promise.all([
      deliverPending(mirror.handle, senders, { log }),
      deliverPending(mirror.handle, senders, { log }),
    ]);
    // Which of the two took the channel's lock is up to the machine; together, every event.
    expect(a.delivered + b.delivered).toBe(5);
    expect(received.map((r) => r.key)).toEqual((await events()).map((e) => e.key));
    expect(received.every((r) => r.body.event?.key === r.key)).toBe(true);
    expect(await deliverPending(mirror.handle, senders, { log })).toEqual({
      delivered: 0,
      failed: 0,
    });
    expect(received).toHaveLength(5);
  });

  it("reads every rule type's figures from the mirror", async () => {
    const everything = defaultWatchConfig();
    for (const rule of everything.rules) rule.name = `all-${rule.name}`;
    const result = await evaluateWatch(mirror.handle, everything, { log, force: true });
    expect(result.evaluated.sort()).toEqual(everything.rules.map((r) => r.name).sort());
  });
});

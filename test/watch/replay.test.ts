import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { createLogger } from '../../src/logger.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { createChannel } from '../../src/watch/channels/index.ts';
import { evaluateWatch } from '../../src/watch/evaluate.ts';
import type { WatchEvent } from '../../src/watch/model.ts';
import { deliverPending } from '../../src/watch/outbox.ts';
import { loadWatchConfig } from '../../src/watch/rules.ts';
import { createWebhookVerifier } from '../../src/webhooks/verify.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';
import { createLoopbackCertificate } from '../helpers/tls-proxy.ts';
import {
  type HttpReceiver,
  parseMail,
  type SmtpReceiver,
  startHttpReceiver,
  startSmtpReceiver,
} from './channels/receivers.ts';

/**
 * The watch replayed over a simulated instance: 20 conditions made to start (each of the six
 * rule types twice or more, over two cycles of a test clock that runs two weeks each, syncs
 * and statistics stamped with it), each ending again, so 20 alerts and 20 resolutions. Every step syncs the instance, then two "replicas" evaluate and
 * deliver at once, each time with channels and configuration made anew, as after a restart;
 * the sync is replayed (evaluated again) too. The webhook receiver is down for a part of it.
 * In the end each receiver (the signed webhook, the Slack format and SMTP) has every event
 * exactly once, in the order the events happened.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SECRET = Buffer.from('replay secret').toString('base64');
const USER = 'mirror@example.org';
const PASSWORD = 'replay-password';
const log = createLogger({ level: 'silent' });

const databases = useTestDatabases();
let handle: DbHandle;
let sim: RunningSimulator;
let dir: string;
let rulesFile: string;
let webhook: HttpReceiver;
let slack: HttpReceiver;
let smtp: SmtpReceiver;
let webhookDown = false;
/** What the webhook receiver took (signed and answered 200), in the order it came. */
const accepted: string[] = [];
/** The test's clock: the simulator stamps its changes with it, the watch evaluates at it. */
let now = 0;

/**
 * 00:30 UTC on the Monday of the week `weeks` from now: a week of its own for new source
 * words. The replay runs in the past (the history reads no day after the database's today).
 */
function mondayFrom(weeks: number): number {
  const d = new Date(Date.now() + weeks * 7 * DAY);
  d.setUTCHours(0, 30, 0, 0);
  return d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY;
}

beforeAll(async () => {
  now = mondayFrom(-6);
  sim = await startSimulator({
    seed: 5,
    projects: 2,
    components: 1,
    languages: 2,
    units: 30,
    changes: 40,
    users: 2,
    historyEndsAt: now - HOUR,
    now: () => now,
  });
  handle = await databases.migrated();
  dir = await mkdtemp(join(tmpdir(), 'weblate-mirror-replay-'));
  const certificate = await createLoopbackCertificate();
  await writeFile(join(dir, 'ca.pem'), certificate.cert);
  smtp = await startSmtpReceiver({ ...certificate, user: USER, password: PASSWORD });
  const verifier = createWebhookVerifier(SECRET);
  webhook = await startHttpReceiver((_, request, response) => {
    if (webhookDown) response.writeHead(503).end('down');
    else if (!verifier.verify(request.body, request.headers).ok) response.writeHead(401).end();
    else {
      accepted.push((JSON.parse(request.body) as { key: string }).key);
      response.writeHead(200).end();
    }
  });
  slack = await startHttpReceiver((_, __, response) => response.writeHead(200).end('ok'));
}, 120_000);

afterAll(async () => {
  await Promise.all([webhook?.close(), slack?.close(), smtp?.close(), sim?.close()]);
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

interface Subjects {
  review: string;
  other: string;
  languages: [string, string];
  components: Record<string, number>;
}

async function subjects(): Promise<Subjects> {
  const { rows } = await sql<{ slug: string; translation_review: boolean; component_id: number }>`
    select p.slug, p.translation_review, min(c.id) as component_id
    from weblate.projects p join weblate.components c on c.project_id = p.id
    group by p.slug, p.translation_review order by p.slug`.execute(handle.db);
  const languages = await sql<{ language_code: string }>`
    select distinct language_code from weblate.translation_progress order by 1`.execute(handle.db);
  const review = rows.find((r) => r.translation_review)!.slug;
  const other = rows.find((r) => !r.translation_review)!.slug;
  return {
    review,
    other,
    languages: [languages.rows[0]!.language_code, languages.rows[1]!.language_code],
    components: Object.fromEntries(rows.map((r) => [r.slug, r.component_id])),
  };
}

async function unitsOf(project: string, states: number[], language?: string): Promise<number[]> {
  const { rows } = await sql<{ id: string }>`
    select u.id::text as id from weblate.units u
    join weblate.translations t on t.id = u.translation_id
    join weblate.components c on c.id = t.component_id
    join weblate.projects p on p.id = c.project_id
    where p.slug = ${project} and t.is_source is not true and u.deleted_at is null
      and u.state = any(${states}::smallint[])
      and (${language ?? null}::text is null or t.language_code = ${language ?? null}::text)
    order by u.id`.execute(handle.db);
  return rows.map((r) => Number(r.id));
}

/** A sync, then two replicas evaluating and delivering at once, with everything made anew. */
async function step(options: { fail?: boolean } = {}): Promise<void> {
  // A second passes between syncs: each one's statistics are captured at an instant of its own.
  now += 1000;
  if (options.fail === true) sim.failNext(1, '500');
  const result = await syncSimulator(sim, handle, {
    client: { maxAttempts: 1 },
    now: () => new Date(now),
  });
  expect([result.status, result.error?.message]).toEqual([
    options.fail === true ? 'failed' : 'succeeded',
    options.fail === true ? result.error?.message : undefined,
  ]);
  const replica = async () => {
    const config = await loadWatchConfig(rulesFile, {});
    await evaluateWatch(handle, config, { log, now: () => new Date(now) });
    // The same sync's end seen twice: a replay adds nothing.
    await evaluateWatch(handle, config, { log, now: () => new Date(now) });
    const channels = new Map(
      config.channels.map((c) => [
        c.name,
        createChannel(c, { log, attempts: 1, timeoutMs: 120_000 }),
      ]),
    );
    await deliverPending(handle, channels, { log });
  };
  await Promise.all([replica(), replica()]);
}

async function eventKeys(): Promise<string[]> {
  const { rows } = await sql<{
    key: string;
  }>`select key from weblate.watch_events order by id`.execute(handle.db);
  return rows.map((r) => r.key);
}

describe('the watch, replayed', () => {
  it('sends 20 alerts and 20 resolutions to each channel, once each, in order', async () => {
    await syncSimulator(sim, handle, { now: () => new Date((now += 1000)) });
    const s = await subjects();
    // Nothing holds at the rules' first look: no translation of the other project complete,
    // ten strings left in each of the reviewed one, none waiting for review, each moved today.
    for (const language of s.languages) {
      sim.mutate.editUnits((await unitsOf(s.other, [10, 20, 30], language)).slice(0, 3), {
        state: 0,
      });
      sim.mutate.editUnits((await unitsOf(s.review, [10, 20, 30], language)).slice(0, 10), {
        state: 0,
      });
    }
    await syncSimulator(sim, handle, { now: () => new Date((now += 1000)) });
    sim.mutate.bulkEditStates(await unitsOf(s.review, [20]), 30);
    const translateOneEach = async () => {
      for (const language of s.languages)
        sim.mutate.editUnits((await unitsOf(s.review, [0], language)).slice(0, 1), { state: 30 });
    };
    await translateOneEach();
    await syncSimulator(sim, handle, { now: () => new Date((now += 1000)) });
    const langs = s.languages.join(', ');
    rulesFile = join(dir, 'watch.yml');
    await writeFile(
      rulesFile,
      `channels:
  - { name: hook, type: webhook, url: "${webhook.url}", secret: "${SECRET}" }
  - { name: chat, type: slack, url: "${slack.url}" }
  - name: mail
    type: email
    smtp: "smtp://${encodeURIComponent(USER)}:${PASSWORD}@127.0.0.1:${smtp.port}"
    from: weblate-mirror <${USER}>
    to: [team@example.org]
    ca_file: ${join(dir, 'ca.pem')}
rules:
  - { type: readiness, name: complete, level: 100, scope: { projects: [${s.other}] } }
  - { type: new-source-words, words: 0, per: week }
  - { type: mirror-stale, minutes: 500000, failed_runs: 2 }
  - { type: review-waiting, days: 2, scope: { projects: [${s.review}] } }
  - { type: stalled, days: 7, scope: { projects: [${s.review}], languages: [${langs}] } }
  - { type: failing-checks, by: 1, days: 1, scope: { projects: [${s.other}] } }
`,
    );
    await step();
    expect(await eventKeys()).toEqual([]);

    const expected: string[] = [];
    for (const generation of [1, 2]) {
      const weekStart = new Date(now).toISOString().slice(0, 10);
      const both = (rule: string, project: string, type: string) =>
        s.languages.map((l) => `${rule}/${project}/${l}#${generation}/${type}`);
      // Every string of the other project translated: both its languages complete.
      now += HOUR;
      sim.mutate.editUnits(await unitsOf(s.other, [0, 10]));
      await step();
      expected.push(...both('complete', s.other, 'fired'));
      // New source strings in both projects: new source words fire, completeness ends.
      now += HOUR;
      for (const component of Object.values(s.components)) sim.mutate.addUnits(component, 2);
      await step();
      expected.push(
        ...[s.other, s.review].sort().map((p) => `new-source-words/${p}/${weekStart}#1/fired`),
        ...both('complete', s.other, 'resolved'),
      );
      // Two failed runs in a row, then a good one; the webhook receiver is down meanwhile.
      webhookDown = true;
      now += HOUR;
      await step({ fail: true });
      await step({ fail: true });
      expected.push(`mirror-stale#${generation}/fired`);
      now += HOUR;
      await step();
      expected.push(`mirror-stale#${generation}/resolved`);
      // Strings translated in the reviewed project wait for review, two days later too long.
      now += HOUR;
      for (const language of s.languages)
        sim.mutate.editUnits((await unitsOf(s.review, [0], language)).slice(0, 2));
      await step();
      webhookDown = false;
      await sql`update weblate.watch_deliveries set next_attempt_at = null`.execute(handle.db);
      now += 2 * DAY + HOUR;
      await step();
      expected.push(...both('review-waiting', s.review, 'fired'));
      now += HOUR;
      sim.mutate.bulkEditStates(await unitsOf(s.review, [20]), 30);
      await step();
      expected.push(...both('review-waiting', s.review, 'resolved'));
      if (generation === 1) {
        // Edits that fail checks in the other project, a day after its last statistics.
        now += DAY;
        const failing = async (flag: boolean) => {
          for (const language of s.languages) {
            const ids = (await unitsOf(s.other, [20, 30], language)).slice(0, 2);
            sim.mutate.editUnits(ids);
            for (const unit of sim.instance.units.filter((u) => ids.includes(u.id)))
              unit.hasFailingCheck = flag;
          }
        };
        await failing(true);
        await step();
        expected.push(...both('failing-checks', s.other, 'fired'));
        now += HOUR;
        await failing(false);
        await step();
        expected.push(...both('failing-checks', s.other, 'resolved'));
      }
      // Ten days on: the reviewed project stalls (its last change, the approvals, is 7.7 days
      // old), and the week of new source words is over.
      now = new Date(weekStart).getTime() + 10 * DAY + 30 * 60_000;
      await step();
      expected.push(
        ...[s.other, s.review].sort().map((p) => `new-source-words/${p}/${weekStart}#1/resolved`),
        ...both('stalled', s.review, 'fired'),
      );
      // Translating again ends the stall; the untranslated strings of the other project too.
      now += HOUR;
      await translateOneEach();
      await step();
      expected.push(...both('stalled', s.review, 'resolved'));
      // The next cycle starts on the Monday after.
      now = new Date(weekStart).getTime() + 14 * DAY + 30 * 60_000;
      await step();
    }
    const keys = await eventKeys();
    expect([...keys].sort()).toEqual([...expected].sort());
    expect(keys).toHaveLength(40);
    expect(new Set(keys.map((k) => k.replace(/#\d+\/\w+$/, ''))).size).toBeGreaterThanOrEqual(10);
    expect(keys.filter((k) => k.endsWith('/fired'))).toHaveLength(20);
    expect([...keys].sort()).toEqual([...expected].sort());

    // Refused while down, then every event once, in order.
    expect(webhook.requests.length).toBeGreaterThan(accepted.length);
    expect(accepted).toEqual(keys);
    const delivered = await sql<{ channel: string; n: string }>`
      select channel, count(*)::text as n from weblate.watch_deliveries
      where delivered_at is not null group by channel order by channel`.execute(handle.db);
    expect(delivered.rows).toEqual([
      { channel: 'chat', n: '40' },
      { channel: 'hook', n: '40' },
      { channel: 'mail', n: '40' },
    ]);
    const fromSlack = slack.requests.map(
      (r) => JSON.parse(r.body) as { text: string; blocks: unknown[] },
    );
    expect(fromSlack).toHaveLength(40);
    expect(fromSlack.every((b) => b.blocks.length > 0 && b.text.length > 0)).toBe(true);
    const fromMail = smtp.mails.map((m) => parseMail(m.raw).headers.get('x-weblate-mirror-key'));
    expect(fromMail).toEqual(keys);
    const events = await sql<{ payload: WatchEvent }>`
      select payload from weblate.watch_events order by id`.execute(handle.db);
    expect(events.rows.every((e) => e.payload.title.length > 0)).toBe(true);
  }, 300_000);
});

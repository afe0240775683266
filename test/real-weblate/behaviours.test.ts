import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { reconcileJob } from '../../jobs/reconcile.ts';
import { WeblateClient } from '../../src/weblate/client.ts';
import { handleOf, useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { asWriter } from '../helpers/sync.ts';
import { createLoopbackCertificate, startTlsProxy, type TlsProxy } from '../helpers/tls-proxy.ts';
import { compareWithWeblate } from './harness/compare.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { SEED, STATE, unitsOf } from './harness/seed.ts';
import { freePort } from './harness/weblate.ts';

/**
 * Weblate behind a TLS proxy that does not tell it so: its links say http:// for the proxy's
 * https:// address, as SITE_DOMAIN is the proxy's and ENABLE_HTTPS is off.
 */
const proxyPort = await freePort();
const weblate = useWeblate('behaviours', { siteDomain: `127.0.0.1:${proxyPort}` });
const USERS = [...SEED.users];

describe('real Weblate 5.14.3 as deployments serve it', () => {
  let proxy: TlsProxy;
  let certificate: string;
  const databases = useTestDatabases();
  const migrated = async () => (await databases.migrated()).db;

  const viaProxy = () => ({ baseUrl: proxy.url, client: { ca: certificate } });

  beforeAll(async () => {
    const pair = await createLoopbackCertificate();
    certificate = pair.cert;
    proxy = await startTlsProxy(weblate.current.url, pair, proxyPort);
  });
  afterAll(async () => {
    await proxy.close();
  });

  it('is mirrored over https although its links say http, with one warning', async () => {
    const db = await migrated();
    const result = await syncWeblate(weblate.current, db, viaProxy());
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const links = await sql<{ url: string }>`select url from weblate.projects limit 1`.execute(db);
    expect(links.rows[0]!.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${proxyPort}/api/`));
    expect(result.summary.warnings.filter((w) => /http/.test(w))).toHaveLength(1);
    expect(proxy.plainConnections).toBe(0);
    expect(proxy.forwarded).toBeGreaterThan(20);
    expect(
      await compareWithWeblate(db, weblate.current.admin, { projects: null, users: USERS }),
    ).toEqual([]);
  });

  it("lets a contributor's token read another user's subscriptions (5.15 answers 403)", async () => {
    const db = await migrated();
    const result = await syncWeblate(weblate.current, db, {
      ...viaProxy(),
      token: weblate.current.tokens.alice!,
    });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const owners = await sql<{ username: string; n: string }>`
      select username, count(*) as n from weblate.notification_subscriptions group by 1 order by 1`.execute(
      db,
    );
    expect(owners.rows.map((r) => r.username)).toEqual(['alice', 'bob']);
  });

  it('misses a state Weblate changes without a trace until the reconcile job reads everything again', async () => {
    const db = await migrated();
    expect((await syncWeblate(weblate.current, db, viaProxy())).status).toBe('succeeded');
    // What a template rename does to fuzzy strings: QuerySet.update(), no change, no last_updated.
    const cs = await unitsOf(weblate.current.admin, 'aurora/app/cs');
    const fuzzy = cs.filter((u) => u.state === STATE.fuzzy).map((u) => u.id);
    expect(fuzzy.length).toBeGreaterThan(0);
    await weblate.current.ops([
      { op: 'silent_reset', args: { unit_ids: fuzzy, state: STATE.translated } },
    ]);
    const states = async () =>
      (
        await sql<{
          state: number;
        }>`select distinct state from weblate.units where id in (${sql.join(fuzzy)})`.execute(db)
      ).rows.map((r) => r.state);

    // No look-back: the seeded units are minutes old, and a walk reaching back over them would
    // read them all, the silently changed ones too.
    const incremental = await syncWeblate(weblate.current, db, {
      ...viaProxy(),
      lookbackSeconds: 0,
    });
    expect([incremental.mode, incremental.status]).toEqual(['incremental', 'succeeded']);
    expect(await states()).toEqual([STATE.fuzzy]);

    const log = captureLogger('info').log;
    const run = {
      log,
      scope: { projects: null, users: USERS },
      client: () =>
        new WeblateClient({
          baseUrl: new URL(proxy.url),
          token: weblate.current.tokens.admin!,
          concurrency: 4,
          maxRps: 0,
          maxAttempts: 3,
          timeoutMs: 300_000,
          log,
          ca: certificate,
        }),
    };
    const reconciled = await asWriter(handleOf(db), run, (deps) =>
      reconcileJob.run({
        deps,
        signal: new AbortController().signal,
        lookbackSeconds: 300,
        discoveryIntervalSeconds: 3600,
      }),
    );
    expect([reconciled.kind, reconciled.status]).toEqual(['full', 'succeeded']);
    expect(await states()).toEqual([STATE.translated]);
    expect(
      await compareWithWeblate(db, weblate.current.admin, { projects: null, users: USERS }),
    ).toEqual([]);
  });
});

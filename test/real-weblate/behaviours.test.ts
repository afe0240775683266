import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { reconcileJob } from '../../jobs/reconcile.ts';
import { WeblateClient } from '../../src/weblate/client.ts';
import { handleOf, useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { freePort } from '../helpers/ports.ts';
import { asWriter } from '../helpers/sync.ts';
import { createLoopbackCertificate, startTlsProxy, type TlsProxy } from '../helpers/tls-proxy.ts';
import { compareWithWeblate } from './harness/compare.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE, tierIsAtLeast } from './harness/release.ts';
import { SEED, STATE, unitsOf } from './harness/seed.ts';

/**
 * Weblate behind a TLS proxy that does not tell it so: its links say http:// for the proxy's
 * https:// address, as SITE_DOMAIN is the proxy's and ENABLE_HTTPS is off.
 */
const proxyPort = await freePort();
const weblate = useWeblate('behaviours', { siteDomain: `127.0.0.1:${proxyPort}` });
const USERS = [...SEED.users];

describe(`real Weblate ${TIER_RELEASE} as deployments serve it`, () => {
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

  it("reads another user's subscriptions with a contributor's token up to 5.14; since 5.15 warns of the 403", async () => {
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
    const denied = result.summary.warnings.filter((w) => /denies this token/.test(w));
    if (tierIsAtLeast('5.15')) {
      expect(owners.rows.map((r) => r.username)).toEqual(['alice']);
      expect(denied).toHaveLength(1);
      expect(denied[0]).toMatch(/"bob".*403/);
    } else {
      expect(owners.rows.map((r) => r.username)).toEqual(['alice', 'bob']);
      expect(denied).toEqual([]);
    }
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

  // Last: it restricts a component for the rest of this file's instance.
  it('leaves out a restricted component the token cannot access; before 2026 a scoped sync still gets its changes', async () => {
    await weblate.current.manage([
      'shell',
      '-c',
      "from weblate.trans.models import Component; Component.objects.filter(project__slug='cirrus', slug='docs').update(restricted=True)",
    ]);
    const fr = await unitsOf(weblate.current.admin, 'cirrus/docs/fr');
    const unit = fr.find((u) => u.state === STATE.translated)!;
    await weblate.current.admin.patch(`units/${unit.id}/`, {
      target: ['Restreint — édité'],
      state: STATE.translated,
    });
    // A full and an incremental sync with a contributor's token, into a database of their own.
    const mirrored = async (projects: string[] | null) => {
      const db = await migrated();
      const alice = { ...viaProxy(), token: weblate.current.tokens.alice!, projects };
      for (const mode of ['full', 'incremental']) {
        const result = await syncWeblate(weblate.current, db, alice);
        expect([result.mode, result.status, result.error]).toEqual([mode, 'succeeded', null]);
      }
      const docs = await sql<{ components: string; changes: string; units: string }>`
        select
          (select count(*) from weblate.components
            where project_slug = 'cirrus' and slug = 'docs') as components,
          (select count(*) from weblate.changes
            where project_slug = 'cirrus' and component_slug = 'docs') as changes,
          (select count(*) from weblate.units u join weblate.translations t on t.id = u.translation_id
            where t.project_slug = 'cirrus' and t.component_slug = 'docs') as units`.execute(db);
      const row = docs.rows[0]!;
      return {
        components: Number(row.components),
        changes: Number(row.changes),
        units: Number(row.units),
      };
    };
    const scoped = await mirrored(['cirrus']);
    const everything = await mirrored(null);
    expect(everything).toEqual({ components: 0, changes: 0, units: 0 });
    // The project's change list filters them out since 2026, as the global list always did.
    if (tierIsAtLeast('2026')) expect(scoped).toEqual(everything);
    else {
      expect({ ...scoped, changes: 0 }).toEqual(everything);
      expect(scoped.changes).toBeGreaterThan(0);
    }
  });
});

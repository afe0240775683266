import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { compareMirrors, type MirrorSnapshot, snapshotMirror } from '../helpers/mirror-compare.ts';
import { freePort } from '../helpers/ports.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import {
  createCertificateFiles,
  NGINX,
  type NginxServer,
  type ProxiedRequest,
  type RunningNginx,
  shouldRunNginx,
  startNginx,
} from './harness/nginx.ts';
import { TIER_RELEASE } from './harness/release.ts';

const SHOULD_RUN = shouldRunNginx('proxy.test.ts');

/**
 * nginx's read timeout on the front of the 504 test, and the delay per unit that Weblate adds
 * behind it. The seeded instance is small and quick: on its own, Weblate answers every page
 * long before any sensible timeout. So that test's nginx asks Weblate (header
 * X-Tier-Slow-Units-Ms, which the tier's middleware test/real-weblate/tier_middleware.py
 * reads; the mirror never sends it) to wait SLOW_UNIT_MS per unit a page holds before the
 * answer leaves: a page of 200 units or more waits at least the whole timeout and is always
 * cut off by nginx with a 504, one of 125 waits 2.5 s and answers (Weblate's own work on
 * 125 units takes a few hundred ms of the 1.5 s left). The walk starts at 1,000 a page and
 * halves on a 504 (src/weblate/keyset.ts): its first page holds every unit of the instance
 * (over 200), and it gets down to 125.
 */
const READ_TIMEOUT_S = 4;
const SLOW_UNIT_MS = 20;
/** The size a page cut off is asked again at: half, but not under 100 (keyset.ts). */
const halved = (size: number) => Math.max(100, Math.floor(size / 2));

/** Unit-walk requests (not the capability probe, which asks page_size=1). */
function unitWalk(requests: ProxiedRequest[]): Array<ProxiedRequest & { size: number; q: string }> {
  return requests.flatMap((r) => {
    const url = new URL(r.target, 'http://x/');
    const size = Number(url.searchParams.get('page_size'));
    if (url.pathname !== '/api/units/' || size === 1) return [];
    return [{ ...r, size, q: url.searchParams.get('q') ?? '' }];
  });
}

describe.skipIf(!SHOULD_RUN)(`a real Weblate ${TIER_RELEASE} behind nginx (needs ${NGINX})`, () => {
  const weblate = useWeblate('proxy');
  const databases = useTestDatabases();
  const migrated = async () => (await databases.migrated()).db;
  /** Where each test's nginx listens, and what Weblate writes into its links (SITE_DOMAIN). */
  let front: string;
  let direct: MirrorSnapshot;
  let certDir: string;
  let tls: { caFile: string; certFile: string; keyFile: string };
  let nginx: RunningNginx | undefined;

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), 'weblate-tier-tls-'));
    tls = await createCertificateFiles(certDir);
    // The mirror to equal: a full sync made directly from Weblate, without the proxy, while
    // Weblate still names its own address in its links. No test changes Weblate's data.
    const db = await migrated();
    const full = await syncWeblate(weblate.current, db);
    expect([full.status, full.error]).toEqual(['succeeded', null]);
    direct = await snapshotMirror(db);
    // Enough units for the first page of a walk to be cut off (see SLOW_UNIT_MS).
    expect(direct.tables.units!.length * SLOW_UNIT_MS).toBeGreaterThanOrEqual(
      READ_TIMEOUT_S * 1000,
    );
    // Then Weblate is deployed behind the proxy: its SITE_DOMAIN names the proxy's address,
    // which is where it builds every absolute link (`next`, `url`), whatever the request's
    // Host or X-Forwarded-Proto (its ProxyMiddleware puts SITE_DOMAIN and ENABLE_HTTPS into
    // build_absolute_uri). The mirror refuses links to another origin than WEBLATE_URL.
    front = `127.0.0.1:${await freePort()}`;
    weblate.current.config.siteDomain = front;
    await weblate.current.restart(0);
  });
  afterEach(async () => {
    await nginx?.stop();
    nginx = undefined;
  });
  afterAll(async () => {
    await nginx?.stop();
    if (certDir !== undefined) rmSync(certDir, { recursive: true, force: true });
  });

  const startFront = async (server: Omit<NginxServer, 'port'>) => {
    nginx = await startNginx(weblate.current.url, [
      { port: Number(front.split(':')[1]), ...server },
    ]);
    return nginx;
  };

  /**
   * The mirror equals the direct full sync, but for the address in Weblate's links, which
   * names the proxy now (http://, as Weblate wrote it, also behind https): put back to
   * Weblate's own, every row must be the same text.
   */
  async function expectEqualToDirect(db: Kysely<Database>): Promise<void> {
    const snapshot = await snapshotMirror(db);
    const from = new RegExp(`http://${front.replaceAll('.', '\\.')}/`, 'g');
    const rebase = (text: string) => text.replace(from, weblate.current.url);
    const rebased: MirrorSnapshot = {
      tables: Object.fromEntries(
        Object.entries(snapshot.tables).map(([table, rows]) => [table, rows.map(rebase)]),
      ),
      changes: new Map([...snapshot.changes].map(([id, row]) => [id, rebase(row)])),
      actions: snapshot.actions,
    };
    expect(compareMirrors(rebased, direct, () => false)).toEqual([]);
  }

  it('adapts its page size to the 504s nginx answers for the largest unit pages', async () => {
    const proxy = await startFront({
      readTimeout: `${READ_TIMEOUT_S}s`,
      headers: { 'X-Tier-Slow-Units-Ms': String(SLOW_UNIT_MS) },
    });
    const db = await migrated();
    // One request at a time: the order nginx logs them in is the order the walk asked them.
    const result = await syncWeblate(weblate.current, db, {
      baseUrl: `http://${front}/`,
      full: true,
      client: { concurrency: 1, maxAttempts: 6 },
    });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    const walk = unitWalk(proxy.requests());
    const cut = walk.filter((r) => r.status === 504);
    // nginx itself gave up waiting (Weblate never answered those), at least once.
    expect(cut.length).toBeGreaterThanOrEqual(1);
    expect(cut.every((r) => r.upstreamStatus === '504')).toBe(true);
    expect(walk.filter((r) => r.status !== 200 && r.status !== 504)).toEqual([]);
    walk.forEach((request, i) => {
      if (request.status !== 504) return;
      // The same page asked again right after, at half the size...
      expect([walk[i + 1]?.q, walk[i + 1]?.size]).toEqual([request.q, halved(request.size)]);
      // ...and no later page of the walk asks more.
      expect(Math.max(...walk.slice(i + 1).map((r) => r.size))).toBeLessThanOrEqual(
        halved(request.size),
      );
    });
    const units = result.summary.resources.find((r) => r.resource === 'units')!;
    expect(units.retries).toBeGreaterThanOrEqual(cut.length);
    await expectEqualToDirect(db);
  });

  it('retries the 502s nginx answers while Weblate restarts, and the next run is exact', async () => {
    const proxy = await startFront({ readTimeout: '60s' });
    const db = await migrated();
    let restarting: Promise<void> | undefined;
    const { log, lines } = captureLogger('warn');
    const result = await syncWeblate(weblate.current, db, {
      baseUrl: `http://${front}/`,
      full: true,
      log,
      client: {
        // Small pages, so that the walk still asks while Weblate is gone; retries spread over
        // about half a minute, which a restart of 3 s (and gunicorn's start) usually fits in.
        maxPageSize: 50,
        maxAttempts: 12,
        retryBaseMs: 500,
        retryCapMs: 8000,
        log,
        onResponse: (response) => {
          if (restarting === undefined && response.resource === 'units')
            restarting = weblate.current.restart(3_000);
        },
      },
    });
    expect(restarting, 'no units request answered').toBeDefined();
    await restarting;
    const gateway = proxy.requests().filter((r) => r.status === 502);
    expect(gateway.length).toBeGreaterThanOrEqual(1);
    // nginx answered them alone: Weblate's port was closed.
    expect(gateway.every((r) => r.upstreamStatus === '502')).toBe(true);
    expect(lines.some((l) => /"msg":"request failed, retrying"/.test(l) && /502/.test(l))).toBe(
      true,
    );
    // Completed through the gap, or failed cleanly, in one line that names the 502.
    expect(['succeeded', 'failed']).toContain(result.status);
    if (result.status === 'failed') {
      expect(result.error?.message).toMatch(/failed after \d+ attempts: answered 502/);
      expect(result.error?.message).not.toMatch(/\n/);
    }
    const next = await syncWeblate(weblate.current, db, { baseUrl: `http://${front}/` });
    expect([next.status, next.error]).toEqual(['succeeded', null]);
    await expectEqualToDirect(db);
  });

  it('is synced over https with the certificate trusted explicitly, following http:// links with one warning', async () => {
    const proxy = await startFront({
      readTimeout: '60s',
      tls,
      // As a well-configured proxy does. Weblate ignores it for its links (see beforeAll).
      headers: { 'X-Forwarded-Proto': '$scheme' },
    });
    const origin = `https://${front}`;
    const db = await migrated();
    const { log, lines } = captureLogger('warn');
    const result = await syncWeblate(weblate.current, db, {
      baseUrl: `${origin}/`,
      full: true,
      log,
      client: { ca: readFileSync(tls.caFile, 'utf8'), log },
    });
    expect([result.status, result.error]).toEqual(['succeeded', null]);
    expect(result.summary.warnings.filter((w) => /http:\/\//.test(w))).toEqual([
      `the server writes http:// links although WEBLATE_URL is ${origin}; weblate-mirror follows them over https. ` +
        'Weblate builds its links from its SITE_DOMAIN and ENABLE_HTTPS settings, not from the request: set ENABLE_HTTPS in its settings.',
    ]);
    expect(lines.filter((l) => /server links say http for an https instance/.test(l))).toHaveLength(
      1,
    );
    // Weblate did write http:// links for nginx's https address, and nginx answered every
    // request the run made (over TLS: this server speaks nothing else).
    const links = await sql<{ url: string }>`select url from weblate.projects limit 1`.execute(db);
    expect(links.rows[0]!.url.startsWith(`http://${front}/api/`)).toBe(true);
    expect(proxy.requests().filter((r) => r.status !== 200)).toEqual([]);
    expect(proxy.requests().length).toBe(result.summary.requests);
    await expectEqualToDirect(db);

    // Without the certificate, nothing is read: the run fails, saying why.
    const untrusted = await syncWeblate(weblate.current, await migrated(), {
      baseUrl: `${origin}/`,
      client: { maxAttempts: 1 },
    });
    expect(untrusted.status).toBe('failed');
    expect(untrusted.error?.message).toMatch(/certificate/i);
  });
});

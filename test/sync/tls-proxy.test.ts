import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { countRows } from '../../src/db/queries/status.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv, runCli } from '../helpers/cli.ts';
import { createTestClient, readList } from '../helpers/client.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { createTestDatabase, handleOf, type TestDatabase } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { expectServedRequests, syncSimulator } from '../helpers/sync.ts';
import {
  type Certificate,
  createLoopbackCertificate,
  startTlsProxy,
  type TlsProxy,
} from '../helpers/tls-proxy.ts';

let sim: RunningSimulator;
let certificate: Certificate;
let proxy: TlsProxy;
let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  // Two pages of projects' components and several of units and changes, all with next links.
  sim = await startSimulator({
    seed: 51,
    projects: 2,
    components: 3,
    languages: 2,
    units: 1200,
    changes: 1500,
    users: 1,
  });
  certificate = await createLoopbackCertificate();
  proxy = await startTlsProxy(sim.url, certificate);
  // Weblate's SITE_DOMAIN names the proxy's address, but ENABLE_HTTPS is off: its links say
  // http:// for the host and port the clients use.
  sim.setSiteUrl(`http://${new URL(proxy.url).host}/`);
  database = await createTestDatabase();
  handle = await database.migrated();
});

afterAll(async () => {
  await proxy.close();
  await sim.close();
  await database.drop();
});

describe('an https instance whose proxy makes Weblate write http:// links', () => {
  it('is synced over https only, following those links with one warning per run', async () => {
    const { db } = handle;
    const origin = proxy.url.slice(0, -1);
    const { log, lines } = captureLogger('warn');
    // With a limited scope, each project's change list is read from the link in its record.
    const projects = sim.instance.projects.map((p) => p.slug);
    const result = await syncSimulator(sim, handleOf(db), {
      log,
      projects,
      client: { baseUrl: new URL(proxy.url), ca: certificate.cert, log },
    });
    expect([result.status, result.error, result.summary.rejected]).toEqual(['succeeded', null, 0]);
    expect(result.summary.warnings).toEqual([
      `the server writes http:// links although WEBLATE_URL is ${origin}; weblate-mirror follows them over https. ` +
        'Weblate builds its links from its SITE_DOMAIN and ENABLE_HTTPS settings, not from the request: set ENABLE_HTTPS in its settings.',
    ]);
    const warned = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter(
        (l) => l.msg === 'server links say http for an https instance: following them over https',
      );
    expect(warned).toHaveLength(1);
    // Every request went through TLS: none reached the proxy's port in plain http.
    expect(proxy.plainConnections).toBe(0);
    expectServedRequests(result, proxy.forwarded);
    expectServedRequests(result, sim.requests.total);
    // The links the server wrote did say http://, for the proxy's host and port.
    const urls = await sql<{ url: string }>`
      select url from weblate.translations order by id limit 1`.execute(db);
    expect(urls.rows[0]!.url.startsWith(`http://${new URL(proxy.url).host}/api/`)).toBe(true);
    const counts = await countRows(db);
    expect([counts.units, counts.translations, counts.changes]).toEqual([
      sim.instance.units.length,
      sim.instance.translations.length,
      sim.instance.changes.length,
    ]);
    // The next run warns again, once.
    const again = await syncSimulator(sim, handleOf(db), {
      projects,
      client: { baseUrl: new URL(proxy.url), ca: certificate.cert },
    });
    expect([again.status, again.summary.warnings]).toEqual(['succeeded', result.summary.warnings]);
  });

  it('has its next links followed page after page over https, with one warning', async () => {
    const { log, lines } = captureLogger('warn');
    const client = createTestClient(proxy.url, { ca: certificate.cert, log });
    try {
      const first = await client.getJson('changes/?page_size=100', 'changes');
      const next = (first.value as { next: string }).next;
      expect(next).toMatch(new RegExp(`^http://${new URL(proxy.url).host}/api/changes/\\?`));
      const urls: string[] = [];
      for await (const page of readList(client, 'changes/', {
        resource: 'changes',
        pageSize: 100,
      })) {
        urls.push(page.url);
        if (urls.length === 5) break;
      }
      expect(urls).toHaveLength(5);
      expect(urls.every((url) => url.startsWith(proxy.url))).toBe(true);
      expect(urls[4]).toMatch(/[?&]page=5(&|$)/);
      expect(client.warnings).toHaveLength(1);
      expect(lines).toHaveLength(1);
      expect(proxy.plainConnections).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('does not trust the proxy without its certificate, and names NODE_EXTRA_CA_CERTS', async () => {
    const { db } = handle;
    const result = await syncSimulator(sim, handleOf(db), {
      client: { baseUrl: new URL(proxy.url), maxAttempts: 1 },
    });
    expect(result.status).toBe('failed');
    expect(result.error?.message).toBe(
      `cannot trust Weblate at ${proxy.url}: its certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT); ` +
        "if you trust it, give the mirror its authority's certificate (PEM) with " +
        'NODE_EXTRA_CA_CERTS=/path/to/ca.pem, or check WEBLATE_URL',
    );
  });

  it('trusts it with NODE_EXTRA_CA_CERTS, as the hint says', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wm-ca-'));
    try {
      const ca = join(dir, 'ca.pem');
      await writeFile(ca, certificate.cert);
      const env = { ...databaseEnv(database), WEBLATE_URL: proxy.url, LOG_LEVEL: 'silent' };
      const untrusted = await runCliInProcess(['check'], env);
      expect(untrusted.stdout).toMatch(
        /^failed +weblate: cannot trust Weblate at .*NODE_EXTRA_CA_CERTS/m,
      );
      // NODE_EXTRA_CA_CERTS is read as Node starts: a process of its own.
      const trusted = await runCli(['check'], { ...env, NODE_EXTRA_CA_CERTS: ca });
      expect(trusted.stdout).toMatch(/^ok +weblate: /m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the host names of a certificate for another host', async () => {
    const other = await createLoopbackCertificate('DNS:weblate.example');
    const elsewhere = await startTlsProxy(sim.url, other);
    const fresh = await createTestDatabase();
    try {
      const result = await syncSimulator(sim, handleOf((await fresh.migrated()).db), {
        client: { baseUrl: new URL(elsewhere.url), ca: other.cert, maxAttempts: 1 },
      });
      expect(result.error?.message).toBe(
        `cannot trust Weblate at ${elsewhere.url}: its certificate is for DNS:weblate.example, not this host ` +
          "(ERR_TLS_CERT_ALTNAME_INVALID); use a host name the certificate holds in WEBLATE_URL, or fix the server's certificate",
      );
    } finally {
      await elsewhere.close();
      await fresh.drop();
    }
  });
});

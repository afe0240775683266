import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { badgeFile, fileSegment, writeBadges } from '../../src/watch/badge-files.ts';
import { type RunningHttpServer, startHttpServer } from '../../src/worker/http-server.ts';
import { captureLogger } from '../helpers/logs.ts';
import { SMALL_INSTANCE, useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * The badge files over a synced simulator, their figures against plain SQL on the progress
 * functions, and the worker's /badges/ route, with requests written byte for byte (fetch
 * would resolve `..` before sending).
 */

const mirror = useSimulatorMirror(SMALL_INSTANCE);
const log = captureLogger('warn').log;
let dir: string;
let outside: string;
let server: RunningHttpServer;
let lastSync: string;

async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(folder, join(e.parentPath, e.name)))
    .sort();
}

/** The message (second text) of a badge. */
function messageOf(svg: string): string {
  return [...svg.matchAll(/<text [^>]*y="140">([^<]*)<\/text>/g)][1]![1]!;
}

/** A request exactly as written, with its status, headers and body. */
function raw(method: string, path: string, headers: Record<string, string> = {}) {
  const url = new URL(server.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

beforeAll(async () => {
  const result = await syncSimulator(mirror.sim, mirror.handle);
  expect(result.status).toBe('succeeded');
  const root = await mkdtemp(join(tmpdir(), 'badges-'));
  dir = join(root, 'badges');
  outside = join(root, 'secret.svg');
  await writeFile(outside, '<svg>secret</svg>');
  lastSync = (
    await sql<{ at: string }>`
      select to_char(max(finished_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
      from weblate.sync_runs where status = 'succeeded'`.execute(mirror.handle.db)
  ).rows[0]!.at;
  server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    health: () => Promise.resolve({ healthy: true } as never),
    registry: new Registry(),
    log,
    badges: { dir },
  });
});

afterAll(async () => {
  await server?.close();
  if (dir !== undefined) await rm(join(dir, '..'), { recursive: true, force: true });
});

describe('writeBadges', () => {
  let projects: string[];
  let languages: Map<string, string>;

  beforeAll(async () => {
    const { db } = mirror.handle;
    projects = (
      await sql<{ slug: string }>`
        select slug from weblate.projects where deleted_at is null order by slug`.execute(db)
    ).rows.map((r) => r.slug);
    languages = new Map(
      (
        await sql<{ code: string; percent: string }>`
          select language_code as code, translated_percent::text as percent
          from weblate.progress_by_language()`.execute(db)
      ).rows.map((r) => [r.code, r.percent]),
    );
  });

  it('writes a badge for each project, project language, language and level', async () => {
    const counts = await writeBadges({ db: mirror.handle.db, dir, log });
    const files = await listFiles(dir);
    expect(projects.length).toBe(2);
    for (const p of projects) {
      expect(files).toContain(`project/${p}.svg`);
      for (const level of ['80', '90', '95'])
        expect(files).toContain(`project/${p}/languages-${level}.svg`);
    }
    for (const code of languages.keys()) expect(files).toContain(`language/${code}.svg`);
    expect(files).toContain('languages-90.svg');
    expect(counts).toEqual({ written: files.length, unchanged: 0, removed: 0 });
  });

  it('shows the figures of progress_by_language and the time of the last sync', async () => {
    const { db } = mirror.handle;
    for (const [code, percent] of languages) {
      const svg = await readFile(join(dir, 'language', `${code}.svg`), 'utf8');
      expect(messageOf(svg)).toBe(`${percent}%`);
      expect(svg).toContain(`data-as-of="${lastSync}"`);
    }
    for (const project of projects) {
      const rows = (
        await sql<{ code: string; percent: string }>`
          select language_code as code, translated_percent::text as percent
          from weblate.progress_by_language(${[project]}::text[], null, null)`.execute(db)
      ).rows;
      for (const row of rows) {
        const svg = await readFile(join(dir, 'project', project, `${row.code}.svg`), 'utf8');
        expect(messageOf(svg)).toBe(`${row.percent}%`);
      }
      for (const level of ['80', '90', '95']) {
        const { count } = (
          await sql<{ count: number }>`
            select count(*)::integer as count
            from weblate.progress_by_language(${[project]}::text[], null, null)
            where translated_percent >= ${level}::numeric`.execute(db)
        ).rows[0]!;
        const svg = await readFile(join(dir, 'project', project, `languages-${level}.svg`), 'utf8');
        expect(messageOf(svg)).toBe(`${count} of ${rows.length}`);
      }
    }
  });

  it('leaves every file as it is when nothing changed', async () => {
    const files = await listFiles(dir);
    const counts = await writeBadges({ db: mirror.handle.db, dir, log });
    expect(counts).toEqual({ written: 0, unchanged: files.length, removed: 0 });
  });

  it('removes the badges of a project no longer mirrored, and nothing that is not a badge', async () => {
    const { db } = mirror.handle;
    const gone = projects[1]!;
    await writeFile(join(dir, 'notes.txt'), 'mine');
    await writeFile(join(dir, 'logo.svg'), '<svg/>');
    const before = await listFiles(dir);
    const ownFiles = before.filter((f) => f.startsWith(`project/${gone}`));
    await sql`update weblate.projects set deleted_at = now() where slug = ${gone}`.execute(db);
    try {
      const counts = await writeBadges({ db, dir, log });
      const after = await listFiles(dir);
      expect(after.filter((f) => f.startsWith(`project/${gone}`))).toEqual([]);
      expect(after).toContain('notes.txt');
      expect(after).toContain('logo.svg');
      expect(counts.removed).toBe(ownFiles.length);
    } finally {
      await sql`update weblate.projects set deleted_at = null where slug = ${gone}`.execute(db);
    }
  });

  it('writes nothing before the first sync', async () => {
    const { db } = mirror.handle;
    const empty = join(dir, '..', 'empty');
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`update weblate.sync_runs set status = 'failed' where status = 'succeeded'`.execute(
          trx,
        );
        const counts = await writeBadges({ db: trx, dir: empty, log });
        expect(counts).toEqual({ written: 0, unchanged: 0, removed: 0 });
        throw new Error('rolled back');
      })
      .catch((err: Error) => expect(err.message).toBe('rolled back'));
  });
});

describe('badge file names', () => {
  it.each([
    ['de', 'de'],
    ['pt_BR', 'pt_BR'],
    ['sr@latin', 'sr@latin'],
    ['a/b', 'a%2Fb'],
    ['..', null],
    ['.', null],
    ['', null],
    ['x y', 'x%20y'],
  ])('writes %j as %j', (value, name) => {
    expect(fileSegment(value)).toBe(name);
  });

  it('never resolves outside the folder', () => {
    expect(badgeFile('/srv/badges', ['..', 'etc', 'passwd'])).toBeNull();
    expect(badgeFile('/srv/badges', ['/etc/passwd'])).toBe('/srv/badges/%2Fetc%2Fpasswd');
    expect(badgeFile('/srv/badges', ['project', 'a.svg'])).toBe('/srv/badges/project/a.svg');
  });
});

describe('GET /badges/', () => {
  it('serves a badge as SVG with its data time, an ETag and no caching without asking', async () => {
    const code = (await listFiles(join(dir, 'language')))[0]!;
    const response = await raw('GET', `/badges/language/${code}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['last-modified']).toBe(new Date(lastSync).toUTCString());
    expect(response.body).toBe(await readFile(join(dir, 'language', code), 'utf8'));
    const again = await raw('GET', `/badges/language/${code}`, {
      'if-none-match': String(response.headers.etag),
    });
    expect(again.status).toBe(304);
    const head = await raw('HEAD', `/badges/language/${code}`);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(response.headers.etag);
  });

  it('answers 404 for a missing badge and for any path out of the folder', async () => {
    for (const path of [
      '/badges/language/xx-none.svg',
      '/badges/../secret.svg',
      '/badges/%2e%2e/secret.svg',
      '/badges/%2E%2E%2Fsecret.svg',
      '/badges/..%2fsecret.svg',
      '/badges//etc/passwd.svg',
      '/badges/%2Fetc%2Fpasswd.svg',
      '/badges/project',
      '/badges/%zz.svg',
    ]) {
      const response = await raw('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain('secret');
    }
  });

  it('refuses other methods, and names /badges/ in its hint', async () => {
    expect((await raw('POST', '/badges/languages-90.svg')).status).toBe(405);
    const missing = await raw('GET', '/nothing');
    expect(missing.body).toBe('not found: try /healthz, /metrics or /badges/…\n');
  });
});

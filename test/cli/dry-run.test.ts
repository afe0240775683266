import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import { FOLDER_ROOT, NAMES } from '../helpers/database-template.ts';
import { tableDigestQuery } from '../helpers/mirror-compare.ts';
import { SMALL_INSTANCE, TINY_INSTANCE } from '../helpers/simulator-mirror.ts';

// `sync --dry-run` reads the discovery lists and says what the sync would read, writing
// nothing: no mirror created, no migration, no sync_runs row, on either database.

const databases = useTestDatabases();
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ ...SMALL_INSTANCE, users: 1 });
});

afterAll(async () => {
  await sim?.close();
});

type Document = Record<string, unknown>;
interface Estimate {
  resource: string;
  records: number | null;
  requests: number | null;
  basis: string;
}

async function dryRun(env: Record<string, string>, ...flags: string[]) {
  const result = await runCliInProcess(['sync', '--dry-run', ...flags], {
    WEBLATE_URL: sim.url,
    LOG_LEVEL: 'warn',
    ...env,
  });
  return result;
}

function estimates(doc: Document): Map<string, Estimate> {
  return new Map((doc.resources as Estimate[]).map((e) => [e.resource, e]));
}

/**
 * Everything a run could leave in a database: the relations of every schema but the
 * system's, each weblate table's rows, and each sequence's position.
 */
async function everything(db: Kysely<Database>): Promise<string[]> {
  const relations = await sql<{ name: string; kind: string; schema: string; relname: string }>`
    select n.nspname || '.' || c.relname as name, c.relkind as kind, n.nspname as schema, c.relname
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname not in ('pg_catalog', 'information_schema')
      and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
    order by 1`.execute(db);
  const out = relations.rows.map((r) => `${r.name} ${r.kind}`);
  for (const r of relations.rows) {
    if (r.schema !== 'weblate') continue;
    if (r.kind === 'r') {
      const { rows } = await sql
        .raw<{ digest: string | null }>(tableDigestQuery(r.relname))
        .execute(db);
      out.push(`${r.name} rows ${rows[0]?.digest ?? 'none'}`);
    } else if (r.kind === 'S') {
      const { rows } = await sql
        .raw<{ at: string }>(
          `select last_value::text || ' ' || is_called::text as at from weblate.${r.relname}`,
        )
        .execute(db);
      out.push(`${r.name} at ${rows[0]!.at}`);
    }
  }
  return out;
}

/** `everything` of a test database, through a handle closed before the command runs. */
async function snapshot(database: TestDatabase): Promise<string[]> {
  const handle = await database.open();
  try {
    return await everything(handle.db);
  } finally {
    await handle.close();
  }
}

describe('sync --dry-run', () => {
  it('estimates a first sync from the lists, and creates no embedded mirror', async () => {
    const dir = join(FOLDER_ROOT, `${NAMES.folderPrefix(process.pid)}dry-run-${Date.now()}`);
    const result = await dryRun({ DATABASE_URL: '', WEBLATE_MIRROR_DATA_DIR: dir }, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(dir)).toBe(false);
    const doc = JSON.parse(result.stdout) as Document;
    expect(doc).toMatchObject({
      format: 'weblate-mirror.dry-run/1',
      instance: `${sim.url}api/`,
      database: dir,
      has_mirror: false,
      kind: 'full',
      mode: 'full',
      discovery: 'lists',
      rejected: 0,
    });
    const { instance } = sim;
    const byResource = estimates(doc);
    expect(
      ['languages', 'projects', 'components', 'translations'].map(
        (r) => byResource.get(r)?.records,
      ),
    ).toEqual([
      instance.languages.length,
      instance.projects.length,
      instance.components.length,
      instance.translations.length,
    ]);
    expect(byResource.get('units')?.records).toBe(instance.units.length);
    expect(byResource.get('changes')?.records).toBe(instance.changes.length);
    // The unit walk asks for pages of the client's size: WEBLATE_MAX_PAGE_SIZE caps it.
    const smaller = await dryRun(
      { DATABASE_URL: '', WEBLATE_MIRROR_DATA_DIR: dir, WEBLATE_MAX_PAGE_SIZE: '100' },
      '--json',
    );
    const units = estimates(JSON.parse(smaller.stdout) as Document).get('units')!;
    expect(units.requests).toBe(Math.ceil(instance.units.length / 100) + 1);
    expect(existsSync(dir)).toBe(false);
  });

  it('writes nothing to a database without a mirror: no schema, no migration', async () => {
    const database = await databases.create({ empty: true });
    const before = await snapshot(database);
    const result = await dryRun(databaseEnv(database), '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ has_mirror: false, kind: 'full' });
    expect(await snapshot(database)).toEqual(before);
  });

  it('leaves a synced mirror as it was, and plans the incremental sync that comes next', async () => {
    const database = await databases.create();
    const env = { ...databaseEnv(database), WEBLATE_URL: sim.url, LOG_LEVEL: 'warn' };
    expect((await runCliInProcess(['sync'], env)).code).toBe(0);
    const before = await snapshot(database);
    const incremental = await dryRun(databaseEnv(database), '--json');
    expect(incremental.code, incremental.stderr).toBe(0);
    const doc = JSON.parse(incremental.stdout) as Document;
    expect(doc).toMatchObject({
      has_mirror: true,
      pending_migrations: [],
      kind: 'incremental',
      discovery: 'mirrored',
      complete: false,
    });
    // Not due, the lists are not what the sync reads; what changed is known only as it reads.
    expect(estimates(doc).get('projects')).toMatchObject({ records: null, requests: null });
    expect(estimates(doc).get('units')).toMatchObject({ records: null, requests: null });
    const full = await dryRun(databaseEnv(database));
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout.split('\n')[0]).toBe(
      `dry run: an incremental sync of ${sim.url}api/ into ${database.databaseUrl === null ? database.dataDir : new URL(database.databaseUrl).host + new URL(database.databaseUrl).pathname}; nothing was written`,
    );
    const forced = await dryRun(databaseEnv(database), '--full');
    expect(forced.stdout).toMatch(/^dry run: a full sync of /);
    expect(forced.stdout).toMatch(
      new RegExp(`^units +${sim.instance.units.length} +\\d+ +the translations' totals`, 'm'),
    );
    expect(await snapshot(database)).toEqual(before);
  });

  it('refuses, as the sync would, a WEBLATE_URL of another instance, before any request', async () => {
    const database = await databases.create();
    const env = { ...databaseEnv(database), LOG_LEVEL: 'warn' };
    expect((await runCliInProcess(['sync'], { ...env, WEBLATE_URL: sim.url })).code).toBe(0);
    const other = await startSimulator(TINY_INSTANCE);
    try {
      const refused = await runCliInProcess(['sync', '--dry-run'], {
        ...env,
        WEBLATE_URL: other.url,
      });
      const synced = await runCliInProcess(['sync'], { ...env, WEBLATE_URL: other.url });
      expect([refused.code, refused.stdout]).toEqual([2, '']);
      // The sync's own line, and its exit code.
      expect([synced.code, refused.stderr]).toEqual([
        2,
        synced.stderr
          .split('\n')
          .filter((l) => l.startsWith('error: '))
          .map((l) => `${l}\n`)
          .join(''),
      ]);
      expect(refused.stderr).toMatch(/^error: this database mirrors the Weblate instance at /);
      expect(other.requests.total).toBe(0);
    } finally {
      await other.close();
    }
  });
});

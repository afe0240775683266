import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MIGRATIONS } from '../../migrations/index.ts';
import { readSchemaSnapshot, type SchemaSnapshot } from '../../src/db/schema-snapshot.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * schema/ is the current definition of every table, view and function: it must equal what a
 * fresh migrate of an empty database produces, here on the database of the run (the embedded
 * one, or PostgreSQL with TEST_DATABASE_URL). A change to any definition shows as a diff of
 * schema/ in review; `npm run schema:snapshot` writes it.
 */

const ROOT = join(import.meta.dirname, '..', '..', 'schema');
const MIGRATIONS_DIR = join(import.meta.dirname, '..', '..', 'migrations');

function committedSnapshot(): SchemaSnapshot {
  const files: SchemaSnapshot = new Map();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.sql'))
        files.set(relative(ROOT, path), readFileSync(path, 'utf8'));
    }
  };
  walk(ROOT);
  return files;
}

/**
 * PostgreSQL 16 stopped qualifying the columns of a query level that reads one relation
 * (`p.total` became `total`); schema/ is written on 18. Before 16, view texts are compared
 * with every column qualifier taken away on both sides.
 */
function withoutQualifiers(text: string): string {
  return text.replace(/(?<![\w.])(?!weblate\.)[a-z_][a-z0-9_]*\.(?=[a-z_])/g, '');
}

/** The first lines where two texts differ, for a readable failure. */
function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i === -1 ? Math.min(a.length, b.length) : i;
  return `line ${at + 1}:\n  committed: ${a[at] ?? '(end)'}\n  migrated:  ${b[at] ?? '(end)'}`;
}

describe('schema/', () => {
  let database: TestDatabase;
  let migrated: SchemaSnapshot;
  let serverVersion: number;

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    const handle = await database.migrated();
    migrated = await readSchemaSnapshot(handle.db);
    const version = await sql<{
      v: string;
    }>`select current_setting('server_version_num') as v`.execute(handle.db);
    serverVersion = Number(version.rows[0]!.v);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('holds every table, view and function a fresh migrate makes, and nothing else', () => {
    const committed = committedSnapshot();
    expect(
      [...committed.keys()].sort(),
      'run `npm run schema:snapshot` and commit schema/',
    ).toEqual([...migrated.keys()].sort());
  });

  it('holds each definition exactly as a fresh migrate makes it', () => {
    const committed = committedSnapshot();
    const differing: string[] = [];
    for (const [path, text] of migrated) {
      const expected = committed.get(path);
      if (expected === undefined) continue;
      const compare =
        serverVersion < 160000 && path.startsWith('views/') ? withoutQualifiers : (t: string) => t;
      if (compare(expected) !== compare(text))
        differing.push(`schema/${path}, ${firstDifference(compare(expected), compare(text))}`);
    }
    expect(differing, 'run `npm run schema:snapshot` and commit schema/').toEqual([]);
  });

  it('takes qualifiers away only where PostgreSQL 16 stopped printing them', () => {
    expect(withoutQualifiers('select p.total, weblate.f(x.a) from weblate.t p')).toBe(
      'select total, weblate.f(a) from weblate.t p',
    );
  });
});

describe('migrations/', () => {
  const sources = Object.keys(MIGRATIONS).map((name) => ({
    name,
    text: readFileSync(join(MIGRATIONS_DIR, `${name}.ts`), 'utf8'),
  }));

  it('import nothing from another migration', () => {
    const importing = sources.filter((m) => /from '\.\/\d{4}_/.test(m.text)).map((m) => m.name);
    expect(importing).toEqual([]);
  });

  it('build no SQL by string replacement', () => {
    const replacing = sources.filter((m) => /\.replace(All)?\(/.test(m.text)).map((m) => m.name);
    expect(replacing).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * docs/schema.md is the users' contract: every `## <table>` (or `## <view>`) section with a
 * `| column | type | null? | meaning |` table must match the migrated schema exactly.
 * PostgreSQL reports every column of a view as nullable, so views document `yes` throughout.
 */

const SCHEMA_DOC = new URL('../../docs/schema.md', import.meta.url);
/** Kysely's own bookkeeping, described in prose under "General rules". */
const INTERNAL_TABLES = ['kysely_migration', 'kysely_migration_lock'];

interface DocumentedColumn {
  type: string;
  nullable: boolean;
}

interface DocumentedTable {
  columns: Map<string, DocumentedColumn>;
  /** Problems found while reading the section (duplicates, bad null? values). */
  problems: string[];
}

/** Splits a Markdown table row into trimmed cells (an escaped `\|` stays inside its cell). */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

const unquote = (cell: string) => cell.replace(/^`(.*)`$/, '$1');

/** The column tables of the document, by the `## ` heading of their section. */
function parseSchemaDoc(text: string): {
  tables: Map<string, DocumentedTable>;
  problems: string[];
} {
  const tables = new Map<string, DocumentedTable>();
  const problems: string[] = [];
  let section: string | null = null;
  let current: DocumentedTable | null = null;
  let inColumnTable = false;
  let inFence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = /^## (.+)$/.exec(line);
    if (heading) {
      section = heading[1]!.trim();
      current = null;
      inColumnTable = false;
      continue;
    }
    if (!line.trim().startsWith('|')) {
      inColumnTable = false;
      continue;
    }
    const row = cells(line);
    if (!inColumnTable) {
      const header = row.map((c) => c.toLowerCase());
      if (header.join('|') !== 'column|type|null?|meaning') continue;
      if (section === null) {
        problems.push('a column table appears before the first ## section');
        continue;
      }
      if (current !== null || tables.has(section)) {
        problems.push(`section ## ${section} has more than one column table, or appears twice`);
        continue;
      }
      current = { columns: new Map(), problems: [] };
      tables.set(section, current);
      inColumnTable = true;
      continue;
    }
    if (row.every((c) => /^:?-+:?$/.test(c))) continue;
    const [rawName = '', rawType = '', rawNull = ''] = row;
    const name = unquote(rawName);
    const where = `${section}.${name}`;
    if (current!.columns.has(name)) {
      current!.problems.push(`${where}: documented twice`);
      continue;
    }
    if (rawNull !== 'yes' && rawNull !== 'no') {
      current!.problems.push(`${where}: null? is "${rawNull}", expected "yes" or "no"`);
    }
    current!.columns.set(name, { type: unquote(rawType), nullable: rawNull === 'yes' });
  }
  return { tables, problems };
}

/** information_schema's data_type names that the document spells differently. */
const DATA_TYPE_SPELLING: Record<string, string> = {
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time with time zone': 'timetz',
  'time without time zone': 'time',
  'character varying': 'varchar',
  character: 'char',
};

/** Element type names (udt_name of an array without its `_`) as the document spells them. */
const UDT_SPELLING: Record<string, string> = {
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  bool: 'boolean',
  float4: 'real',
  float8: 'double precision',
  bpchar: 'char',
};

/** The type of a column as docs/schema.md spells it, e.g. `timestamptz` or `text[]`. */
function documentedSpelling(dataType: string, udtName: string): string {
  if (dataType === 'ARRAY') {
    const element = udtName.replace(/^_/, '');
    return `${UDT_SPELLING[element] ?? element}[]`;
  }
  if (dataType === 'USER-DEFINED') return udtName;
  return DATA_TYPE_SPELLING[dataType] ?? dataType;
}

interface DatabaseColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

let database: TestDatabase;
let handle: DbHandle;
let columns: DatabaseColumn[];
let doc: ReturnType<typeof parseSchemaDoc>;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
  const result = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: string;
  }>`
    select c.table_name, c.column_name, c.data_type, c.udt_name, c.is_nullable
    from information_schema.columns c
    join information_schema.tables t
      on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'weblate'
      and t.table_type in ('BASE TABLE', 'VIEW')
      and c.table_name not in (${sql.join(INTERNAL_TABLES)})
    order by c.table_name, c.ordinal_position`.execute(handle.db);
  columns = result.rows.map((r) => ({
    table: r.table_name,
    column: r.column_name,
    type: documentedSpelling(r.data_type, r.udt_name),
    nullable: r.is_nullable === 'YES',
  }));
  doc = parseSchemaDoc(readFileSync(SCHEMA_DOC, 'utf8'));
});

afterAll(async () => {
  await database?.drop();
});

describe('docs/schema.md', () => {
  it('parses cleanly', () => {
    const problems = [
      ...doc.problems,
      ...[...doc.tables.values()].flatMap((table) => table.problems),
    ];
    expect(problems).toEqual([]);
  });

  it('has a section with a column table for every table in the schema', () => {
    expect(columns.length).toBeGreaterThan(0);
    const tables = [...new Set(columns.map((c) => c.table))];
    const missing = tables
      .filter((table) => !doc.tables.has(table))
      .map((table) => `weblate.${table}: no "## ${table}" section with a column table`);
    expect(missing).toEqual([]);
  });

  it('documents every column with its type and nullability', () => {
    const problems: string[] = [];
    for (const { table, column, type, nullable } of columns) {
      const documented = doc.tables.get(table)?.columns.get(column);
      if (documented === undefined) {
        if (doc.tables.has(table)) problems.push(`weblate.${table}.${column}: not documented`);
        continue;
      }
      if (documented.type !== type) {
        problems.push(
          `weblate.${table}.${column}: documented as ${documented.type}, the database has ${type}`,
        );
      }
      if (documented.nullable !== nullable) {
        problems.push(
          `weblate.${table}.${column}: null? says ${documented.nullable ? 'yes' : 'no'}, ` +
            `the column is ${nullable ? 'nullable' : 'not null'}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('documents no table or column that the database lacks', () => {
    const inDatabase = new Set(columns.map((c) => `${c.table}.${c.column}`));
    const tables = new Set(columns.map((c) => c.table));
    const problems: string[] = [];
    for (const [table, documented] of doc.tables) {
      if (!tables.has(table)) {
        problems.push(`## ${table}: documented, but weblate.${table} does not exist`);
        continue;
      }
      for (const column of documented.columns.keys()) {
        if (!inDatabase.has(`${table}.${column}`)) {
          problems.push(`weblate.${table}.${column}: documented, but the column does not exist`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

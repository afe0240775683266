import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';

import { queryCommand } from '../../src/cli/commands/query.ts';
import { ExplainedError } from '../../src/errors.ts';
import { databaseFlags, runCommand } from '../helpers/commands.ts';
import { type TestDatabase, useTestDatabases } from '../helpers/database.ts';

const databases = useTestDatabases();
let database: TestDatabase;
let actions: number;

beforeAll(async () => {
  database = await databases.create();
  const handle = await database.open();
  try {
    // A function that writes, which a read-only transaction must stop as well.
    await sql`create table public.scratch (n int)`.execute(handle.db);
    await sql`create function public.note_visit() returns int language sql
      as $$ insert into public.scratch values (1) returning 1 $$`.execute(handle.db);
    const counted = await sql<{
      n: number;
    }>`select count(*)::int as n from weblate.change_actions`.execute(handle.db);
    actions = counted.rows[0]!.n;
  } finally {
    await handle.close();
  }
  expect(actions).toBeGreaterThan(0);
});

function query(text: string, flags: Record<string, boolean> = {}) {
  return runCommand(queryCommand, { ...databaseFlags(database), ...flags }, [text]);
}

/** What the statement failed with; it must have failed with a message of ours. */
async function refusal(text: string): Promise<string> {
  const result = await query(text);
  expect([result.code, result.stdout]).toEqual([null, '']);
  expect(result.error).toBeInstanceOf(ExplainedError);
  return result.error!.message;
}

async function countActions(): Promise<number> {
  const result = await query('select count(*)::int as n from weblate.change_actions', {
    json: true,
  });
  return (JSON.parse(result.stdout) as { n: number }).n;
}

const HINT =
  'weblate-mirror query runs in a read-only transaction; use psql or another client to change data.';

describe('query', () => {
  it('prints the rows of a statement, with a semicolon in a string or at its end', async () => {
    const result = await query("select 'a;b' as text, 2 as n;", { json: true });
    expect([result.code, result.error]).toEqual([0, null]);
    expect(result.stdout).toBe('{"text":"a;b","n":2}\n');
  });

  it('refuses every statement that writes, and nothing is written', async () => {
    const writes: Array<[string, string]> = [
      ['delete from weblate.change_actions', 'cannot execute DELETE in a read-only transaction'],
      [
        "insert into weblate.change_actions (action, name) values (100000, 'x')",
        'cannot execute INSERT in a read-only transaction',
      ],
      [
        "update weblate.change_actions set name = 'x'",
        'cannot execute UPDATE in a read-only transaction',
      ],
      [
        'create table weblate.more (n int)',
        'cannot execute CREATE TABLE in a read-only transaction',
      ],
      ['drop table public.scratch', 'cannot execute DROP TABLE in a read-only transaction'],
      [
        "select nextval('weblate.sync_runs_id_seq')",
        'cannot execute nextval() in a read-only transaction',
      ],
      ['select public.note_visit()', 'cannot execute INSERT in a read-only transaction'],
    ];
    for (const [text, reason] of writes) {
      expect(await refusal(text)).toBe(
        `query only reads: the statement tried to write (${reason}). ${HINT}`,
      );
    }
    expect(await countActions()).toBe(actions);
    expect(
      (await query('select count(*)::int as n from public.scratch', { json: true })).stdout,
    ).toBe('{"n":0}\n');
  });

  it('refuses a second statement, even one that would write after a read', async () => {
    for (const text of ['select 1; select 2', 'select 1; delete from weblate.change_actions'])
      expect(await refusal(text)).toBe(
        'query runs one statement at a time; run each statement on its own',
      );
    expect(await countActions()).toBe(actions);
  });

  it("keeps PostgreSQL's message for other errors", async () => {
    expect(await refusal('selct 1')).toBe('query failed: syntax error at or near "selct"');
    expect(await refusal('select * from weblate.nope')).toBe(
      'query failed: relation "weblate.nope" does not exist',
    );
    expect(await refusal('select nope from weblate.change_actions')).toBe(
      'query failed: column "nope" does not exist',
    );
  });
});

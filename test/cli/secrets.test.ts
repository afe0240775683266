import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { type CliResult, databaseEnv, runCli } from '../helpers/cli.ts';
import { TEST_DATABASE_URL, useTestDatabases } from '../helpers/database.ts';
import { databaseUrlOf, FOLDER_ROOT, NAMES } from '../helpers/database-template.ts';

/**
 * One password, one token and one webhook secret, unique to this run, fed through every
 * failing path there is; none may appear in any output. The server trusts every login, so
 * the password can go into the URL of a database that works too.
 */
const PASSWORD = `pw${randomBytes(9).toString('hex')}`;
const TOKEN = `wlu_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = randomBytes(24).toString('base64');
const SECRETS = [PASSWORD, TOKEN, WEBHOOK_SECRET];

const SMALL = {
  seed: 2,
  projects: 1,
  components: 1,
  languages: 2,
  units: 40,
  changes: 20,
  users: 1,
};

const databases = useTestDatabases();
let accepting: RunningSimulator;
let refusing: RunningSimulator;

beforeAll(async () => {
  [accepting, refusing] = await Promise.all([
    startSimulator({ ...SMALL, token: TOKEN }),
    startSimulator({ ...SMALL, token: `wlu_${randomBytes(12).toString('hex')}` }),
  ]);
});

afterAll(async () => {
  await Promise.all([accepting.close(), refusing.close()]);
});

/** A URL of `url` with the password in it. */
function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = PASSWORD;
  return parsed.href;
}

/** A new mirror, reached with the password where it is a PostgreSQL database. */
async function mirrorEnv(): Promise<Record<string, string>> {
  const database = await databases.create();
  const env = databaseEnv(database);
  return database.databaseUrl === null
    ? env
    : { ...env, DATABASE_URL: withPassword(database.databaseUrl) };
}

interface Case {
  name: string;
  args: string[];
  env: Record<string, string>;
  code: number;
  /** What the output must say, so that the path is known to have been taken. */
  says: RegExp[];
}

async function cases(): Promise<Case[]> {
  const closedDatabase = `postgres://admin:${PASSWORD}@127.0.0.1:1/mirror`;
  const list: Case[] = [
    {
      name: 'the worker with a malformed DATABASE_URL and other bad settings',
      args: ['worker'],
      env: {
        DATABASE_URL: `http://admin:${PASSWORD}@db.example/x`,
        WEBLATE_URL: `https://admin:${PASSWORD}@weblate.example/`,
        WEBLATE_TOKEN: `${TOKEN} x`,
        WEBLATE_WEBHOOK_SECRET: `not base64 ${WEBHOOK_SECRET}`,
      },
      code: 2,
      says: [
        /DATABASE_URL="http:\/\/admin:\*\*\*@db\.example\/x": must be a postgres/,
        /WEBLATE_URL="https:\/\/\*\*\*@weblate\.example\/": must not contain credentials/,
        /WEBLATE_TOKEN="…": must not contain whitespace/,
        /WEBLATE_WEBHOOK_SECRET="…": must be the webhook add-on's secret/,
      ],
    },
    {
      name: 'status on an unreachable DATABASE_URL',
      args: ['status'],
      env: { DATABASE_URL: closedDatabase },
      code: 1,
      says: [/cannot reach the database at 127\.0\.0\.1:1\/mirror \(connection refused\)/],
    },
    {
      name: 'the worker on an unreachable DATABASE_URL',
      args: ['worker'],
      env: { DATABASE_URL: closedDatabase, WEBLATE_URL: accepting.url },
      code: 1,
      says: [/cannot reach the database at 127\.0\.0\.1:1\/mirror \(connection refused\)/],
    },
    {
      name: 'a sync that Weblate refuses the token of',
      args: ['sync'],
      env: { ...(await mirrorEnv()), WEBLATE_URL: refusing.url },
      code: 1,
      says: [/Weblate rejected the credentials \(401 .*Invalid token\.\); check WEBLATE_TOKEN/],
    },
    {
      name: 'a sync against an unreachable Weblate',
      args: ['sync'],
      env: {
        ...(await mirrorEnv()),
        WEBLATE_URL: 'http://127.0.0.1:1/',
        WEBLATE_MAX_ATTEMPTS: '2',
      },
      code: 1,
      says: [
        /cannot reach Weblate at http:\/\/127\.0\.0\.1:1\/ \(connection refused, 2 attempts\)/,
      ],
    },
    {
      name: 'a sync that succeeds, every request logged',
      args: ['sync'],
      env: { ...(await mirrorEnv()), WEBLATE_URL: accepting.url },
      code: 0,
      says: [/: succeeded\n(.|\n)*"msg":"request"/],
    },
    {
      name: 'a query that fails',
      args: ['query', 'selct 1'],
      env: await mirrorEnv(),
      code: 1,
      says: [/query failed: syntax error at or near "selct"/],
    },
    {
      name: 'a report on a project the mirror does not have',
      args: ['report', '--project', 'nope'],
      env: await mirrorEnv(),
      code: 2,
      says: [/--project: no live project "nope" in the mirror/],
    },
  ];
  if (TEST_DATABASE_URL === null) {
    list.push({
      name: 'status where there is no mirror',
      args: ['status', '--data-dir', join(FOLDER_ROOT, `${NAMES.folderPrefix(process.pid)}none`)],
      env: { DATABASE_URL: '' },
      code: 1,
      says: [/no mirror in /],
    });
  } else {
    const missing = withPassword(databaseUrlOf(TEST_DATABASE_URL, NAMES.database(process.pid)));
    list.push(
      {
        name: 'status on a database that does not exist',
        args: ['status'],
        env: { DATABASE_URL: missing },
        code: 1,
        says: [/no mirror at [^:]+:\d+: there is no database "wm_test_/],
      },
      {
        name: 'a sync into a database that does not exist',
        args: ['sync'],
        env: { DATABASE_URL: missing, WEBLATE_URL: accepting.url },
        code: 1,
        says: [/there is no database "wm_test_\w+" on [^:]+:\d+: create it, or check DATABASE_URL/],
      },
    );
  }
  return list;
}

describe('secrets', () => {
  it('appear in no output of any failing path, nor in any log line at trace', async () => {
    const list = await cases();
    const limit = pLimit(3);
    const results = await Promise.all(
      list.map((c) =>
        limit(() =>
          runCli(c.args, {
            WEBLATE_TOKEN: TOKEN,
            WEBLATE_WEBHOOK_SECRET: WEBHOOK_SECRET,
            LOG_LEVEL: 'trace',
            ...c.env,
          }),
        ),
      ),
    );
    for (const [i, c] of list.entries()) {
      const result: CliResult = results[i]!;
      const output = `${result.stdout}\n${result.stderr}`;
      expect([c.name, result.code], output).toEqual([c.name, c.code]);
      for (const said of c.says) expect(output, c.name).toMatch(said);
      for (const secret of SECRETS) expect(output, c.name).not.toContain(secret);
    }
  });
});

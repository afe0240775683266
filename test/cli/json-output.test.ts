import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { locationOf } from '../../src/db/client.ts';
import { countRows } from '../../src/db/queries/status.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { RESOURCES } from '../../src/sync/tally.ts';
import { databaseEnv, runCli } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import { type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import { TINY_INSTANCE } from '../helpers/simulator-mirror.ts';

// The documents `sync --json`, `status --json` and `report --format json` print for programs
// (README, "Output for programs"): one JSON object on stdout and nothing else, opening with
// its format and version, with the fields the README promises, in its order.

const SYNC_FIELDS = [
  'format',
  'run_id',
  'kind',
  'mode',
  'status',
  'instance',
  'database',
  'error',
  'requests',
  'records',
  'rows_written',
  'rejected',
  'duration_ms',
  'warnings',
  'resources',
];
const RESOURCE_FIELDS = [
  'resource',
  'records',
  'rejected',
  'rows_written',
  'requests',
  'retries',
  'duration_ms',
];
const STATUS_FIELDS = ['format', 'database', 'instance', 'runs', 'tables'];
const RUN_FIELDS = [
  'id',
  'kind',
  'status',
  'started_at',
  'finished_at',
  'requests',
  'rows_written',
  'rejected',
  'error',
];

type Document = Record<string, unknown>;

/** The one JSON object of `stdout`: it must be all there is, on one line. */
function onlyDocument(stdout: string): Document {
  expect(stdout.endsWith('\n')).toBe(true);
  expect(stdout.slice(0, -1)).not.toContain('\n');
  return JSON.parse(stdout) as Document;
}

const databases = useTestDatabases();
let sim: RunningSimulator;
let database: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator(TINY_INSTANCE);
  database = await databases.create();
  env = { ...databaseEnv(database), WEBLATE_URL: sim.url, LOG_LEVEL: 'warn' };
});

afterAll(async () => {
  await sim?.close();
});

describe('sync --json', () => {
  it('prints the run as one JSON object, and nothing else on stdout', async () => {
    const result = await runCli(['sync', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const doc = onlyDocument(result.stdout);
    expect(Object.keys(doc)).toEqual(SYNC_FIELDS);
    expect(doc).toMatchObject({
      format: 'weblate-mirror.sync/1',
      run_id: 1,
      kind: 'full',
      mode: 'full',
      status: 'succeeded',
      instance: `${sim.url}api/`,
      database: locationOf(database),
      error: null,
      rejected: 0,
      warnings: [],
    });
    const resources = doc.resources as Document[];
    expect(resources.map((r) => r.resource)).toEqual([...RESOURCES]);
    for (const r of resources) expect(Object.keys(r)).toEqual(RESOURCE_FIELDS);
    const sum = (field: string) => resources.reduce((n, r) => n + (r[field] as number), 0);
    expect([sum('rows_written'), sum('requests'), sum('records')]).toEqual([
      doc.rows_written,
      doc.requests,
      doc.records,
    ]);
    // The same counts as the run's row.
    const handle = await database.open();
    const row = await handle.db
      .selectFrom('weblate.sync_runs')
      .select(['requests', 'rows_written'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect([row.requests, Number(row.rows_written)]).toEqual([doc.requests, doc.rows_written]);
    await handle.close();
  });

  it('of a failed run prints its document on stdout and the error line on stderr', async () => {
    const other = await databases.create();
    const result = await runCliInProcess(['sync', '--json'], {
      ...databaseEnv(other),
      WEBLATE_URL: 'http://127.0.0.1:1/',
      WEBLATE_MAX_ATTEMPTS: '1',
      LOG_LEVEL: 'silent',
    });
    expect(result.code).toBe(1);
    const doc = onlyDocument(result.stdout);
    expect(doc).toMatchObject({ format: 'weblate-mirror.sync/1', status: 'failed' });
    expect(doc.error).toMatch(/^cannot reach Weblate at http:\/\/127\.0\.0\.1:1\/ /);
    expect(result.stderr).toBe(`error: ${doc.error as string}\n`);
  });
});

describe('status --json', () => {
  it('prints the instance, the runs and the rows of each table as one JSON object', async () => {
    const result = await runCliInProcess(['status', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const doc = onlyDocument(result.stdout);
    expect(Object.keys(doc)).toEqual(STATUS_FIELDS);
    expect(doc).toMatchObject({
      format: 'weblate-mirror.status/1',
      database: locationOf(database),
      instance: `${sim.url}api/`,
    });
    const runs = doc.runs as Document[];
    expect(runs).toHaveLength(1);
    expect(Object.keys(runs[0]!)).toEqual(RUN_FIELDS);
    expect(runs[0]).toMatchObject({ id: 1, kind: 'full', status: 'succeeded', error: null });
    for (const at of [runs[0]!.started_at, runs[0]!.finished_at])
      expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const handle = await database.open();
    expect(doc.tables).toEqual(await countRows(handle.db));
    await handle.close();
  });
});

describe('report --format json', () => {
  it('opens with its format and version', async () => {
    const result = await runCliInProcess(['report', '--format', 'json'], env);
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout) as Document;
    expect(Object.keys(doc).slice(0, 3)).toEqual(['format', 'generated_at', 'instance']);
    expect(doc).toMatchObject({ format: 'weblate-mirror.report/1', instance: `${sim.url}api/` });
  });
});

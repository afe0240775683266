import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { BIN, databaseEnv } from '../helpers/cli.ts';
import { syncedInProcess } from '../helpers/commands.ts';
import { type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import { freePort } from '../helpers/ports.ts';
import {
  isPortFree,
  killAll,
  type ProcessId,
  processOneOf,
  processTree,
  startAsProcessOne,
  waitUntilGone,
} from '../helpers/process-tree.ts';
import { TINY_INSTANCE } from '../helpers/simulator-mirror.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The worker started each way README and the image start it, stopped by a signal to the process
 * that was started (never to its group, as a supervisor, a pid file or `kill $!` does): the whole
 * tree of processes must end and the port be free again. docs/architecture.md, "Stopping", says
 * why npm and its shell made this fail.
 */
const ROOT = join(import.meta.dirname, '../..');
const SHUTDOWN_TIMEOUT_SECONDS = 10;
/** The tree may take its shutdown deadline; far longer is a leak. */
const GONE_WITHIN_MS = (SHUTDOWN_TIMEOUT_SECONDS + 50) * 1000;

interface Way {
  name: string;
  start: (env: Record<string, string>) => ChildProcess;
  /** The process a stop signal goes to, as the starter knows it. */
  target: (started: ChildProcess) => Promise<number>;
}

const started = (child: ChildProcess) => Promise.resolve(child.pid!);
const spawnIn = (command: string[], env: Record<string, string>) =>
  spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

const WAYS: Way[] = [
  {
    name: 'npx weblate-mirror worker',
    start: (env) => spawnIn(['npx', 'weblate-mirror', 'worker'], env),
    target: started,
  },
  { name: 'npm start', start: (env) => spawnIn(['npm', 'start'], env), target: started },
  { name: 'the bin', start: (env) => spawnIn([BIN, 'worker'], env), target: started },
  {
    name: 'node bin/weblate-mirror.js',
    start: (env) => spawnIn([process.execPath, 'bin/weblate-mirror.js', 'worker'], env),
    target: started,
  },
  {
    // As the image runs it: the entrypoint, relative to its WORKDIR, is process 1 of the
    // container, which `docker stop` signals.
    name: "the image's entrypoint, as process 1",
    start: (env) => startAsProcessOne(['bin/weblate-mirror.js', 'worker'], { cwd: ROOT, env }),
    target: processOneOf,
  },
];

const databases = useTestDatabases();
let sim: RunningSimulator;
let database: TestDatabase;
let leftovers: ProcessId[] = [];

beforeAll(async () => {
  sim = await startSimulator(TINY_INSTANCE);
  database = await databases.create();
  // A recorded successful sync: /healthz answers 200 from the worker's start.
  await syncedInProcess(database, sim.url);
});

afterEach(() => {
  killAll(leftovers);
  leftovers = [];
});

afterAll(async () => {
  await sim.close();
});

/** The environment of a worker with one job, on a rare schedule: it only waits, and serves. */
function workerEnv(port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...databaseEnv(database),
    WEBLATE_URL: sim.url,
    WORKER_SYNC_CRON: 'off',
    WORKER_STATISTICS_CRON: 'off',
    WORKER_RECONCILE_CRON: '0 0 1 1 *',
    WORKER_HTTP_PORT: String(port),
    WORKER_SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS),
    LOG_LEVEL: 'info',
    npm_config_yes: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
  };
}

async function healthz(port: number): Promise<number | undefined> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
  } catch {
    return undefined;
  }
}

/**
 * Starts the worker `way`, waits for its /healthz to answer 200, sends `signal` to `group` (the
 * started process's group) or to the way's target alone, and returns what the tree logged once
 * every process of it has ended.
 */
async function stopWorker(way: Way, signal: NodeJS.Signals, group = false): Promise<string> {
  const port = await freePort();
  const child = way.start(workerEnv(port));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    await waitFor(async () => (await healthz(port)) === 200, '/healthz to answer 200', 120_000);
  } catch (err) {
    killAll(processTree(child.pid!));
    throw new Error(`${(err as Error).message}; it wrote:\n${output.slice(-3000)}`);
  }
  const tree = processTree(child.pid!);
  leftovers = tree;
  if (group) process.kill(-child.pid!, signal);
  else process.kill(await way.target(child), signal);
  await waitUntilGone(tree, GONE_WITHIN_MS);
  await closed;
  expect(await isPortFree(port)).toBe(true);
  return output;
}

describe.each(WAYS)('the worker started as $name', (way) => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops on %s to that process alone, leaving no process and its port free',
    async (signal) => {
      const output = await stopWorker(way, signal);
      expect(output).toContain(`"signal":"${signal}"`);
      expect(output).toContain('"msg":"worker stopped"');
      expect(output).not.toContain('second signal');
      expect(output).not.toContain('shutdown took too long');
    },
  );
});

describe('the worker under npm start', () => {
  it('stops after its work in flight on Ctrl-C, which npm delivers a second time', async () => {
    const output = await stopWorker(WAYS[1]!, 'SIGINT', true);
    expect(output).toContain('"msg":"worker stopped"');
    expect(output).not.toContain('second signal');
  });
});

import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { databaseEnv } from '../helpers/cli.ts';
import { syncedInProcess } from '../helpers/commands.ts';
import { type TestDatabase, useTestDatabases } from '../helpers/database.ts';
import { freePort } from '../helpers/ports.ts';
import {
  killAll,
  processOneOf,
  processTree,
  runInside,
  startAsProcessOne,
} from '../helpers/process-tree.ts';
import { TINY_INSTANCE } from '../helpers/simulator-mirror.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The Dockerfile's promises that scripts/replay-dockerfile.ts (which builds the image's stages)
 * does not check: its base pinned, and its HEALTHCHECK, run as Docker runs it, inside the
 * namespaces of a container whose process 1 is the entrypoint.
 */
const ROOT = join(import.meta.dirname, '../..');
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

describe('the Dockerfile', () => {
  it('builds both stages on one Node 24 base, pinned by digest', () => {
    const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(DOCKERFILE)?.[1];
    expect(image).toMatch(/^node:24-bookworm-slim@sha256:[0-9a-f]{64}$/);
    const bases = [...DOCKERFILE.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(bases).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
  });
});

/** HEALTHCHECK's command, in the exec form the Dockerfile gives it. */
function healthcheck(): string[] {
  const joined = DOCKERFILE.replace(/\\\n/g, ' ');
  const cmd = /^HEALTHCHECK .*\bCMD (\[.*\])$/m.exec(joined)?.[1];
  if (cmd === undefined) throw new Error('the Dockerfile has no HEALTHCHECK … CMD [ … ]');
  return JSON.parse(cmd) as string[];
}

describe("the image's health check", () => {
  const databases = useTestDatabases();
  let sim: RunningSimulator;
  let synced: TestDatabase;
  const started: ChildProcess[] = [];

  beforeAll(async () => {
    sim = await startSimulator(TINY_INSTANCE);
    synced = await databases.create();
    await syncedInProcess(synced, sim.url);
  });

  afterEach(() => {
    for (const child of started.splice(0)) killAll(processTree(child.pid!));
  });

  afterAll(async () => {
    await sim.close();
  });

  /** The container's environment: the worker's settings, as `docker run -e` gives them. */
  function containerEnv(database: TestDatabase, port: number): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...databaseEnv(database),
      WEBLATE_URL: sim.url,
      WORKER_SYNC_CRON: 'off',
      WORKER_STATISTICS_CRON: 'off',
      WORKER_RECONCILE_CRON: '0 0 1 1 *',
      WORKER_HTTP_PORT: String(port),
      LOG_LEVEL: 'warn',
    };
  }

  /**
   * Starts the entrypoint with `args` as process 1 and, once `ready` holds, runs the check
   * inside, with the container's environment; the container is stopped after the test.
   */
  async function check(args: string[], env: Record<string, string>, ready: () => Promise<boolean>) {
    const child = startAsProcessOne(['bin/weblate-mirror.js', ...args], { cwd: ROOT, env });
    started.push(child);
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const processOne = await processOneOf(child);
    await waitFor(ready, `the container to be ready; it wrote:\n${output}`, 120_000);
    return runInside(processOne, healthcheck(), { cwd: ROOT, env });
  }

  const status = async (port: number) => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
    } catch {
      return undefined;
    }
  };

  it("passes while the worker's /healthz answers 200", async () => {
    const port = await freePort();
    const ran = await check(['worker'], containerEnv(synced, port), async () => {
      return (await status(port)) === 200;
    });
    expect(ran).toEqual({ code: 0, output: '/healthz: 200\n' });
  });

  it("fails while the worker's /healthz answers 503: no successful sync yet", async () => {
    const port = await freePort();
    const empty = await databases.create();
    const ran = await check(['worker'], containerEnv(empty, port), async () => {
      return (await status(port)) === 503;
    });
    expect(ran).toEqual({ code: 1, output: '/healthz: 503\n' });
  });

  it('passes for a command that serves nothing, whatever WORKER_HTTP_PORT says', async () => {
    // `simulate` stands for the default `sync`: a command that is not the worker, and runs
    // long enough to be checked.
    const port = await freePort();
    const simulatorPort = await freePort();
    const size = ['--projects', '1', '--components', '1', '--languages', '1', '--units', '10'];
    const args = ['simulate', '--port', String(simulatorPort), ...size];
    const ran = await check(args, containerEnv(synced, port), async () => {
      try {
        return (await fetch(`http://127.0.0.1:${simulatorPort}/api/`)).ok;
      } catch {
        return false;
      }
    });
    expect(ran).toEqual({ code: 0, output: '' });
  });
});

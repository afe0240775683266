import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, afterEach, beforeAll, inject } from 'vitest';

import { freePort } from '../../helpers/ports.ts';
import { TierApi } from './api.ts';
import { adminQuery, type WeblateTemplate } from './template.ts';
import {
  type InstanceConfig,
  manage,
  type RunningServer,
  startServer,
  TIER_DIR,
  type TierOp,
  tierOps,
} from './weblate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    weblateTemplate: WeblateTemplate;
  }
}

const ARTIFACTS = join(TIER_DIR, '..', 'artifacts');

export interface InstanceOptions {
  /** DRF throttle of a token, e.g. `300/minute`. */
  userThrottle?: string;
  /** gunicorn worker processes (default 1, see InstanceConfig). */
  workers?: number;
  /** host:port Weblate writes into its links (default: where it listens), e.g. a proxy's. */
  siteDomain?: string;
}

/** A running Weblate of its own, cloned from the seeded template. */
export interface WeblateInstance {
  url: string;
  tokens: Record<string, string>;
  /** The tier's API access as admin. */
  admin: TierApi;
  as(username: string): TierApi;
  ops(ops: TierOp[]): Promise<unknown[]>;
  manage(args: string[]): Promise<{ stdout: string; stderr: string }>;
  config: InstanceConfig;
  logFile: string;
  /** Requests Weblate served since the previous call (from its access log). */
  takeRequests(): ServedRequest[];
  /**
   * Stops gunicorn (gracefully: requests in flight finish), leaves the port closed for
   * `downMs`, then starts it again on the same port and waits until it answers.
   */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** One line of the access log: `GET /api/units/?q=… 200 1234 56ms auth=Token …`. */
export interface ServedRequest {
  method: string;
  /** Path and query as requested. */
  target: string;
  status: number;
  bytes: number;
  ms: number;
  /** The Authorization header the request carried ('-' when none). */
  authorization: string;
}

/** Clones the template (database and files) and serves it on a free loopback port. */
export async function startInstance(
  template: WeblateTemplate,
  options: InstanceOptions = {},
): Promise<WeblateInstance> {
  const id = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const database = `wm_tier_${id}`;
  const work = mkdtempSync(join(tmpdir(), 'weblate-tier-'));
  const dataDir = join(work, 'data');
  cpSync(template.dataDir, dataDir, { recursive: true, preserveTimestamps: true });
  await adminQuery(`create database ${database} template ${template.database}`);
  const port = await freePort();
  const config: InstanceConfig = {
    venv: template.venv,
    database,
    dataDir,
    cachePrefix: `wm-tier-${id}`,
    siteDomain: options.siteDomain ?? `127.0.0.1:${port}`,
    userThrottle: options.userThrottle,
    workers: options.workers,
  };
  let server: RunningServer;
  try {
    server = await startServer(config, port, join(work, 'weblate.log'));
  } catch (err) {
    keepLog(join(work, 'weblate.log'), 'start');
    await adminQuery(`drop database if exists ${database} with (force)`);
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  let logOffset = 0;
  return {
    url: server.url,
    tokens: template.tokens,
    admin: new TierApi(server.url, template.tokens.admin!),
    as: (username) => new TierApi(server.url, template.tokens[username]!),
    ops: (list) => tierOps(config, list),
    manage: (args) => manage(config, args),
    config,
    logFile: server.logFile,
    takeRequests() {
      const text = readFileSync(server.logFile, 'utf8');
      const lines = text.slice(logOffset).split('\n');
      logOffset = text.length;
      return lines.flatMap((line) => {
        const match =
          /^(GET|POST|PATCH|PUT|DELETE|HEAD|OPTIONS) (\S+) (\d{3}) (\d+|-) (\d+)ms auth=(.*)$/.exec(
            line,
          );
        if (match === null) return [];
        const [, method, target, status, bytes, ms, authorization] = match;
        return [
          {
            method: method!,
            target: target!.endsWith('?') ? target!.slice(0, -1) : target!,
            status: Number(status),
            bytes: bytes === '-' ? 0 : Number(bytes),
            ms: Number(ms),
            authorization: authorization!,
          },
        ];
      });
    },
    async restart(downMs) {
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      server = await startServer(config, port, server.logFile);
    },
    async stop() {
      await server.stop();
      await adminQuery(`drop database if exists ${database} with (force)`);
      await dropCacheKeys(config.cachePrefix);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * One Weblate for the test file that calls this: started before its tests, stopped after them;
 * when a test failed, Weblate's log is kept under test/artifacts/.
 */
export function useWeblate(
  name: string,
  options: InstanceOptions = {},
): { current: WeblateInstance } {
  const holder = {} as { current: WeblateInstance };
  let failed = false;
  beforeAll(async () => {
    holder.current = await startInstance(inject('weblateTemplate'), options);
  });
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') failed = true;
  });
  afterAll(async () => {
    if (holder.current === undefined) return;
    if (failed) keepLog(holder.current.logFile, name);
    await holder.current.stop();
  });
  return holder;
}

function keepLog(logFile: string, name: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  try {
    cpSync(logFile, join(ARTIFACTS, `weblate-${name}-${basename(logFile)}`));
  } catch {
    // no log was written
  }
}

/** Removes the instance's keys from the shared Redis (redis-cli, where installed). */
async function dropCacheKeys(prefix: string): Promise<void> {
  const run = promisify(execFile);
  try {
    const { stdout } = await run('redis-cli', [
      '-h',
      '127.0.0.1',
      '--scan',
      '--pattern',
      `${prefix}:*`,
    ]);
    const keys = stdout.split('\n').filter((k) => k !== '');
    for (let i = 0; i < keys.length; i += 500)
      await run('redis-cli', ['-h', '127.0.0.1', 'del', ...keys.slice(i, i + 500)]);
  } catch {
    // Redis keeps nothing on disk; leftover keys go with its next restart.
  }
}

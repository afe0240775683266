import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { freePort } from './ports.ts';

const run = promisify(execFile);

/**
 * A PostgreSQL server of a test's own, on a port of its own, to restart or stop without
 * touching the machine's shared server. It runs Debian's binaries as the `postgres` user
 * when the test runs as root (initdb refuses root).
 */
export interface OwnCluster {
  port: number;
  /** A postgres:// URL of `database` on it (created by `createDatabase`). */
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  /** `pg_ctl restart -m <mode>`: fast ends every session, immediate as a crash does. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops it as a crash does (`-m immediate`), until `start`. */
  crash(): Promise<void>;
  /**
   * The same, blocking this process until the server is down: from a simulator's trigger, the
   * request it precedes is answered only once the database is gone, however busy the machine.
   */
  crashNow(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort() : [];
  const found = versions.reverse().find((v) => existsSync(join(root, v, 'bin', 'pg_ctl')));
  if (found === undefined)
    throw new Error(
      `no PostgreSQL server binaries under ${root}: this test needs Debian's postgresql package`,
    );
  return join(root, found, 'bin');
}

export async function startOwnCluster(): Promise<OwnCluster> {
  const bin = binDir();
  const isRoot = process.getuid?.() === 0;
  const as = async (command: string, args: string[]) => {
    const file = join(bin, command);
    return isRoot
      ? run('runuser', ['-u', 'postgres', '--', file, ...args], { timeout: 60_000 })
      : run(file, args, { timeout: 60_000 });
  };
  const asNow = (command: string, args: string[]) => {
    const file = join(bin, command);
    if (isRoot)
      execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { timeout: 60_000 });
    else execFileSync(file, args, { timeout: 60_000 });
  };
  const dir = mkdtempSync(join(tmpdir(), 'wm-own-cluster-'));
  if (isRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  await as('initdb', [
    '-D',
    data,
    '--auth=trust',
    '--username=postgres',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (action: string, extra: string[] = []) =>
    as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', ...extra, action]);
  await ctl('start');
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await ctl('stop', ['-m', 'immediate']).catch(() => undefined);
  };
  return {
    port,
    url,
    async createDatabase(name) {
      await as('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
    },
    async restart(mode = 'fast') {
      await ctl('restart', ['-m', mode]);
    },
    async crash() {
      await ctl('stop', ['-m', 'immediate']);
    },
    crashNow() {
      asNow('pg_ctl', [
        '-D',
        data,
        '-o',
        options,
        '-l',
        join(dir, 'log'),
        '-w',
        '-m',
        'immediate',
        'stop',
      ]);
    },
    async start() {
      await ctl('start');
    },
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** test/real-weblate: the settings module and tier_ops.py live here. */
export const TIER_DIR = fileURLToPath(new URL('..', import.meta.url));

/** One Weblate instance's settings: its database, files, cache prefix and address. */
export interface InstanceConfig {
  venv: string;
  database: string;
  dataDir: string;
  cachePrefix: string;
  /** host:port that Weblate writes into every absolute URL it answers. */
  siteDomain: string;
  /** DRF throttle of a token, e.g. `300/minute`; Weblate's default is 5000/hour. */
  userThrottle?: string;
  /**
   * gunicorn worker processes (4 threads each); 1 unless said. Weblate 5.14 keeps the
   * default language's statistics per process (docs/weblate-compatibility.md): with one
   * process every answer agrees, which the comparisons need; a test of that behaviour asks
   * for more.
   */
  workers?: number;
}

export function weblateEnv(config: InstanceConfig): NodeJS.ProcessEnv {
  return {
    PATH: `${join(config.venv, 'bin')}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    PYTHONPATH: TIER_DIR,
    PYTHONDONTWRITEBYTECODE: '1',
    DJANGO_SETTINGS_MODULE: 'weblate_mirror_settings',
    WEBLATE_TIER_DATABASE: config.database,
    WEBLATE_TIER_DATA_DIR: config.dataDir,
    WEBLATE_TIER_CACHE_PREFIX: config.cachePrefix,
    WEBLATE_TIER_SITE_DOMAIN: config.siteDomain,
    ...(config.userThrottle ? { WEBLATE_TIER_USER_THROTTLE: config.userThrottle } : {}),
  };
}

/** Runs `weblate <args>` (Weblate's manage.py) and returns its output; throws on failure. */
export async function manage(
  config: InstanceConfig,
  args: string[],
  input?: string,
): Promise<{ stdout: string; stderr: string }> {
  const child = execFileWithInput(
    join(config.venv, 'bin', 'weblate'),
    args,
    weblateEnv(config),
    input,
  );
  return child;
}

async function execFileWithInput(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input: string | undefined,
): Promise<{ stdout: string; stderr: string }> {
  if (input === undefined) {
    return run(file, args, { env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
  }
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`weblate ${args.join(' ')} exited ${code}: ${stderr.slice(-3000)}`));
    });
    child.stdin.end(input);
  });
}

/** One operation of tier_ops.py, run inside Weblate (see that file). */
export type TierOp =
  | { op: 'tokens'; args: { usernames: string[] } }
  | { op: 'backdate'; args: { change_ids: number[]; timestamp: string } }
  | { op: 'age'; args: { seconds: number } }
  | { op: 'silent_reset'; args: { unit_ids: number[]; state: number } }
  | { op: 'bulk_edit'; args: { username: string; project: string; query: string; state: number } }
  | { op: 'synthesize_changes'; args: { project: string; component: string; count: number } }
  | { op: 'max_change_id'; args: Record<string, never> }
  | { op: 'backdate_after'; args: { after_id: number; timestamp: string } }
  | { op: 'accept_suggestions'; args: { username: string; translation: string } }
  | { op: 'action_codes'; args: Record<string, never> }
  | { op: 'change_distances'; args: { change_ids: string[] } }
  | { op: 'label_units'; args: { unit_ids: number[]; label: string } }
  | {
      op: 'translator_work';
      args: {
        project: string;
        start: string;
        end: string;
        language: string;
        username?: string;
        min_changes?: number;
        max_changes?: number;
        max_words?: number;
      };
    }
  | {
      op: 'subscribe';
      args: {
        username: string;
        notification: string;
        scope: 30 | 40;
        frequency: number;
        project: string;
        component?: string;
      };
    };

/** Runs operations in one `weblate shell` (one Django start-up for all of them). */
export async function tierOps(config: InstanceConfig, ops: TierOp[]): Promise<unknown[]> {
  const { stdout } = await manage(
    config,
    ['shell', '-c', 'import tier_ops; tier_ops.main()'],
    JSON.stringify(ops),
  );
  const marker = stdout.lastIndexOf('@@tier_ops@@');
  if (marker < 0) throw new Error(`tier_ops answered nothing: ${stdout.slice(-2000)}`);
  return JSON.parse(stdout.slice(marker + '@@tier_ops@@'.length)) as unknown[];
}

export interface RunningServer {
  url: string;
  port: number;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts Weblate under gunicorn on 127.0.0.1:`port` and waits until its API answers. Its
 * output goes to `logFile`.
 */
export async function startServer(
  config: InstanceConfig,
  port: number,
  logFile: string,
): Promise<RunningServer> {
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  const gunicorn = [
    join(config.venv, 'bin', 'gunicorn'),
    'weblate.wsgi:application',
    ...['--bind', `127.0.0.1:${port}`],
    ...['--workers', String(config.workers ?? 1), '--threads', '4'],
    // Large unit pages of 5.14 take long (one query per unit); the tier measures them.
    ...['--timeout', '600'],
    // Idle connections stay open as long as nginx keeps them (gunicorn's own 2 s races a
    // client that reuses a connection).
    ...['--keep-alive', '75'],
    // What the server saw of each request, the credentials included: the tests read it.
    ...['--access-logfile', '-'],
    ...['--access-logformat', '%(m)s %(U)s?%(q)s %(s)s %(b)s %(M)sms auth=%({authorization}i)s'],
  ];
  // gunicorn under a shell that stops it when this process's end of stdin closes: when the
  // test process dies without stopping it (a timeout kills the worker), Weblate goes too.
  const child = spawn(
    'bash',
    [
      '-c',
      'exec 3<&0; "$@" <&- & server=$!; cat <&3 >/dev/null; kill -TERM "$server"; wait "$server"',
      'bash',
      ...gunicorn,
    ],
    // A group of its own, so that the last resort below reaches gunicorn's workers too.
    { env: weblateEnv(config), stdio: ['pipe', 'pipe', 'pipe'], detached: true },
  );
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitUntilAnswering(url, child, 90_000);
    await waitUntilLogged(logFile, 30_000);
  } catch (err) {
    await stopChild(child);
    log.end();
    throw new Error(`Weblate did not start on ${url} (log: ${logFile})`, { cause: err });
  }
  return {
    url,
    port,
    logFile,
    async stop() {
      await stopChild(child);
      await new Promise<void>((resolve) => log.end(resolve));
    },
  };
}

async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error('gunicorn exited');
    try {
      const response = await fetch(new URL('api/', url), { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no answer within ${timeoutMs} ms`);
}

/**
 * Waits until the access log holds the answer to the readiness request: the log arrives
 * through a pipe, and a request logged late would count as one of the first test's own.
 */
async function waitUntilLogged(logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (/^GET \/api\/\?\S* [1-4]\d\d /m.test(readFileSync(logFile, 'utf8'))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the readiness request reached no access log line within ${timeoutMs} ms`);
}

/**
 * Closes the stdin of a shell started detached, which stops its server gracefully (gunicorn
 * here, nginx in nginx.ts); kills the process group after `killAfterMs`.
 */
export async function stopChild(child: ChildProcess, killAfterMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(timer);
}

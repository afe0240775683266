import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { TEST_NODE_FLAGS } from '../setup/node-flags.ts';

export const BIN = fileURLToPath(new URL('../../bin/weblate-mirror.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Whether the signal of `runCliAndSignal` was sent. */
  signalled: boolean;
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
}

interface Interrupt {
  when: RegExp;
  signal: NodeJS.Signals;
}

/**
 * Runs the CLI as a child process (with the suite's Node flags, test/setup/node-flags.ts)
 * with exactly `env` (plus PATH and HOME), in a folder without a .env file, killed after
 * `timeoutMs`. With `interrupt`, sends its signal once a stderr line matches.
 */
function spawnCli(
  bin: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
  {
    interrupt,
    nodeFlags = TEST_NODE_FLAGS,
  }: { interrupt?: Interrupt; nodeFlags?: readonly string[] } = {},
): RunningCli {
  const child = spawn(process.execPath, [...nodeFlags, bin, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    cwd: fileURLToPath(new URL('../fixtures/', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result: CliResult = { code: null, stdout: '', stderr: '', signalled: false, signal: null };
  child.stdout.on('data', (chunk: Buffer) => (result.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => {
    result.stderr += chunk.toString('utf8');
    if (interrupt && !result.signalled && interrupt.when.test(result.stderr)) {
      result.signalled = true;
      child.kill(interrupt.signal);
    }
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ ...result, code, signal });
    });
  });
  const waitFor = async (pattern: RegExp, waitMs: number, stream: 'stdout' | 'stderr') => {
    const deadline = Date.now() + waitMs;
    let exited = false;
    void done.then(() => (exited = true));
    for (;;) {
      const match = pattern.exec(result[stream]);
      if (match) return match;
      if (exited || Date.now() >= deadline) {
        throw new Error(
          `${exited ? 'exited' : `no match within ${waitMs} ms`} before ${stream} matched ${String(pattern)}; stderr:\n${result.stderr.slice(-3000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    child,
    done,
    output: result,
    waitForStderr: (pattern, waitMs = 30_000) => waitFor(pattern, waitMs, 'stderr'),
  };
}

export interface RunningCli {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** What it wrote so far (live). */
  output: Readonly<CliResult>;
  /** Resolves with the first match of `pattern` in stderr; rejects after `waitMs` or on exit. */
  waitForStderr(pattern: RegExp, waitMs?: number): Promise<RegExpExecArray>;
}

/** Starts the CLI and returns the child (to kill it) and its eventual result. */
export function startCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): RunningCli {
  return spawnCli(BIN, args, env, timeoutMs);
}

/** Runs the CLI to completion. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<CliResult> {
  return spawnCli(BIN, args, env, timeoutMs).done;
}

/** Runs another weblate-mirror's bin (an older release's, say) to completion, as runCli. */
export function runBin(
  bin: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<CliResult> {
  return spawnCli(bin, args, env, timeoutMs).done;
}

/** Runs the CLI and sends `signal` once a stderr line matches `when`. */
export function runCliAndSignal(
  args: string[],
  env: Record<string, string>,
  when: RegExp,
  signal: NodeJS.Signals,
  timeoutMs = 120_000,
): Promise<CliResult> {
  return spawnCli(BIN, args, env, timeoutMs, { interrupt: { when, signal } }).done;
}

/**
 * Runs the CLI to completion with Node's default flags, as a user's shell does, for a test of
 * what the process itself measures (its memory: the suite's flags change what V8 compiles).
 */
export function runCliAsShipped(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<CliResult> {
  return spawnCli(BIN, args, env, timeoutMs, { nodeFlags: [] }).done;
}

/** Environment that points the CLI at a test database. */
export function databaseEnv(database: {
  databaseUrl: string | null;
  dataDir: string;
}): Record<string, string> {
  return database.databaseUrl === null
    ? { WEBLATE_MIRROR_DATA_DIR: database.dataDir, DATABASE_URL: '' }
    : { DATABASE_URL: database.databaseUrl, WEBLATE_MIRROR_DATA_DIR: database.dataDir };
}

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/weblate-mirror.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a child process with exactly `env` (plus PATH), bounded by `timeoutMs`. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      cwd: fileURLToPath(new URL('../fixtures/', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
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

/**
 * Starts the CLI and sends `signal` once a stderr line matches `when`; resolves with the
 * result. Bounded by `timeoutMs` like runCli.
 */
export function runCliAndSignal(
  args: string[],
  env: Record<string, string>,
  when: RegExp,
  signal: NodeJS.Signals,
  timeoutMs = 120_000,
): Promise<CliResult & { signalled: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      cwd: fileURLToPath(new URL('../fixtures/', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (!signalled && when.test(stderr)) {
        signalled = true;
        child.kill(signal);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, signalled });
    });
  });
}

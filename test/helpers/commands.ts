import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

import { expect, vi } from 'vitest';

import type { Command, OptionValues } from '../../src/cli/args.ts';
import { main } from '../../src/cli/main.ts';
import { CONFIG_VARIABLE_NAMES } from '../../src/config-table.ts';
import { type CliResult, databaseEnv } from './cli.ts';
import type { TestDatabase } from './database.ts';

export interface CommandResult {
  /** The exit code it returned; null when it threw. */
  code: number | null;
  /** What it threw (main would report it), or null. */
  error: Error | null;
  stdout: string;
  /** The lines it wrote for people (errors, warnings), not the logger's. */
  stderr: string;
}

/** What a write to stdout or stderr (or to fd 1 or 2) carried, as text. */
const asText = (chunk: string | NodeJS.ArrayBufferView) =>
  typeof chunk === 'string'
    ? chunk
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');

/**
 * Runs a command in this process, as main would after parsing `flags`, and keeps what it
 * printed on stdout and stderr. Cheaper than a child process where the behaviour does not
 * need one.
 */
export async function runCommand(
  command: Command,
  flags: OptionValues,
  positionals: string[] = [],
): Promise<CommandResult> {
  const out = { stdout: '', stderr: '' };
  const spies = (['stdout', 'stderr'] as const).map((name) =>
    vi.spyOn(process[name], 'write').mockImplementation((chunk: string | Uint8Array) => {
      out[name] += asText(chunk);
      return true;
    }),
  );
  try {
    const code = await command.run({ 'log-level': 'silent', ...flags }, positionals);
    return { code, error: null, ...out };
  } catch (err) {
    return { code: null, error: err as Error, ...out };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** Flags that point a command at a test database (and never at a DATABASE_URL of the environment). */
export function databaseFlags(database: {
  databaseUrl: string | null;
  dataDir: string;
}): OptionValues {
  return database.databaseUrl === null
    ? { 'database-url': '', 'data-dir': database.dataDir }
    : { 'database-url': database.databaseUrl };
}

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * Runs the CLI in this process as runCli runs it in a child: `argv` through main, with exactly
 * `env`'s settings, in a folder without a .env file (or in `cwd`), keeping what it writes to
 * stdout and stderr (the logger's lines too, which it writes to fd 2 directly). For commands whose
 * process is not under test, one at a time: it saves a process start, about 0.8 s of CPU on
 * the embedded database.
 */
export async function runCliInProcess(
  argv: string[],
  env: Record<string, string>,
  { cwd: folder = FIXTURES }: { cwd?: string } = {},
): Promise<CliResult> {
  const result: CliResult = { code: null, stdout: '', stderr: '', signalled: false, signal: null };
  const keep = (fd: number, chunk: string | NodeJS.ArrayBufferView) => {
    if (fd === 1) result.stdout += asText(chunk);
    else result.stderr += asText(chunk);
  };
  const names = new Set<string>([...CONFIG_VARIABLE_NAMES, ...Object.keys(env)]);
  const saved = [...names].map((name) => [name, process.env[name]] as const);
  const cwd = process.cwd();
  const writeSync = fs.writeSync;
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      keep(1, chunk);
      return true;
    }),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      keep(2, chunk);
      return true;
    }),
    vi
      .spyOn(fs, 'writeSync')
      .mockImplementation(
        (fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
          if (fd !== 1 && fd !== 2)
            return (writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
          keep(fd, data);
          return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
        },
      ),
  ];
  try {
    for (const name of CONFIG_VARIABLE_NAMES) delete process.env[name];
    Object.assign(process.env, env);
    process.chdir(folder);
    result.code = await main(argv);
  } finally {
    process.chdir(cwd);
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    for (const spy of spies) spy.mockRestore();
  }
  return result;
}

/**
 * Syncs the Weblate at `weblateUrl` into `database` once, in this process, and expects it to
 * succeed: a mirror with a recorded successful sync, for tests of what comes after one.
 */
export async function syncedInProcess(
  database: TestDatabase,
  weblateUrl: string,
  env: Record<string, string> = {},
): Promise<void> {
  const sync = await runCliInProcess(['sync'], {
    ...databaseEnv(database),
    WEBLATE_URL: weblateUrl,
    LOG_LEVEL: 'warn',
    ...env,
  });
  expect(sync.code, sync.stderr).toBe(0);
}

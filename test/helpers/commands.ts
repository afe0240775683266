import { vi } from 'vitest';

import type { Command, OptionValues } from '../../src/cli/args.ts';

export interface CommandResult {
  /** The exit code it returned; null when it threw. */
  code: number | null;
  /** What it threw (main would report it), or null. */
  error: Error | null;
  stdout: string;
}

/**
 * Runs a command in this process, as main would after parsing `flags`, and keeps what it
 * printed on stdout. Cheaper than a child process where the behaviour does not need one.
 */
export async function runCommand(
  command: Command,
  flags: OptionValues,
  positionals: string[] = [],
): Promise<CommandResult> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    const code = await command.run({ 'log-level': 'silent', ...flags }, positionals);
    return { code, error: null, stdout };
  } catch (err) {
    return { code: null, error: err as Error, stdout };
  } finally {
    spy.mockRestore();
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

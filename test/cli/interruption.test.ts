import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { REPEAT_MS } from '../../src/cli/interruption.ts';

const CHILD = fileURLToPath(new URL('../helpers/interruption-child.ts', import.meta.url));
const FIRST_SIGNAL_HANDLED = '"msg":"stopping after the work in flight';
const SECOND_SIGNAL = '"msg":"second signal: exiting at once"';
/** Bounds every child: none of these tests waits for anything near as long. */
const KILL_AFTER_MS = 100_000;

interface Child {
  process: ChildProcess;
  /** The pid of the child itself (not of a shell it was started through). */
  pid: number;
  stderr: () => string;
  /** Its exit code, once every process holding its output has ended. */
  closed: Promise<number | null>;
}

/**
 * Starts test/helpers/interruption-child.ts with a deadline of `deadlineMs` and `modes`, and
 * resolves once its signal handlers are installed. Not started by a package manager unless
 * `env` says so; `throughShell` starts it as npm does, under `sh -c`, where the shell stays
 * its parent.
 */
async function startChild(
  deadlineMs: number,
  modes: string[],
  { env = {}, throughShell = false }: { env?: Record<string, string>; throughShell?: boolean } = {},
): Promise<Child> {
  const command = [process.execPath, '--import', 'tsx', CHILD, String(deadlineMs), ...modes];
  // A command after it keeps any shell from replacing itself with the child.
  const [file, ...args] = throughShell ? ['sh', '-c', '"$@"; exit $?', 'sh', ...command] : command;
  const child = spawn(file!, args, {
    env: { ...process.env, npm_lifecycle_event: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const [ready] = (await once(child.stdout, 'data')) as [Buffer];
  const pid = Number(/^ready (\d+)\n$/.exec(ready.toString())?.[1]);
  expect(pid).toBeGreaterThan(0);
  const killer = setTimeout(() => process.kill(pid, 'SIGKILL'), KILL_AFTER_MS);
  void closed.finally(() => clearTimeout(killer));
  return { process: child, pid, stderr: () => stderr, closed };
}

/** Resolves once the child's stderr holds `text`. */
async function stderrHolds(child: Child, text: string): Promise<void> {
  while (!child.stderr().includes(text)) await once(child.process.stderr!, 'data');
}

/**
 * Resolves once `signal` sent to `pid` is no longer pending: the process's handler has taken it
 * (a second one sent before that would merge with it, as the kernel keeps one of each).
 */
async function delivered(pid: number, signal: NodeJS.Signals): Promise<void> {
  const bit = 1n << BigInt(constants.signals[signal] - 1);
  for (let tries = 0; tries < 1000; tries++) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const pending = /^ShdPnd:\s*([0-9a-f]+)$/m.exec(status)?.[1] ?? '0';
    if ((BigInt(`0x${pending}`) & bit) === 0n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${signal} still pending for ${pid}`);
}

describe('an interrupted service process', () => {
  it('exits 1 with a message when shutting down takes longer than its deadline', async () => {
    // Its task never ends: the deadline decides, however busy the machine.
    const child = await startChild(2000, []);
    process.kill(child.pid, 'SIGTERM');
    expect(await child.closed).toBe(1);
    expect(child.stderr()).toContain(FIRST_SIGNAL_HANDLED);
    expect(child.stderr()).toContain('"msg":"shutdown took too long: exiting without finishing"');
  });

  it('exits at once with code 130 when the signal comes again', async () => {
    // A deadline far beyond the test's time: only the second signal can end the process.
    const child = await startChild(600_000, []);
    process.kill(child.pid, 'SIGTERM');
    await stderrHolds(child, FIRST_SIGNAL_HANDLED);
    // Later than a repeat of the same delivery could come (the child handled the first before it
    // wrote the line that was waited for).
    await new Promise((resolve) => setTimeout(resolve, REPEAT_MS));
    process.kill(child.pid, 'SIGTERM');
    expect(await child.closed).toBe(130);
    expect(child.stderr()).toContain(SECOND_SIGNAL);
    expect(child.stderr()).not.toContain('shutdown took too long');
  });

  it('exits at once with code 130 on another signal, however soon', async () => {
    const child = await startChild(600_000, []);
    process.kill(child.pid, 'SIGTERM');
    await stderrHolds(child, FIRST_SIGNAL_HANDLED);
    process.kill(child.pid, 'SIGINT');
    expect(await child.closed).toBe(130);
    expect(child.stderr()).toContain(SECOND_SIGNAL);
  });

  it('takes the same signal twice at once as one request, as Ctrl-C under npm delivers it', async () => {
    // The terminal signals the process group, and npm forwards what it got: two SIGINTs at once.
    const child = await startChild(600_000, ['holds', 'stops']);
    process.kill(child.pid, 'SIGINT');
    await delivered(child.pid, 'SIGINT');
    process.kill(child.pid, 'SIGINT');
    await delivered(child.pid, 'SIGINT');
    child.process.stdin!.end('\n');
    expect(await child.closed).toBe(0);
    expect(child.stderr().split(FIRST_SIGNAL_HANDLED)).toHaveLength(2);
    expect(child.stderr()).not.toContain(SECOND_SIGNAL);
  });

  it('stops as on SIGTERM when npm started it and the shell between them is gone', async () => {
    // Debian's sh dies of the SIGTERM npm forwards to it, and passes nothing on.
    const child = await startChild(600_000, ['stops'], {
      env: { npm_lifecycle_event: 'start' },
      throughShell: true,
    });
    expect(child.process.pid).not.toBe(child.pid);
    child.process.kill('SIGTERM');
    // Closed once the child, which holds the shell's output pipes, has ended too.
    expect(await child.closed).toBe(null);
    expect(child.stderr()).toContain(
      '"msg":"the process that started this one is gone: stopping after the work in flight"',
    );
  });
});

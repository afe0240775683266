import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

import { waitFor } from './wait.ts';

/** A process as /proc knows it: its start time tells it from a later one given the same pid. */
export interface ProcessId {
  pid: number;
  startTime: string;
  command: string;
}

interface Stat {
  ppid: number;
  state: string;
  startTime: string;
}

/** Fields of /proc/<pid>/stat, or null when there is no such process. */
function readStat(pid: number): Stat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name, in brackets, may hold spaces; the fields after it do not.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, ppid: Number(fields[1]), startTime: fields[19]! };
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '?';
  }
}

/** `root` and every process below it, as they are now. */
export function processTree(root: number): ProcessId[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat !== null) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(name)]);
  }
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i]!) ?? []));
  return pids.flatMap((pid) => {
    const stat = readStat(pid);
    return stat === null ? [] : [{ pid, startTime: stat.startTime, command: commandOf(pid) }];
  });
}

/** Whether the process still runs: a zombie has ended and holds nothing but its pid. */
export function isRunning(process: ProcessId): boolean {
  const stat = readStat(process.pid);
  return stat !== null && stat.startTime === process.startTime && stat.state !== 'Z';
}

/** Resolves once none of `processes` runs; rejects after `ms`, naming those that do. */
export async function waitUntilGone(processes: ProcessId[], ms: number): Promise<void> {
  try {
    await waitFor(() => !processes.some(isRunning), 'the processes to end', ms);
  } catch {
    const left = processes.filter(isRunning).map((p) => `${p.pid} ${p.command}`);
    throw new Error(`still running ${ms / 1000} s after the signal: ${left.join('; ')}`);
  }
}

/** Kills whichever of `processes` still runs (a test's cleanup). */
export function killAll(processes: ProcessId[]): void {
  for (const p of processes.filter(isRunning)) process.kill(p.pid, 'SIGKILL');
}

/** Whether a server could listen on 127.0.0.1:`port` now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Starts `command` as process 1 of a PID namespace of its own (and a mount namespace with its
 * own /proc), as a container engine starts an image's entrypoint; `unshare` stays its parent
 * outside. Needs root, or user namespaces for others.
 */
export function startAsProcessOne(
  command: string[],
  options: { cwd: string; env: Record<string, string> },
): ChildProcess {
  const asUser = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  return spawn(
    'unshare',
    [...asUser, '--pid', '--fork', '--kill-child', '--mount-proc', '--', ...command],
    { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** The pid, as seen from outside, of process 1 of a namespace startAsProcessOne made. */
export function processOneOf(unshare: ChildProcess): Promise<number> {
  return waitFor(() => {
    const [child] = processTree(unshare.pid!).slice(1);
    return child?.pid;
  }, 'unshare to start process 1');
}

/** Runs `command` inside the namespaces of `pid` (as `docker exec` does), with its exit code. */
export async function runInside(
  pid: number,
  command: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number; output: string }> {
  const asUser = process.getuid?.() === 0 ? [] : ['--user', '--preserve-credentials'];
  const namespaces = ['--target', String(pid), ...asUser, '--pid', '--mount'];
  const args = [...namespaces, `--wd=${options.cwd}`, '--', ...command];
  try {
    const { stdout, stderr } = await promisify(execFile)('nsenter', args, {
      env: options.env,
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

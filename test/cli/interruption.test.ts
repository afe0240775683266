import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('../helpers/interruption-child.ts', import.meta.url));
const FIRST_SIGNAL_HANDLED = '"msg":"stopping after the work in flight';

/**
 * Starts the child with a shutdown deadline of `deadlineMs` and sends SIGTERM once it is
 * ready; with `twice`, again once it has handled the first (never on a timer of our own,
 * which a busy machine could let the deadline beat).
 */
async function interrupt(
  deadlineMs: number,
  twice: boolean,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, String(deadlineMs)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 100_000);
  let stderr = '';
  let sentSecond = false;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (twice && !sentSecond && stderr.includes(FIRST_SIGNAL_HANDLED)) {
      sentSecond = true;
      child.kill('SIGTERM');
    }
  });
  const [ready] = (await once(child.stdout, 'data')) as [Buffer];
  expect(ready.toString()).toBe('ready\n');
  child.kill('SIGTERM');
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(killer);
  return { code, stderr };
}

describe('an interrupted service process', () => {
  it('exits 1 with a message when shutting down takes longer than its deadline', async () => {
    // Its task never ends: the deadline decides, however busy the machine.
    const { code, stderr } = await interrupt(2000, false);
    expect(code).toBe(1);
    expect(stderr).toContain(FIRST_SIGNAL_HANDLED);
    expect(stderr).toContain('"msg":"shutdown took too long: exiting without finishing"');
  });

  it('exits at once with code 130 on a second signal', async () => {
    // A deadline far beyond the test's time: only the second signal can end the process.
    const { code, stderr } = await interrupt(600_000, true);
    expect(code).toBe(130);
    expect(stderr).toContain('"msg":"second signal: exiting at once"');
    expect(stderr).not.toContain('shutdown took too long');
  });
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('../helpers/interruption-child.ts', import.meta.url));

/** Starts the child, sends SIGTERM once it is ready (and again after 200 ms if `twice`). */
async function interrupt(twice: boolean): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, '2000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [ready] = (await once(child.stdout, 'data')) as [Buffer];
  expect(ready.toString()).toBe('ready\n');
  child.kill('SIGTERM');
  if (twice) setTimeout(() => child.kill('SIGTERM'), 200);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(killer);
  return { code, stderr };
}

describe('an interrupted service process', () => {
  it('exits 1 with a message when shutting down takes longer than its deadline', async () => {
    const { code, stderr } = await interrupt(false);
    expect(code).toBe(1);
    expect(stderr).toContain('"msg":"shutdown took too long: exiting without finishing"');
  });

  it('exits at once with code 130 on a second signal', async () => {
    const { code, stderr } = await interrupt(true);
    expect(code).toBe(130);
    expect(stderr).toContain('"msg":"second signal: exiting at once"');
    expect(stderr).not.toContain('shutdown took too long');
  });
});

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { peakRssMb } from '../../src/lib/peak-rss.ts';

const MODULE = fileURLToPath(new URL('../../src/lib/peak-rss.ts', import.meta.url));

describe('the peak RSS a run reports', () => {
  it("is its own process's, not that of the process that started it", () => {
    // 600 MB resident in this process when it starts the child.
    const held = Buffer.alloc(600 * 1024 * 1024, 1);
    const script = `import(${JSON.stringify(MODULE)}).then((m) => process.stdout.write(String(m.peakRssMb())))`;
    const child = Number(
      execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' }),
    );
    expect(held.length).toBeGreaterThan(0);
    expect(peakRssMb()).toBeGreaterThanOrEqual(600);
    // A Node.js process with tsx takes well under 300 MB; 600 MB would be the parent's.
    expect(child).toBeGreaterThan(10);
    expect(child).toBeLessThan(300);
  });
});

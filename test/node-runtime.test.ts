import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

/**
 * The suite runs on a Node that package.json's `engines` names, and on the one CI asks for:
 * `.ci/run` sets EXPECT_NODE_MAJOR for its pass on Node 24, whose binary it puts first on PATH.
 */
const { engines } = JSON.parse(
  readFileSync(join(import.meta.dirname, '../package.json'), 'utf8'),
) as { engines: { node: string } };

/** Whether `version` satisfies `range`: caret ranges (`^20.12`) joined by `||`, as engines has. */
function satisfies(version: string, range: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return range.split('||').some((part) => {
    const match = /^\s*\^(\d+)(?:\.(\d+))?\s*$/.exec(part);
    if (match === null) throw new Error(`engines.node: ${part.trim()} is no caret range`);
    return major === Number(match[1]) && minor! >= Number(match[2] ?? 0);
  });
}

describe('the Node the suite runs on', () => {
  it('reads caret ranges as npm does', () => {
    expect(satisfies('20.12.0', '^20.12 || ^24')).toBe(true);
    expect(satisfies('20.11.1', '^20.12 || ^24')).toBe(false);
    expect(satisfies('22.5.0', '^20.12 || ^24')).toBe(false);
    expect(satisfies('24.0.0', '^20.12 || ^24')).toBe(true);
  });

  it('is one that package.json supports', () => {
    expect(satisfies(process.versions.node, engines.node)).toBe(true);
  });

  it('is the release CI asked for, here and as `node` on PATH (the bin, npm start)', () => {
    const expected = process.env.EXPECT_NODE_MAJOR;
    const onPath = execFileSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
    process.stdout.write(`vitest worker: Node ${process.version}; node on PATH: ${onPath}`);
    if (expected === undefined || expected === '') {
      expect(onPath.split('.')[0]).toBe(process.versions.node.split('.')[0]);
    } else {
      expect(process.versions.node.split('.')[0]).toBe(expected);
      expect(onPath.split('.')[0]).toBe(expected);
    }
  });
});

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT, sourceFiles } from './source-files.ts';

/** Longest run of comment lines a source file may hold (CONTRIBUTING.md: reasoning goes to docs/). */
const MAX_COMMENT_LINES = 9;

/** Runs of consecutive comment lines longer than `max`, as `file:line (n lines)`. */
function longCommentBlocks(files: string[], max: number): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    let run = 0;
    for (const [i, line] of [...lines, ''].entries()) {
      if (/^\s*(\/\/|\/\*|\*)/.test(line)) {
        run += 1;
        continue;
      }
      if (run > max) found.push(`${relative(ROOT, file)}:${i - run + 1} (${run} lines)`);
      run = 0;
    }
  }
  return found;
}

describe('comments in src/', () => {
  it(`say why in at most ${MAX_COMMENT_LINES} lines; longer reasoning goes to docs/`, () => {
    expect(longCommentBlocks(sourceFiles(join(ROOT, 'src')), MAX_COMMENT_LINES)).toEqual([]);
  });

  it('are measured by the check: a block of ten lines is found', () => {
    const fixture = join(ROOT, 'test/fixtures/long-comment/block.ts');
    expect(longCommentBlocks([fixture], MAX_COMMENT_LINES)).toEqual([
      'test/fixtures/long-comment/block.ts:1 (10 lines)',
    ]);
  });
});

import { describe, expect, it } from 'vitest';

import { parseCommandArgs } from '../../src/cli/args.ts';
import { queryCommand } from '../../src/cli/commands/query.ts';
import { reportCommand } from '../../src/cli/commands/report.ts';
import { syncCommand } from '../../src/cli/commands/sync.ts';
import { globalHelp } from '../../src/cli/main.ts';
import { UsageError } from '../../src/errors.ts';
import { closestMatch } from '../../src/lib/closest.ts';
import { runCliInProcess } from '../helpers/commands.ts';

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('no usage error');
}

describe('help', () => {
  it('describes every command in one whole sentence', async () => {
    const help = await globalHelp();
    const lines = help.split('\n');
    const listed = lines.slice(
      lines.indexOf('Commands:') + 1,
      lines.indexOf('', lines.indexOf('Commands:')),
    );
    expect(listed).toHaveLength(16);
    for (const line of listed) {
      const match = /^ {2}([a-z-]+) +(\S.*)$/.exec(line);
      expect(match, line).not.toBeNull();
      // A sentence: a capital first, a full stop last, and short enough for one line.
      expect(match![2], line).toMatch(/^[A-Z][^\n]*\.$/);
      expect(line.length, line).toBeLessThanOrEqual(100);
    }
    expect(listed).toContain(
      '  query          Run one read-only SQL statement against the mirror and print the rows.',
    );
  });
});

describe('a mistyped option or command', () => {
  it('gets the nearest known option, and the usage after it', () => {
    const message = usageMessage(() => parseCommandArgs(syncCommand, ['--ful']));
    expect(message).toMatch(
      /^unknown option --ful; did you mean --full\?\n\nUsage: weblate-mirror sync /,
    );
    expect(
      usageMessage(() => parseCommandArgs(queryCommand, ['--datadir', 'x', 'select 1'])),
    ).toMatch(/^unknown option --datadir; did you mean --data-dir\?\n/);
    expect(usageMessage(() => parseCommandArgs(reportCommand, ['--formt=csv']))).toMatch(
      /^unknown option --formt; did you mean --format\?\n/,
    );
  });

  it('gets no suggestion when nothing is near, and the value of an option is not echoed', () => {
    expect(usageMessage(() => parseCommandArgs(syncCommand, ['--nope']))).toMatch(
      /^unknown option --nope\n\nUsage: weblate-mirror sync /,
    );
    const message = usageMessage(() =>
      parseCommandArgs(syncCommand, ['--databse-url=postgres://u:s3cret@db/x']),
    );
    expect(message).toMatch(/^unknown option --databse-url; did you mean --database-url\?\n/);
    expect(message).not.toContain('s3cret');
  });

  it('still parses what it knows, short options included', () => {
    const { values, positionals } = parseCommandArgs(queryCommand, ['-h', '--json', 'select 1']);
    expect([values.help, values.json, positionals]).toEqual([true, true, ['select 1']]);
  });

  it('suggests the nearest command, before the list of commands', async () => {
    const result = await runCliInProcess(['synk'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^weblate-mirror: unknown command "synk"; did you mean "sync"\?\n\nUsage: weblate-mirror <command>/,
    );
    expect((await runCliInProcess(['frobnicate'], {})).stderr).toMatch(
      /^weblate-mirror: unknown command "frobnicate"\n\nUsage:/,
    );
  });

  it('is matched within two edits, one for short words, or as the start of one candidate', () => {
    expect(closestMatch('reprot', ['report', 'run'])).toBe('report');
    expect(closestMatch('rn', ['run', 'sync'])).toBe('run');
    expect(closestMatch('xyz', ['run', 'sync'])).toBeNull();
    expect(closestMatch('data', ['data-dir', 'database-url'])).toBeNull();
    expect(closestMatch('database', ['data-dir', 'database-url'])).toBe('database-url');
  });
});

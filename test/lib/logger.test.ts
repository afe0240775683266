import { describe, expect, it } from 'vitest';

import { captureLogger } from '../helpers/logs.ts';

/** An error as a database driver makes it: a statement and its parameters attached. */
function driverError(): Error {
  const cause = new Error('could not extend file "base/5/16528": No space left on device');
  return Object.assign(new Error('the database at /data: its disk is full', { cause }), {
    code: '53100',
    query: 'insert into weblate.units values ($1, $2)',
    params: ['x'.repeat(100_000), 42],
  });
}

describe('log lines of errors', () => {
  it('carry the message, code and causes, never the stack or parameters at the default level', () => {
    const { log, lines } = captureLogger('info');
    log.error({ err: driverError() }, 'sync failed');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    expect(line.err).toEqual({
      type: 'Error',
      message: 'the database at /data: its disk is full',
      code: '53100',
      causes: ['could not extend file "base/5/16528": No space left on device'],
    });
    expect(lines[0]!.length).toBeLessThan(1_000);
  });

  it('keep the stack when debugging', () => {
    const { log, lines } = captureLogger('debug');
    log.error({ err: driverError() }, 'sync failed');
    const line = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    expect(String(line.err.stack)).toMatch(/^Error: the database at \/data/);
    expect(line.err).not.toHaveProperty('params');
  });
});

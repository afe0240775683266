import { Writable } from 'node:stream';

import { createLogger, type Logger } from '../../src/logger.ts';

/** A JSON logger whose lines are kept in memory, to assert on what was logged. */
export function captureLogger(level: 'trace' | 'debug' | 'info' | 'warn' = 'trace'): {
  log: Logger;
  lines: string[];
} {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== ''),
      );
      callback();
    },
  });
  return { log: createLogger({ level, pretty: false, destination }), lines };
}

/** The JSON log lines of a process's stderr, parsed (other lines are skipped). */
export function parseLogLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

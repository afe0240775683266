import { pino } from 'pino';
import pretty from 'pino-pretty';

import type { LogLevel } from './config.ts';
import { redactUrlsInText } from './lib/redact.ts';

export type Logger = pino.Logger;

export interface LoggerOptions {
  level: LogLevel;
  /** Pretty, coloured lines instead of JSON; defaults to whether stderr is a terminal. */
  pretty?: boolean;
  /** Where log lines go; defaults to stderr (stdout is for summaries and progress). */
  destination?: NodeJS.WritableStream;
}

/**
 * The root logger; nothing else creates loggers (children add context). Authorization
 * headers, tokens, secrets and database URLs are redacted wherever they appear in logged
 * objects, and the password of any URL in a line is masked as the line is written.
 */
export function createLogger(options: LoggerOptions): Logger {
  const base: pino.LoggerOptions = {
    level: options.level,
    base: { name: 'weblate-mirror' },
    redact: {
      paths: [
        'authorization',
        'token',
        '*.authorization',
        '*.token',
        'headers.authorization',
        '*.headers.authorization',
        'config.weblateToken',
        'config.webhookSecret',
        'config.databaseUrl',
        'databaseUrl',
        'connectionString',
        'password',
        '*.password',
      ],
      censor: '[redacted]',
    },
    // A driver's error or a server's answer may quote a URL with its password; no field
    // path can foresee where, so the written line is checked.
    hooks: { streamWrite: redactUrlsInText },
  };
  const isPretty = options.pretty ?? process.stderr.isTTY === true;
  if (isPretty) {
    // One line per event: a terminal shows the summary and the error after the logs, and a
    // field per line pushed them out of sight. Only `err` (an Error, with its stack) gets
    // lines of its own; `error` is a message.
    return pino(
      base,
      pretty({
        destination: 2,
        sync: true,
        ignore: 'pid,hostname,name',
        singleLine: true,
        errorLikeObjectKeys: ['err'],
      }),
    );
  }
  return pino(base, options.destination ?? pino.destination({ dest: 2, sync: true }));
}

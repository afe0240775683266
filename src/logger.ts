import { pino } from 'pino';
import pretty from 'pino-pretty';

import type { LogLevel } from './config.ts';
import { toError } from './errors.ts';
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
  const withStack = options.level === 'debug' || options.level === 'trace';
  const base: pino.LoggerOptions = {
    level: options.level,
    base: { name: 'weblate-mirror' },
    serializers: { err: (value: unknown) => serializeError(value, withStack) },
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

/**
 * An error as a log line carries it: its kind, code, message and its causes' messages. The
 * stack only when debugging; never the properties a driver attaches (a statement and its
 * parameters, which can run to megabytes).
 */
export function serializeError(value: unknown, withStack: boolean): unknown {
  if (!(value instanceof Error)) return value;
  const out: Record<string, unknown> = { type: value.name, message: value.message };
  const code = (value as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  const causes: string[] = [];
  for (let cause = value.cause; cause !== undefined && causes.length < 5;) {
    causes.push(cause instanceof Error ? cause.message : JSON.stringify(cause));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  if (causes.length > 0) out.causes = causes;
  if (withStack) out.stack = value.stack;
  return out;
}

/**
 * A failure as one line at the error level: its message as `error`, beside `fields`, and
 * its stack at the debug level only. Log lines carry messages, never a driver's error
 * object with a statement's parameters.
 */
export function logFailure(
  log: Logger,
  err: unknown,
  msg: string,
  fields: Record<string, unknown> = {},
): void {
  const error = toError(err);
  log.error({ ...fields, error: error.message }, msg);
  log.debug({ stack: error.stack }, `${msg}: stack`);
}

import { loadConfig } from '../../config.ts';
import { ExplainedError, toError, UsageError } from '../../errors.ts';
import { createLogger } from '../../logger.ts';
import { formatTable } from '../../sync/summary.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { print, withDatabase } from '../runtime.ts';

export const queryCommand: Command = {
  name: 'query',
  description: 'Run one read-only SQL statement against the mirror and print the rows.',
  summary:
    'Run one SQL statement against the mirror and print the result (handy for the embedded database).\n' +
    'It runs in a read-only transaction: a statement that writes is refused. Where there is no mirror\n' +
    '(a mistyped --data-dir, a database without the weblate schema) it says so and exits 1.',
  usage: 'query [options] "<sql>"',
  options: { ...DATABASE_OPTIONS, json: { type: 'boolean' } },
  optionHelp: [
    '--json                 print rows as JSON lines instead of a table',
    ...DATABASE_HELP,
  ],
  async run(values, positionals) {
    if (positionals.length !== 1)
      throw new UsageError('query takes exactly one SQL statement, in quotes');
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'read' }, async (handle) => {
      let rows: Array<Record<string, unknown>>;
      try {
        rows = await handle.readOnlyStatement(positionals[0]!);
      } catch (err) {
        throw explainStatementError(err);
      }
      printRows(rows, values.json === true);
      return 0;
    });
  },
};

/**
 * The server's refusal of a statement, in words: a write and a second statement get a
 * sentence of their own, anything else keeps PostgreSQL's message (a syntax error, an
 * unknown column), which says what is wrong.
 */
export function explainStatementError(err: unknown): Error {
  const error = toError(err);
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return error;
  if (code === '25006')
    return new ExplainedError(
      `query only reads: the statement tried to write (${error.message}). weblate-mirror query runs in ` +
        'a read-only transaction; use psql or another client to change data.',
      { cause: err },
    );
  // 42601 is every syntax error; the extended protocol's refusal of a second statement is
  // known by its message.
  if (code === '42601' && /multiple commands/.test(error.message))
    return new ExplainedError('query runs one statement at a time; run each statement on its own', {
      cause: err,
    });
  return new ExplainedError(`query failed: ${error.message}`, { cause: err });
}

export function printRows(rows: Array<Record<string, unknown>>, asJson: boolean): void {
  if (asJson) {
    for (const row of rows) print(JSON.stringify(row));
    return;
  }
  if (rows.length === 0) {
    print('(no rows)');
    return;
  }
  const header = Object.keys(rows[0]!);
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint')
      return v.toString();
    return JSON.stringify(v) ?? '';
  };
  print(
    formatTable(
      header,
      rows.map((row) => header.map((h) => cell(row[h]).replace(/\s+/g, ' ').slice(0, 60))),
    ),
  );
  print(`(${rows.length} row${rows.length === 1 ? '' : 's'})`);
}

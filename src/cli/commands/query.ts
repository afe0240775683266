import { sql } from 'kysely';

import { loadConfig } from '../../config.ts';
import { UsageError } from '../../errors.ts';
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
  summary:
    'Run one SQL statement against the mirror and print the result (handy for the embedded database).',
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
    return withDatabase(config, log, { migrate: false }, async ({ db }) => {
      const result = await sql.raw<Record<string, unknown>>(positionals[0]!).execute(db);
      printRows(result.rows, values.json === true);
      return 0;
    });
  },
};

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

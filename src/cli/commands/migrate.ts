import { loadConfig } from '../../config.ts';
import { createLogger } from '../../logger.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { print, withDatabase } from '../runtime.ts';

export const migrateCommand: Command = {
  name: 'migrate',
  description: 'Create or update the weblate schema.',
  summary:
    'Create or update the weblate schema. Safe to run twice and from several processes at once.',
  usage: 'migrate [options]',
  options: DATABASE_OPTIONS,
  optionHelp: DATABASE_HELP,
  async run(values) {
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'migrate' }, (handle) => {
      print(`database ${handle.location} (${handle.kind}) is up to date`);
      return Promise.resolve(0);
    });
  },
};

import { loadConfig } from '../../config.ts';
import { withLockSession } from '../../db/advisory-lock.ts';
import { UsageError } from '../../errors.ts';
import { createLogger } from '../../logger.ts';
import { describeMove, moveInstance } from '../../sync/instance.ts';
import { configuredRun, withWriter } from '../../sync/write-session.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { print, printError, withDatabase } from '../runtime.ts';

export const moveInstanceCommand: Command = {
  name: 'move-instance',
  description: 'Record that the mirrored Weblate instance moved to a new address.',
  summary:
    'Record that the Weblate instance this database mirrors is now served at a new address (a new\n' +
    'host name, port or path), so that sync goes on from where it was instead of refusing the new\n' +
    'WEBLATE_URL. It first reads the project list at the new address (with WEBLATE_TOKEN) and refuses\n' +
    'unless every project the mirror holds is there with the same id and slug; then it records the\n' +
    'address and rewrites the links the mirror stored with the old one. Exit code 0 when recorded\n' +
    '(or already recorded), 2 when the new address does not serve the same instance.',
  usage: 'move-instance --to <url> [options]',
  options: { ...DATABASE_OPTIONS, to: { type: 'string' }, force: { type: 'boolean' } },
  optionHelp: [
    '--to <url>             the new address of the instance, as WEBLATE_URL takes it',
    '--force                record the move without checking the projects at the new address',
    ...DATABASE_HELP,
  ],
  environment: ['WEBLATE_TOKEN', 'WEBLATE_ALLOW_HTTP', 'WEBLATE_TIMEOUT_SECONDS'],
  async run(values) {
    if (typeof values.to !== 'string' || values.to.trim() === '')
      throw new UsageError('move-instance needs --to <url>, the new address of the instance');
    const config = loadConfig({
      overrides: { ...flagOverrides(values, DATABASE_FLAGS), WEBLATE_URL: values.to.trim() },
      required: ['WEBLATE_URL'],
    });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'migrate' }, (handle) =>
      withLockSession(handle, (session) =>
        withWriter(
          session,
          handle,
          configuredRun(config, log),
          { onWait: () => log.info('waiting for a worker job that writes the mirror') },
          async (deps) => {
            const { line, code } = describeMove(
              await moveInstance(deps, { force: values.force === true }),
            );
            // A refusal is an error, for people: stderr, like every error line.
            if (code === 0) print(line);
            else printError(line);
            return code;
          },
        ),
      ),
    );
  },
};

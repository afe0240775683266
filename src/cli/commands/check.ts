import { loadConfig } from '../../config.ts';
import { createLogger } from '../../logger.ts';
import { checkDocument, runChecks } from '../../sync/check.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
  variableOptionHelp,
} from '../args.ts';
import { print, printError, printJson } from '../runtime.ts';

export const checkCommand: Command = {
  name: 'check',
  description: 'Test the connections a sync would use and say what to fix.',
  summary:
    'Test every connection a sync would use, one line each on stdout, changing nothing: Weblate (one\n' +
    'request to WEBLATE_URL with WEBLATE_TOKEN: the token, and the rate budget it announces), and the\n' +
    'database (it opens, its migrations are applied, a write in a rolled-back transaction goes\n' +
    'through, the embedded one has disk room, and it mirrors the instance of WEBLATE_URL). Exit code\n' +
    '0 when every check holds, 1 when one does not (the count goes to stderr too).',
  usage: 'check [options]',
  options: { ...DATABASE_OPTIONS, url: { type: 'string' }, json: { type: 'boolean' } },
  optionHelp: [
    variableOptionHelp('--url <url>', 'WEBLATE_URL', '; the token comes from WEBLATE_TOKEN only'),
    '--json                 print the checks as one JSON object on stdout (README, "Output for programs")',
    ...DATABASE_HELP,
  ],
  environment: [
    'WEBLATE_TOKEN',
    'WEBLATE_TIMEOUT_SECONDS',
    'WEBLATE_CONNECT_TIMEOUT_SECONDS',
    'WEBLATE_ALLOW_HTTP',
  ],
  async run(values) {
    const config = loadConfig({
      overrides: flagOverrides(values, { ...DATABASE_FLAGS, url: 'WEBLATE_URL' }),
      required: ['WEBLATE_URL'],
    });
    const log = createLogger({ level: config.logLevel });
    const checks = await runChecks(config, log);
    if (values.json === true) printJson(checkDocument(checks));
    else for (const r of checks.results) print(`${r.status.padEnd(7)} ${r.name}: ${r.detail}`);
    const failing = checks.results.filter((r) => r.status === 'failed').length;
    if (failing === 0) return 0;
    printError(
      `weblate-mirror: ${failing} of ${checks.results.length} checks failed (${checks.results
        .filter((r) => r.status === 'failed')
        .map((r) => r.name)
        .join(', ')})`,
    );
    return 1;
  },
};

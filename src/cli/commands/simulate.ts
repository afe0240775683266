import { once } from 'node:events';

import { UsageError } from '../../errors.ts';
import { DEFAULT_SIZE, type SimulatorSize, startSimulator } from '../../simulator/index.ts';
import type { Command, OptionSpec } from '../args.ts';
import { print } from '../runtime.ts';

const SIZE_FLAGS: Array<keyof SimulatorSize> = [
  'projects',
  'components',
  'languages',
  'units',
  'changes',
  'users',
];

export const SIZE_OPTIONS: OptionSpec = Object.fromEntries(
  SIZE_FLAGS.map((f) => [f, { type: 'string' as const }]),
);
export const SIZE_HELP = [
  '--seed <n>             seed of the generated data (default 1; same seed, same instance)',
  `--projects <n>         number of projects (default ${DEFAULT_SIZE.projects})`,
  `--components <n>       components over all projects (default ${DEFAULT_SIZE.components})`,
  `--languages <n>        target languages besides the source language (default ${DEFAULT_SIZE.languages})`,
  `--units <n>            strings (units) over all translations (default ${DEFAULT_SIZE.units})`,
  `--changes <n>          change history records (default ${DEFAULT_SIZE.changes})`,
  `--users <n>            users with notification subscriptions (default ${DEFAULT_SIZE.users})`,
];

/** Reads --seed and the size flags; each must be a whole number. */
export function parseSizeFlags(
  values: Record<string, string | boolean | undefined>,
): Partial<SimulatorSize> & { seed?: number } {
  const out: Partial<SimulatorSize> & { seed?: number } = {};
  for (const flag of [...SIZE_FLAGS, 'seed'] as const) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < (flag === 'seed' ? 0 : 1)) {
      throw new UsageError(
        `--${flag} must be a whole number${flag === 'seed' ? '' : ' of at least 1'}, got "${raw}"`,
      );
    }
    out[flag] = value;
  }
  return out;
}

export const simulateCommand: Command = {
  name: 'simulate',
  summary:
    'Serve a generated, Weblate-compatible instance on 127.0.0.1 for trying the mirror without a Weblate.\n' +
    'Prints its base URL and runs until interrupted (Ctrl-C).',
  usage: 'simulate [options]',
  options: { port: { type: 'string' }, seed: { type: 'string' }, ...SIZE_OPTIONS },
  optionHelp: ['--port <n>             port on 127.0.0.1 (default: any free port)', ...SIZE_HELP],
  async run(values) {
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError('--port must be a port number');
    const simulator = await startSimulator({ ...parseSizeFlags(values), port });
    print(simulator.url);
    process.stderr.write(
      `Weblate simulator listening. Try:\n  WEBLATE_URL=${simulator.url} npx weblate-mirror sync\nPress Ctrl-C to stop.\n`,
    );
    await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
    await simulator.close();
    return 0;
  },
};

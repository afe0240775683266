import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { format, resolveConfig } from 'prettier';
import { describe, expect, expectTypeOf, it } from 'vitest';

import { JOBS } from '../jobs/index.ts';
import { configTableMarkdown, README_COMMAND, withConfigTable } from '../scripts/config-readme.ts';
import { type Command, commandHelp } from '../src/cli/args.ts';
import { backfillCommand } from '../src/cli/commands/backfill.ts';
import { demoCommand } from '../src/cli/commands/demo.ts';
import { migrateCommand } from '../src/cli/commands/migrate.ts';
import { queryCommand } from '../src/cli/commands/query.ts';
import { reportCommand } from '../src/cli/commands/report.ts';
import { runJobCommand } from '../src/cli/commands/run-job.ts';
import { serveCommand } from '../src/cli/commands/serve.ts';
import { simulateCommand } from '../src/cli/commands/simulate.ts';
import { statusCommand } from '../src/cli/commands/status.ts';
import { syncCommand } from '../src/cli/commands/sync.ts';
import { workerCommand } from '../src/cli/commands/worker.ts';
import type { Config, ConfigVariable } from '../src/config.ts';
import { CONFIG_TABLE, CONFIG_VARIABLE_NAMES, CRON_VARIABLES } from '../src/config.ts';
import { schemaOf } from '../src/config-table.ts';

const ROOT = join(import.meta.dirname, '..');
const README = join(ROOT, 'README.md');
const COMMANDS: Command[] = [
  syncCommand,
  backfillCommand,
  workerCommand,
  runJobCommand,
  migrateCommand,
  statusCommand,
  queryCommand,
  serveCommand,
  reportCommand,
  demoCommand,
  simulateCommand,
];

/** What a command's --help says each time it names a variable, wrapped lines joined. */
function helpAbout(command: Command): Array<[ConfigVariable, string]> {
  const entries: string[] = [];
  for (const line of commandHelp(command).split('\n')) {
    if (/^ {10,}\S/.test(line) && entries.length > 0)
      entries.push(`${entries.pop()} ${line.trim()}`);
    else entries.push(line);
  }
  return entries.flatMap((entry): Array<[ConfigVariable, string]> => {
    const variable =
      /\benv ([A-Z_]+)\)/.exec(entry)?.[1] ?? /^ {2}([A-Z][A-Z_]+) +\S/.exec(entry)?.[1];
    return variable === undefined ? [] : [[variable as ConfigVariable, entry]];
  });
}

describe('the configuration table', () => {
  it(`is what README.md shows between its markers (run \`${README_COMMAND}\` when not)`, () => {
    const readme = readFileSync(README, 'utf8');
    expect(
      readme === withConfigTable(readme),
      `README.md's configuration table differs from src/config-table.ts: run \`${README_COMMAND}\``,
    ).toBe(true);
  });

  it('is generated exactly as prettier formats it', async () => {
    const options = await resolveConfig(README);
    const table = configTableMarkdown();
    expect(await format(table, { ...options, filepath: README })).toBe(`${table}\n`);
  });

  it("is what every command's --help says of the variables it names", () => {
    const named = new Set<ConfigVariable>();
    for (const command of COMMANDS) {
      for (const [name, text] of helpAbout(command)) {
        expect(CONFIG_VARIABLE_NAMES, `${command.name} --help names ${name}`).toContain(name);
        // An option's line puts "; env NAME" inside the help line's closing parenthesis.
        const help = CONFIG_TABLE[name].help.replace(/\)$/, '');
        expect(
          text.includes(help),
          `${command.name} --help on ${name} is not the help of src/config-table.ts ("${help}"): ` +
            'write it with variableOptionHelp or Command.environment, not by hand',
        ).toBe(true);
        named.add(name);
      }
    }
    expect(CONFIG_VARIABLE_NAMES.filter((name) => !named.has(name))).toEqual([]);
  });

  it('gives each default the README shows as a value the value the schema defaults to', () => {
    for (const name of CONFIG_VARIABLE_NAMES) {
      const shown = /^`([^`]+)`$/.exec(CONFIG_TABLE[name].readmeDefault)?.[1];
      if (shown === undefined) continue;
      const job = JOBS.find((j) => j.cronVariable === name);
      if (job !== undefined) {
        // Unset, a cron variable leaves the job's own default in place.
        expect(shown, name).toBe(job.defaultCron);
        continue;
      }
      const schema = schemaOf(CONFIG_TABLE[name], { allowHttp: false });
      expect(schema.parse(shown), name).toEqual(schema.parse(undefined));
    }
  });

  it('sets every Config field, the cron ones under the cron variables, and .env.example has them all', () => {
    type Field = (typeof CONFIG_TABLE)[ConfigVariable]['field'];
    expectTypeOf<Exclude<keyof Config, Field>>().toEqualTypeOf<never>();
    expect(CONFIG_VARIABLE_NAMES.filter((name) => CONFIG_TABLE[name].field === 'cron')).toEqual([
      ...CRON_VARIABLES,
    ]);
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    expect(CONFIG_VARIABLE_NAMES.filter((name) => !example.includes(`\n${name}=`))).toEqual([]);
  });
});

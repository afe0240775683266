import type { Kysely } from 'kysely';

import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { lastSucceededSyncAt } from '../../db/queries/sync-runs.ts';
import { listKnownLanguageCodes, listLanguageReadiness } from '../../db/queries/watch-ready.ts';
import { inOneSnapshot } from '../../db/snapshot.ts';
import { ExplainedError, UsageError } from '../../errors.ts';
import { closestMatch } from '../../lib/closest.ts';
import { createLogger } from '../../logger.ts';
import type { ReadyBasis, ReadyUnit } from '../../watch/model.ts';
import {
  decideReadiness,
  describeMissing,
  parseThreshold,
  type ReadyResult,
  renderLinguas,
  renderReadyJson,
  renderReadyLines,
} from '../../watch/ready.ts';
import { listFlag, resolveReadyScope, type ScopeFlags } from '../../watch/ready-scope.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { printError, withDatabase } from '../runtime.ts';

const FORMATS = ['lines', 'json', 'linguas'] as const;
type Format = (typeof FORMATS)[number];
const BASES = ['translated', 'approved'] as const satisfies readonly ReadyBasis[];
const UNITS = ['strings', 'words'] as const satisfies readonly ReadyUnit[];

const RENDERERS: Record<Format, (result: ReadyResult) => string> = {
  lines: renderReadyLines,
  json: (result) => `${renderReadyJson(result)}\n`,
  linguas: renderLinguas,
};

/** Exit code when a required language is below the threshold. */
export const NOT_READY_EXIT = 3;

export const readyCommand: Command = {
  name: 'ready',
  description: 'List the languages at or above a threshold, for a release gate.',
  summary:
    'List the languages of a scope at or above a threshold, from the mirror as the last sync left\n' +
    'it (no Weblate request): one code a line, JSON, or a gettext LINGUAS file. Exits 3 when a\n' +
    'language given with --require is below it.',
  usage: 'ready --min <percent> [options]',
  options: {
    ...DATABASE_OPTIONS,
    min: { type: 'string' },
    basis: { type: 'string' },
    by: { type: 'string' },
    require: { type: 'string', multiple: true },
    format: { type: 'string' },
    project: { type: 'string', multiple: true },
    category: { type: 'string' },
    label: { type: 'string' },
  },
  optionHelp: [
    '--min <percent>        the threshold, 0 to 100 (decimals allowed); required',
    '--basis <basis>        translated (default) or approved strings count as done',
    '--by <unit>            strings (default) or words (source words)',
    '--require <codes>      languages that must be ready (exit code 3 otherwise); repeat it or',
    '                       separate codes with commas',
    '--format <format>      lines (default: one code a line), json or linguas (a gettext LINGUAS file)',
    '--project <slug>       only these projects; repeat it or separate slugs with commas',
    '--category <path>      only the components of this category, as `report --category` takes it',
    '--label <name>         only the strings that carry this label, as `report --label` takes it',
    ...DATABASE_HELP,
  ],
  async run(values) {
    const flags = parseReadyFlags(values);
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'read' }, async ({ db }) => {
      const result = await inOneSnapshot(db, 1, (read) => read((trx) => readReady(trx, flags)));
      if (!process.stdout.destroyed) process.stdout.write(RENDERERS[flags.format](result));
      if (result.missingRequired.length === 0) return 0;
      printError(describeMissing(result));
      return NOT_READY_EXIT;
    });
  },
};

export interface ReadyFlags extends ScopeFlags {
  threshold: string;
  basis: ReadyBasis;
  by: ReadyUnit;
  required: string[];
  format: Format;
}

function stringFlag(value: unknown): string | null {
  if (Array.isArray(value)) return stringFlag(value.at(-1));
  return typeof value === 'string' ? value.trim() : null;
}

function oneOf<T extends string>(
  value: unknown,
  flag: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const given = stringFlag(value);
  if (given === null) return fallback;
  if (!(allowed as readonly string[]).includes(given))
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not "${given}"`);
  return given as T;
}

/** Reads and checks the flags; a bad value is a UsageError (exit code 2). */
export function parseReadyFlags(values: Record<string, unknown>): ReadyFlags {
  const min = stringFlag(values.min);
  if (min === null) throw new UsageError('--min <percent> is required, e.g. --min 90');
  const threshold = parseThreshold(min);
  if (threshold === null)
    throw new UsageError(
      `--min must be a percentage from 0 to 100 such as 90 or 92.5, not "${min}"`,
    );
  const category = stringFlag(values.category);
  if (category === '' || (category !== null && !/^[\w-]+(\/[\w-]+)*\/?$/.test(category)))
    throw new UsageError(
      `--category takes a category path such as my-app/docs or docs/api (slugs joined by /), not "${category}"`,
    );
  const label = stringFlag(values.label);
  if (label === '') throw new UsageError('--label needs a label name');
  return {
    threshold,
    basis: oneOf(values.basis, 'basis', BASES, 'translated'),
    by: oneOf(values.by, 'by', UNITS, 'strings'),
    required: listFlag(
      values.require,
      '--require takes language codes such as de or pt_BR',
      /^\S+$/,
    ),
    format: oneOf(values.format, 'format', FORMATS, 'lines'),
    projects: listFlag(
      values.project,
      '--project takes project slugs (letters, digits, _ and -)',
      /^[\w-]+$/,
    ),
    category,
    label,
  };
}

/** Everything `ready` prints, read in one snapshot. */
async function readReady(db: Kysely<Database>, flags: ReadyFlags): Promise<ReadyResult> {
  const dataAsOf = await lastSucceededSyncAt(db);
  if (dataAsOf === null)
    throw new ExplainedError(
      'the mirror has no successful sync yet, so no language can be called ready: run `weblate-mirror sync` first',
    );
  const scope = await resolveReadyScope(db, flags);
  if (flags.required.length > 0) {
    const known = await listKnownLanguageCodes(db);
    for (const code of flags.required)
      if (!known.includes(code)) {
        const near = closestMatch(code, known);
        throw new UsageError(
          `--require: the mirror knows no language "${code}"${near === null ? '' : `; did you mean "${near}"?`}`,
        );
      }
  }
  const rows = await listLanguageReadiness(db, scope.filter, flags);
  return decideReadiness({
    threshold: flags.threshold,
    basis: flags.basis,
    by: flags.by,
    scope: scope.description,
    dataAsOf,
    rows,
    required: flags.required,
  });
}

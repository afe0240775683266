import { loadConfig } from '../../config.ts';
import { readReportClock } from '../../db/queries/report-scope.ts';
import { UsageError } from '../../errors.ts';
import { createLogger } from '../../logger.ts';
import { isIsoDay } from '../../report/days.ts';
import { buildDigest, DIGEST_LIMIT } from '../../watch/digest/build.ts';
import { digestPeriod } from '../../watch/digest/period.ts';
import { renderDigest } from '../../watch/digest/render.ts';
import type { RenderedDigest } from '../../watch/model.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { print, withDatabase } from '../runtime.ts';
import { checkScope, parseReportFlags } from './report.ts';

const EVERY = ['day', 'week'] as const;
const FORMATS = ['text', 'html', 'json', 'slack'] as const;
type Format = (typeof FORMATS)[number];

const OUTPUT: Record<Format, (digest: RenderedDigest) => string> = {
  text: (d) => d.text,
  html: (d) => d.html,
  json: (d) => JSON.stringify(d.document, null, 2),
  // What a Slack incoming webhook takes: `text` is the notification's fallback.
  slack: (d) => JSON.stringify({ text: d.subject, blocks: d.blocks }, null, 2),
};

export const digestCommand: Command = {
  name: 'digest',
  description: 'Print the daily or weekly digest that the worker sends to its channels.',
  summary:
    "Print one period's digest: what moved, what stalled, which languages became ready (80, 90,\n" +
    '95 % of words translated), the review queue, new source work and the activity, with the\n' +
    "report's figures for the same window and links into Weblate (docs/watching.md).",
  usage: 'digest [options]',
  options: {
    ...DATABASE_OPTIONS,
    every: { type: 'string' },
    at: { type: 'string' },
    format: { type: 'string' },
    project: { type: 'string', multiple: true },
    language: { type: 'string' },
    category: { type: 'string' },
    label: { type: 'string' },
    limit: { type: 'string' },
  },
  optionHelp: [
    '--every <day|week>     the period: a UTC day (default) or an ISO week, Monday to Sunday',
    '--at <YYYY-MM-DD>      a day inside the period (default: the last complete period)',
    '--format <format>      text (default), html, json or slack (the Slack webhook payload)',
    '--project <slug>       only these projects; repeat it or separate slugs with commas',
    '--language <code>      only this language',
    '--category <path>      only the components of this category and those inside it',
    '--label <name>         not available: a digest counts whole translations and changes',
    `--limit <n>            rows per list of movers, stalled translations and review (default ${DIGEST_LIMIT})`,
    ...DATABASE_HELP,
  ],
  async run(values) {
    const flags = parseDigestFlags(values);
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'read' }, async ({ db }) => {
      const options = await checkScope(db, flags.report);
      const { today } = await readReportClock(db);
      if (flags.at !== null && flags.at > today)
        throw new UsageError(`--at ${flags.at} is after today (${today}, UTC)`);
      const period = digestPeriod(flags.every, today, flags.at);
      const category = options.category ?? null;
      const digest = await buildDigest(db, {
        every: flags.every,
        period,
        scope: {
          projects: category === null ? options.projects : [category.project],
          language: options.language,
          components: category?.components ?? null,
          category: category?.name ?? null,
        },
        limit: options.limit,
      });
      const text = OUTPUT[flags.format](renderDigest(digest));
      print(text.endsWith('\n') ? text.slice(0, -1) : text);
      return 0;
    });
  },
};

/** Reads and checks the flags; a bad value is a UsageError (exit code 2). */
export function parseDigestFlags(values: Record<string, unknown>) {
  const every = lastString(values.every) ?? 'day';
  if (!(EVERY as readonly string[]).includes(every))
    throw new UsageError(`--every must be one of ${EVERY.join(', ')}, not "${every}"`);
  const at = lastString(values.at);
  if (at !== null && !isIsoDay(at))
    throw new UsageError(`--at must be a date written YYYY-MM-DD, not "${at}"`);
  const format = lastString(values.format) ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${format}"`);
  if (lastString(values.label) !== null)
    throw new UsageError(
      '--label: a digest counts whole translations and changes, which a label cannot narrow; `report --label` shows the progress of its strings',
    );
  // The scope flags mean what they mean to `report`, and are checked by its code.
  const report = parseReportFlags({
    project: values.project,
    language: values.language,
    category: values.category,
    limit: values.limit ?? String(DIGEST_LIMIT),
  });
  return { every: every as (typeof EVERY)[number], at, format: format as Format, report };
}

function lastString(value: unknown): string | null {
  if (Array.isArray(value)) return lastString(value.at(-1));
  return typeof value === 'string' ? value.trim() : null;
}

import type { Kysely } from 'kysely';

import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import {
  findLiveProjects,
  hasReportingViews,
  isKnownLanguage,
  readReportClock,
} from '../../db/queries/report-scope.ts';
import { UsageError } from '../../errors.ts';
import { createLogger } from '../../logger.ts';
import { buildReport, readWidth, type ReportOptions } from '../../report/build-report.ts';
import { isIsoDay } from '../../report/days.ts';
import type { Report } from '../../report/model.ts';
import { renderCsv } from '../../report/render-csv.ts';
import { renderHtml } from '../../report/render-html.ts';
import { renderJson } from '../../report/render-json.ts';
import { renderTable } from '../../report/render-table.ts';
import { resolveCategory, resolveLabel } from '../../report/resolve-scope.ts';
import { writeHtmlFile } from '../../report/write-html.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { EFFORT_HELP, EFFORT_OPTIONS, parseEffortFlags } from '../effort-flags.ts';
import { print, withDatabase } from '../runtime.ts';

const FORMATS = ['table', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

const RENDERERS: Record<Format, (report: Report) => string> = {
  table: renderTable,
  json: renderJson,
  csv: renderCsv,
};

const DEFAULT_LIMIT = 10;

export const reportCommand: Command = {
  name: 'report',
  description: 'Print progress, people, review, release readiness and more, or write an HTML page.',
  summary:
    'Print progress by project, language, component, category and label, the biggest movers over\n' +
    '7 and 30 days, the top contributors and stalled translations, new source work, the review\n' +
    'queue, how translations were made, release readiness and failing checks, from the reporting\n' +
    'views and answer functions; or write them as one self-contained HTML page with charts (--html).',
  usage: 'report [options]',
  options: {
    ...DATABASE_OPTIONS,
    format: { type: 'string' },
    html: { type: 'string' },
    project: { type: 'string', multiple: true },
    language: { type: 'string' },
    category: { type: 'string' },
    label: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string' },
    ...EFFORT_OPTIONS,
  },
  optionHelp: [
    '--format <format>      table (default), json (one object: README, "Output for programs") or csv (one table per section)',
    '--html <file>          write the report as an HTML page with charts (prints the tables too with --format)',
    '--project <slug>       only these projects; repeat it or separate slugs with commas',
    '--language <code>      only this language',
    '--category <path>      only the components of this category and those inside it:',
    '                       project/category[/sub…], or the bare path when one project has it',
    '--label <name>         progress by language and history of the strings that carry this label',
    "                       (any case; project/name for one project's); the sections that count",
    '                       whole translations or changes are left out',
    '--since <YYYY-MM-DD>   first day (UTC) of the window of movers, activity, contributors and the',
    '                       periodic sections (by week; by month beyond 92 days); default:',
    '                       movers over the last 7 and 30 days, activity over the last 30',
    `--limit <n>            rows per list of movers, contributors, stalled translations and review (default ${DEFAULT_LIMIT})`,
    ...EFFORT_HELP,
    ...DATABASE_HELP,
  ],
  async run(values) {
    const flags = parseReportFlags(values);
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'read' }, async ({ db, kind }) => {
      const report = await buildReport(db, await checkScope(db, flags), readWidth(kind));
      if (flags.html !== null) {
        const path = writeHtmlFile(flags.html, renderHtml(report));
        if (flags.format === null) {
          print(`Report written to ${path}`);
          return 0;
        }
      }
      // Written as is: CSV lines end in CRLF, and print() would add a bare LF.
      const text = RENDERERS[flags.format ?? 'table'](report);
      if (!process.stdout.destroyed) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      return 0;
    });
  },
};

interface ReportFlags {
  options: ReportOptions;
  /** --category and --label as given; checkScope looks them up. */
  category: string | null;
  label: string | null;
  /** null: not given (table, unless --html). */
  format: Format | null;
  html: string | null;
}

/** Reads and checks the flags; a bad value is a UsageError (exit code 2). */
export function parseReportFlags(values: Record<string, unknown>): ReportFlags {
  const format = stringFlag(values.format);
  if (format !== null && !(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${format}"`);
  const html = stringFlag(values.html);
  if (html === '') throw new UsageError('--html needs a file name');
  const since = stringFlag(values.since);
  if (since !== null && !isIsoDay(since))
    throw new UsageError(`--since must be a date written YYYY-MM-DD, not "${since}"`);
  const limitText = stringFlag(values.limit) ?? String(DEFAULT_LIMIT);
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || !Number.isSafeInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a positive whole number, not "${limitText}"`);
  const language = stringFlag(values.language);
  if (language !== null && !/^\S+$/.test(language))
    throw new UsageError(
      `--language must be a language code such as de or pt_BR, not "${language}"`,
    );
  const category = stringFlag(values.category);
  if (category === '' || (category !== null && !/^[\w-]+(\/[\w-]+)*\/?$/.test(category)))
    throw new UsageError(
      `--category takes a category path such as my-app/docs or docs/api (slugs joined by /), not "${category}"`,
    );
  const label = stringFlag(values.label);
  if (label === '') throw new UsageError('--label needs a label name');
  return {
    options: {
      projects: projectSlugs(values.project),
      language,
      since,
      limit,
      effort: parseEffortFlags(values),
    },
    category,
    label,
    format: format as Format | null,
    html,
  };
}

function stringFlag(value: unknown): string | null {
  if (Array.isArray(value)) return stringFlag(value.at(-1));
  return typeof value === 'string' ? value.trim() : null;
}

/** `--project a --project b,c` → [a, b, c], without repeats. */
function projectSlugs(value: unknown): string[] {
  // Declared `multiple`, so parseArgs gives an array (a single string is accepted too).
  const given = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const slugs = given.flatMap((v) => String(v).split(',')).map((s) => s.trim());
  if (slugs.some((s) => !/^[\w-]+$/.test(s)))
    throw new UsageError(
      `--project takes project slugs (letters, digits, _ and -), comma-separated; got "${given.join(',')}"`,
    );
  return [...new Set(slugs)];
}

/**
 * Refuses what the mirror cannot report on (no views, an unknown project, language,
 * category or label, a day ahead); gives the options with the category and label looked up.
 */
export async function checkScope(db: Kysely<Database>, flags: ReportFlags): Promise<ReportOptions> {
  const { options } = flags;
  if (!(await hasReportingViews(db)))
    throw new Error(
      'this database has no reporting views yet: run `weblate-mirror migrate` (or a sync) first',
    );
  const live = await findLiveProjects(db, options.projects);
  const unknown = options.projects.filter((p) => !live.includes(p));
  if (unknown.length > 0)
    throw new UsageError(
      `--project: no live project ${unknown.map((p) => `"${p}"`).join(', ')} in the mirror`,
    );
  if (options.language !== null && !(await isKnownLanguage(db, options.language)))
    throw new UsageError(`--language: the mirror knows no language "${options.language}"`);
  const { today } = await readReportClock(db);
  if (options.since !== null && options.since > today)
    throw new UsageError(`--since ${options.since} is after today (${today}, UTC)`);
  const category =
    flags.category === null ? null : await resolveCategory(db, flags.category, options.projects);
  const projects = category === null ? options.projects : [category.project];
  const label = flags.label === null ? null : await resolveLabel(db, flags.label, projects);
  return { ...options, category, label };
}

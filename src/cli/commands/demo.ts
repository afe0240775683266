import { join } from 'node:path';

import { sql } from 'kysely';

import { loadConfig } from '../../config.ts';
import { createDb } from '../../db/client.ts';
import { firstEstimatedDay } from '../../db/queries/backfill.ts';
import { readInstance } from '../../db/queries/instances.ts';
import { countRows } from '../../db/queries/status.ts';
import { createLogger, type Logger } from '../../logger.ts';
import { readWidth } from '../../report/build-report.ts';
import { writeHtmlReport } from '../../report/write-html.ts';
import { formatTable } from '../../sync/summary.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { type DemoServer, startDemoServer } from '../demo-server.ts';
import { print, withDatabase } from '../runtime.ts';
import { printRows } from './query.ts';
import { parseInstanceFlags, SIZE_HELP, SIZE_OPTIONS } from './simulate.ts';
import { syncOnce } from './sync.ts';

/**
 * Example questions a user can ask next, shown (and the first one answered) after the demo
 * sync. They read the reporting views (docs/schema.md): percentages from summed counts,
 * truncated as Weblate truncates them, and days in UTC.
 */
export const EXAMPLE_QUERIES = [
  {
    title: 'How far along is each language?',
    sql: `select language_code, translated, total, translated_percent
from weblate.language_progress order by translated_percent desc, language_code`,
  },
  {
    title: 'What moved on the seven most recent days with activity?',
    sql: `select day, sum(changes) as changes, count(distinct author_name) as authors
from weblate.activity_daily group by day order by day desc limit 7`,
  },
  {
    title: 'Who contributed most in the last year?',
    sql: `select author_name, sum(changes_365d) as changes, sum(words_365d) as words_translated,
       (max(last_contribution) at time zone 'UTC')::date as last_day
from weblate.contributors group by 1 order by words_translated desc, changes desc, 1 limit 5`,
  },
];

export const demoCommand: Command = {
  name: 'demo',
  description: 'Mirror a simulated Weblate into the embedded database and show what landed.',
  summary:
    'Start a simulated Weblate (a few projects, ~10 components, ~10 languages, ~20,000 strings) on a free\n' +
    'loopback port, mirror it into the embedded database (in <data-dir>/demo), and show what landed.',
  usage: 'demo [options]',
  options: { ...DATABASE_OPTIONS, seed: { type: 'string' }, ...SIZE_OPTIONS },
  optionHelp: [...DATABASE_HELP, ...SIZE_HELP],
  environment: ['WEBLATE_MIRROR_MEMORY_LIMIT_MB'],
  async run(values) {
    const instance = parseInstanceFlags(values);
    const base = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: base.logLevel === 'info' ? 'warn' : base.logLevel });
    const dataDir =
      typeof values['data-dir'] === 'string' ? base.dataDir : join(base.dataDir, 'demo');
    const database = {
      ...flagOverrides(values, DATABASE_FLAGS),
      DATABASE_URL: typeof values['database-url'] === 'string' ? values['database-url'] : '',
      WEBLATE_MIRROR_DATA_DIR: dataDir,
    };
    const simulator = await startOnEarlierPort(
      instance,
      await earlierDemoPort(loadConfig({ overrides: database }), log),
    );
    try {
      const config = loadConfig({
        overrides: {
          ...database,
          WEBLATE_URL: simulator.url,
          WEBLATE_TOKEN: '',
          WEBLATE_PROJECTS: '',
          WEBLATE_USERS: simulator.users.join(','),
        },
      });
      print(
        `Simulated Weblate at ${simulator.url}; mirroring it into ${config.databaseUrl === null ? dataDir : 'PostgreSQL'}.`,
      );
      print();
      const result = await syncOnce(config, log);
      if (result.status !== 'succeeded') return 1;
      await showWhatLanded(config, dataDir);
      await writeDemoReport(config, dataDir);
      return 0;
    } finally {
      await simulator.close();
    }
  },
};

/**
 * The loopback port an earlier demo served its simulated instance on, from the instance the
 * demo's database records, or 0 (any free port): a database mirrors one instance, at one
 * address, so a demo run again into the same folder serves it where the first did.
 */
async function earlierDemoPort(
  config: ReturnType<typeof loadConfig>,
  log: Logger,
): Promise<number> {
  try {
    const recorded = await withDatabase(config, log, { mode: 'read' }, ({ db }) =>
      readInstance(db),
    );
    const url = recorded === null ? null : new URL(recorded.api_root);
    return url?.hostname === '127.0.0.1' ? Number(url.port) : 0;
  } catch {
    return 0; // no demo there yet, or nothing readable: any port will do
  }
}

/** The demo's simulated Weblate on `port`, or on any free port when that one is taken. */
async function startOnEarlierPort(
  options: Parameters<typeof startDemoServer>[0],
  port: number,
): Promise<DemoServer> {
  if (port !== 0) {
    try {
      return await startDemoServer({ ...options, port });
    } catch {
      // Taken by something else since: the sync will say this database mirrors another address.
    }
  }
  return startDemoServer(options);
}

async function showWhatLanded(
  config: ReturnType<typeof loadConfig>,
  dataDir: string,
): Promise<void> {
  const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    print();
    print('What landed:');
    const counts = await countRows(handle.db);
    print(
      formatTable(
        ['table', 'rows'],
        Object.entries(counts).map(([t, n]) => [`weblate.${t}`, String(n)]),
      ),
    );
    const first = EXAMPLE_QUERIES[0]!;
    print();
    print(`${first.title}\n`);
    printRows((await sql.raw<Record<string, unknown>>(first.sql).execute(handle.db)).rows, false);
  } finally {
    await handle.close();
  }
  const target =
    config.databaseUrl === null ? `--data-dir ${dataDir}` : '--database-url <your DATABASE_URL>';
  print();
  print('Ask the mirror yourself, for example:');
  for (const query of EXAMPLE_QUERIES) {
    print();
    print(`  # ${query.title}`);
    print(`  npx weblate-mirror query ${target} "${query.sql.replace(/\s*\n\s*/g, ' ')}"`);
  }
}

/** Ends the demo with the HTML report of what landed, in the demo's folder. */
async function writeDemoReport(
  config: ReturnType<typeof loadConfig>,
  dataDir: string,
): Promise<void> {
  const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    // The whole simulated history: estimated from the change log up to the first sync.
    const since = await firstEstimatedDay(handle.db);
    const { path } = await writeHtmlReport(
      handle.db,
      join(dataDir, 'report.html'),
      { projects: [], language: null, since, limit: 10 },
      readWidth(handle.kind),
    );
    const target = [
      config.databaseUrl === null ? `--data-dir ${dataDir}` : '--database-url <your DATABASE_URL>',
      ...(since === null ? [] : [`--since ${since}`]),
    ].join(' ');
    print();
    print(`Report written to ${path}`);
    print(`  open it in a browser, or print it as tables: npx weblate-mirror report ${target}`);
  } finally {
    await handle.close();
  }
}

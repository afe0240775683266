/**
 * Reporting at the large shape: every reporting view and table function of schema
 * `weblate`, and `weblate-mirror report` itself, timed on a mirror of 1,000 projects,
 * 5,000 components, about 1,000,000 units and 1,000,000 changes (with categories and labels)
 * in real PostgreSQL.
 *
 *   node --import tsx bench/report-read.ts [--database-url postgres://…] [--units N]
 *     [--changes N] [--reuse] [--drop] [--timeout-seconds 120] [--report-timeout-seconds 300]
 *
 * The mirror is built in the database `weblate_mirror_bench_report` on that server: the
 * simulator, a full sync with the CLI, `weblate-mirror backfill`, VACUUM ANALYZE (about 10
 * minutes on 2 cores). It is kept afterwards; `--reuse` reads it again without building it
 * (if a build of the same shape finished), and `--drop` drops it at the end.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import type { ReportShape } from './report-build.ts';
import { benchReports } from './reports.ts';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

function options() {
  const { values } = parseArgs({
    options: {
      'database-url': {
        type: 'string',
        default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
      projects: { type: 'string', default: '1000' },
      components: { type: 'string', default: '5000' },
      languages: { type: 'string', default: '10' },
      units: { type: 'string', default: '1000000' },
      changes: { type: 'string', default: '1000000' },
      reuse: { type: 'boolean', default: false },
      drop: { type: 'boolean', default: false },
      'build-only': { type: 'boolean', default: false },
      'timeout-seconds': { type: 'string', default: '120' },
      'report-timeout-seconds': { type: 'string', default: '300' },
    },
  });
  const int = (name: 'projects' | 'components' | 'languages' | 'units' | 'changes') =>
    Number.parseInt(values[name], 10);
  const shape: ReportShape = {
    projects: int('projects'),
    components: int('components'),
    languages: int('languages'),
    units: int('units'),
    changes: int('changes'),
  };
  return {
    adminUrl: values['database-url'],
    shape,
    reuse: values.reuse,
    drop: values.drop,
    buildOnly: values['build-only'],
    timeoutMs: Number(values['timeout-seconds']) * 1000,
    reportTimeoutMs: Number(values['report-timeout-seconds']) * 1000,
  };
}

/** The command that produced the results, for the markdown. */
function commandLine(): string {
  return ['node --import tsx bench/report-read.ts', ...process.argv.slice(2)].join(' ');
}

async function main(): Promise<void> {
  const started = performance.now();
  const { built, measured, markdown } = await benchReports({
    ...options(),
    command: commandLine(),
  });
  if (measured === null || markdown === null) {
    process.stdout.write(`${JSON.stringify(built, null, 2)}\n`);
    return;
  }
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`${markdown}\n\nwhole run: ${minutes} min\n`);
  mkdirSync(RESULTS, { recursive: true });
  const file = `${RESULTS}reports-${new Date().toISOString().replaceAll(':', '-')}.json`;
  const json = { date: new Date().toISOString(), node: process.version, built, ...measured };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`results written to ${file}\n`);
}

await main();

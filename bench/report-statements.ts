/**
 * Times the report's statements on a mirror one by one, and each renderer:
 *   node --import tsx bench/report-statements.ts [--database-url postgres://…] [--project p] [--language l]
 * (the mirror bench/report-read.ts builds and keeps; docs/performance.md, "Effort answers").
 */
import { parseArgs } from 'node:util';

import { timeReportQueries } from './report-queries.ts';

const { values } = parseArgs({
  options: {
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/weblate_mirror_bench_report',
    },
    project: { type: 'string', multiple: true, default: [] },
    language: { type: 'string' },
    'timeout-seconds': { type: 'string', default: '120' },
  },
});
const run = await timeReportQueries(
  values['database-url'],
  {
    projects: values.project,
    language: values.language ?? null,
    since: null,
    limit: 10,
  },
  Number(values['timeout-seconds']) * 1000,
);
for (const q of run.queries)
  process.stdout.write(
    `${String(q.ms).padStart(10)} ms  ${q.isFailed ? 'FAILED ' : ''}${q.reads}\n`,
  );
process.stdout.write(`build ${run.buildMs} ms; renderers ${JSON.stringify(run.renderMs)}\n`);
if (run.error !== null) process.stdout.write(`error: ${run.error}\n`);

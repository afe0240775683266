import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (child processes, whole simulated instances synced several
 * times, waits for timeouts and rate budgets), longest first, measured on a 2-core machine. Started first, they run side by
 * side while the many short files fill the gaps around them; started last, one of them alone
 * would set the end of the run. vitest orders by its cache of durations, which a fresh clone
 * (CI) does not have: it then starts the largest files first, and size says little of time.
 */
const LONGEST_FIRST = [
  // Seconds on PostgreSQL / PGlite in one run of the whole suite (2 cores, 4 workers).
  'test/worker/worker.test.ts', // 22 / 60
  'test/cli/window-crash.test.ts', // 24 / 55
  'test/cli/cli.test.ts', // 23 / 38
  'test/sync/faults.test.ts', // 22 / 33
  'test/cli/crash.test.ts', // 12 / 27
  'test/sync/unit-windows.test.ts', // 10 / 25
  'test/worker/run-job.test.ts', // 9 / 22
  'test/sync/memory-limit.test.ts', // 10 / 22
  'test/sync/slow-pages.test.ts', // 13 / 18
  'test/sync/change-discovery.test.ts', // 7 / 16
  'test/webhooks/worker.test.ts', // 6 / 13
  'test/db/pglite-cluster.test.ts', // 10 / 8
  'test/db/migrations.test.ts', // 3 / 8
  'test/sync/change-windows.test.ts', // 5 / 8
  'test/sync/unit-strategy.test.ts', // 4 / 7
  'test/simulator/mutations.test.ts', // 3 / 7
  // Shorter, but mostly waiting (for child processes, locks, a browser): early, their waits
  // overlap the work of other files instead of ending the run.
  'test/report/report-html.test.ts',
  'test/webhooks/receiver.test.ts',
  'test/cli/simulate.test.ts',
  'test/deploy/bin.test.ts',
  'test/cli/sync-lock.test.ts',
  'test/cli/interruption.test.ts',
  'test/worker/http.test.ts',
  'test/report/report.test.ts',
];

function rank(file: TestSpecification): number {
  const index = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
  return index === -1 ? LONGEST_FIRST.length : index;
}

/** vitest's order, with LONGEST_FIRST ahead of the rest. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (child processes, whole simulated instances synced several
 * times, waits for timeouts and rate budgets), longest first, measured on a 2-core machine. Started first, they run side by
 * side while the many short files fill the gaps around them; started last, one of them alone
 * would set the end of the run. vitest orders by its cache of durations, which a fresh clone
 * (CI) does not have: it then starts the largest files first, and size says little of time.
 */
const LONGEST_FIRST = [
  // Longest first, as measured in one run of the whole suite (2 cores, 4 workers).
  'test/cli/window-crash.test.ts',
  'test/worker/worker.test.ts',
  'test/upgrade/in-place.test.ts',
  'test/sync/faults.test.ts',
  'test/sync/slow-pages.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/crash.test.ts',
  'test/sync/unit-windows.test.ts',
  'test/worker/run-job.test.ts',
  'test/sync/change-discovery.test.ts',
  'test/report/report.test.ts',
  'test/sync/memory-limit.test.ts',
  'test/sync/unit-strategy.test.ts',
  'test/webhooks/worker.test.ts',
  'test/sync/stale-translation-statistics.test.ts',
  'test/sync/deletions.test.ts',
  'test/sync/change-windows.test.ts',
  // Shorter, but mostly waiting (for child processes, locks, a browser): early, their waits
  // overlap the work of other files instead of ending the run.
  'test/sync/full-disk.test.ts',
  'test/sync/postgres-restart.test.ts',
  'test/deploy/bin.test.ts',
  'test/cli/secrets.test.ts',
  'test/report/report-html.test.ts',
  'test/report/report-demo.test.ts',
  'test/webhooks/receiver.test.ts',
  'test/cli/simulate.test.ts',
  'test/cli/query.test.ts',
  'test/cli/missing-mirror.test.ts',
  'test/cli/sync-lock.test.ts',
  'test/cli/interruption.test.ts',
  'test/worker/http.test.ts',
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
